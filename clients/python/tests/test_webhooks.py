"""verify_webhook, offline: signatures made as the service makes them (Standard Webhooks + X-SVC-Signature)."""
import base64
import hashlib
import hmac
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from photo_missions import WebhookVerificationError, verify_webhook  # noqa: E402

PAYLOAD = json.dumps({"id": "evt_1", "event": "submission.received", "timestamp": "2026-01-01T00:00:00Z", "data": {"submission_id": "sub_1"}})
NOW = 1_767_268_800
# Secrets from before the service followed Standard Webhooks exactly: webhook-signature keyed with their characters.
NEW, OLD = "whsec_new_0123456789abcdef", "whsec_old_0123456789abcdef"
# A secret made now: whsec_ + standard base64 of random bytes, webhook-signature keyed with the decoded bytes.
STANDARD_KEY = bytes(range(200, 232))
STANDARD = "whsec_" + base64.b64encode(STANDARD_KEY).decode()


def standard_key(secret):
    """The key the service uses for webhook-signature (lib/service/webhooks/signing-secret.ts)."""
    return STANDARD_KEY if secret == STANDARD else secret.encode()


def signed(secrets, timestamp=NOW, payload=PAYLOAD):
    standard = " ".join(
        "v1," + base64.b64encode(hmac.new(standard_key(s), f"evt_1.{timestamp}.{payload}".encode(), hashlib.sha256).digest()).decode() for s in secrets
    )
    headers = {
        "webhook-id": "evt_1",
        "webhook-timestamp": str(timestamp),
        "webhook-signature": standard,
        "X-SVC-Signature": hmac.new(secrets[0].encode(), payload.encode(), hashlib.sha256).hexdigest(),
    }
    if len(secrets) > 1:
        headers["x-svc-signature-previous"] = hmac.new(secrets[1].encode(), payload.encode(), hashlib.sha256).hexdigest()
    return headers


class VerifyWebhookTest(unittest.TestCase):
    def test_accepts_and_parses(self):
        event = verify_webhook(PAYLOAD.encode(), signed([NEW]), NEW, now=NOW)
        self.assertEqual(event["data"]["submission_id"], "sub_1")

    def test_refuses_tampered_body_and_wrong_secret(self):
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(PAYLOAD.replace("sub_1", "sub_2"), signed([NEW]), NEW, now=NOW)
        with self.assertRaisesRegex(WebhookVerificationError, "webhook-signature"):
            verify_webhook(PAYLOAD, signed([NEW]), "whsec_other", now=NOW)

    def test_refuses_missing_headers(self):
        headers = signed([NEW])
        del headers["webhook-signature"]
        with self.assertRaisesRegex(WebhookVerificationError, "Missing"):
            verify_webhook(PAYLOAD, headers, NEW, now=NOW)

    def test_timestamp_tolerance(self):
        with self.assertRaisesRegex(WebhookVerificationError, "old"):
            verify_webhook(PAYLOAD, signed([NEW]), NEW, now=NOW + 301)
        with self.assertRaisesRegex(WebhookVerificationError, "old"):
            verify_webhook(PAYLOAD, signed([NEW]), NEW, now=NOW - 301)
        self.assertEqual(verify_webhook(PAYLOAD, signed([NEW]), NEW, tolerance_seconds=900, now=NOW + 600)["id"], "evt_1")

    def test_rotation_either_secret(self):
        headers = signed([NEW, OLD])
        self.assertEqual(verify_webhook(PAYLOAD, headers, [OLD], now=NOW)["id"], "evt_1")
        self.assertEqual(verify_webhook(PAYLOAD, headers, [NEW, OLD], now=NOW)["id"], "evt_1")

    def test_svc_signature_must_match_too(self):
        headers = signed([NEW])
        headers["X-SVC-Signature"] = "00" * 32
        with self.assertRaisesRegex(WebhookVerificationError, "X-SVC-Signature"):
            verify_webhook(PAYLOAD, headers, NEW, now=NOW)

    def test_standard_secret_keys_with_its_decoded_bytes(self):
        self.assertTrue(STANDARD.endswith("="))  # standard base64, padded: "+" and "/" are allowed too
        event = verify_webhook(PAYLOAD, signed([STANDARD]), STANDARD, now=NOW)
        self.assertEqual(event["id"], "evt_1")
        # Another standard secret does not verify it.
        with self.assertRaisesRegex(WebhookVerificationError, "webhook-signature"):
            verify_webhook(PAYLOAD, signed([STANDARD]), "whsec_" + base64.b64encode(bytes(32)).decode(), now=NOW)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(PAYLOAD.replace("sub_1", "sub_2"), signed([STANDARD]), STANDARD, now=NOW)

    def test_rotation_from_a_legacy_to_a_standard_secret(self):
        headers = signed([STANDARD, OLD])
        self.assertEqual(verify_webhook(PAYLOAD, headers, [OLD], now=NOW)["id"], "evt_1")
        self.assertEqual(verify_webhook(PAYLOAD, headers, [STANDARD], now=NOW)["id"], "evt_1")


if __name__ == "__main__":
    unittest.main()
