"""verify_evidence and its pure-Python Ed25519, offline: the RFC 8032 test vectors, and evidence
records signed here as the service signs them (compact JWS, EdDSA, kid from the JWKS)."""
import base64
import hashlib
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from photo_missions import EvidenceVerificationError, verify_evidence  # noqa: E402
from photo_missions import ed25519  # noqa: E402

# RFC 8032 section 7.1, TEST 1-3: (secret key, public key, message, signature), hex.
VECTORS = [
    (
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
    (
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    ),
    (
        "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
        "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        "af82",
        "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
    ),
]

PHOTO = b"\xff\xd8\xff\xe0 not really a jpeg, but bytes all the same \xff\xd9"
SECRET = bytes.fromhex(VECTORS[0][0])


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


JWKS = {"keys": [{"kty": "OKP", "crv": "Ed25519", "x": b64url(ed25519.secret_to_public(SECRET)), "kid": "sk_test", "alg": "EdDSA", "use": "sig"}]}


def evidence(record=None, header=None, secret=SECRET):
    h = b64url(json.dumps(header or {"alg": "EdDSA", "typ": "photo-evidence+jwt", "kid": "sk_test"}).encode())
    body = record or {"iss": "http://localhost", "iat": 1, "photo_id": "img_1", "sha256": hashlib.sha256(PHOTO).hexdigest(), "checks": []}
    p = b64url(json.dumps(body).encode())
    return h + "." + p + "." + b64url(ed25519.sign(secret, (h + "." + p).encode()))


class Ed25519Vectors(unittest.TestCase):
    def test_rfc8032_vectors(self):
        for secret, public, message, signature in VECTORS:
            self.assertEqual(ed25519.secret_to_public(bytes.fromhex(secret)).hex(), public)
            self.assertEqual(ed25519.sign(bytes.fromhex(secret), bytes.fromhex(message)).hex(), signature)
            self.assertTrue(ed25519.verify(bytes.fromhex(public), bytes.fromhex(message), bytes.fromhex(signature)))

    def test_rejects_a_changed_message_or_signature(self):
        secret, public, message, signature = VECTORS[2]
        sig = bytearray.fromhex(signature)
        self.assertFalse(ed25519.verify(bytes.fromhex(public), bytes.fromhex("af83"), bytes(sig)))
        sig[5] ^= 1
        self.assertFalse(ed25519.verify(bytes.fromhex(public), bytes.fromhex(message), bytes(sig)))
        self.assertFalse(ed25519.verify(bytes.fromhex(public), bytes.fromhex(message), bytes(sig[:63])))


class VerifyEvidence(unittest.TestCase):
    def test_verifies_with_the_jwks_and_the_photo(self):
        record = verify_evidence(evidence(), JWKS, photo=PHOTO, issuer="http://localhost")
        self.assertEqual(record["photo_id"], "img_1")

    def test_fails_after_one_byte_of_the_photo_changes(self):
        changed = bytearray(PHOTO)
        changed[10] ^= 0x01
        with self.assertRaisesRegex(EvidenceVerificationError, "SHA-256"):
            verify_evidence(evidence(), JWKS, photo=bytes(changed))

    def test_fails_for_a_changed_record_a_wrong_key_or_header(self):
        h, p, s = evidence().split(".")
        forged = json.loads(base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)))
        forged["photo_id"] = "img_2"
        with self.assertRaisesRegex(EvidenceVerificationError, "signature"):
            verify_evidence(h + "." + b64url(json.dumps(forged).encode()) + "." + s, JWKS)
        with self.assertRaisesRegex(EvidenceVerificationError, "signature"):
            verify_evidence(evidence(secret=bytes.fromhex(VECTORS[1][0])), JWKS)
        with self.assertRaisesRegex(EvidenceVerificationError, "No Ed25519 key"):
            verify_evidence(evidence(header={"alg": "EdDSA", "typ": "photo-evidence+jwt", "kid": "sk_other"}), JWKS)
        with self.assertRaisesRegex(EvidenceVerificationError, "algorithm"):
            verify_evidence(evidence(header={"alg": "none", "typ": "photo-evidence+jwt", "kid": "sk_test"}), JWKS)
        with self.assertRaisesRegex(EvidenceVerificationError, "issued by"):
            verify_evidence(evidence(), JWKS, issuer="https://elsewhere")
        with self.assertRaises(EvidenceVerificationError):
            verify_evidence("not.a-jws", JWKS)


if __name__ == "__main__":
    unittest.main()
