"""Verifies a webhook request before anything trusts it.

The service signs every request twice: Standard Webhooks (``webhook-id``, ``webhook-timestamp``,
``webhook-signature``: HMAC-SHA256 over ``id.timestamp.body``, which binds the timestamp so a
captured request cannot be replayed later) and the spec's ``X-SVC-Signature`` (hex HMAC-SHA256
of the body). While a rotated-out secret still signs, signatures by both secrets are sent: pass
the old and the new secret. Comparisons use ``hmac.compare_digest`` (constant time).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from .errors import WebhookVerificationError


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    getter = getattr(headers, "get", None)
    value = getter(name) if getter else None
    if value is None:
        for key, item in headers.items():
            if key.lower() == name:
                value = item
                break
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    return None if value is None else str(value)


def _matches_any(secrets: List[str], signatures: List[bytes], data: bytes) -> bool:
    matched = False
    # Every pair is compared (no early exit), so timing does not tell which secret matched.
    for secret in secrets:
        expected = hmac.new(secret.encode("utf-8"), data, hashlib.sha256).digest()
        for signature in signatures:
            if hmac.compare_digest(expected, signature):
                matched = True
    return matched


def verify_webhook(
    payload: Union[bytes, str],
    headers: Mapping[str, Any],
    secrets: Union[str, Iterable[str]],
    tolerance_seconds: int = 300,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks signatures and timestamp and returns the parsed event, or raises WebhookVerificationError.

    ``payload`` must be the body exactly as received (never re-serialised JSON).
    """
    secret_list = [secrets] if isinstance(secrets, str) else list(secrets)
    if not secret_list or any(not s for s in secret_list):
        raise WebhookVerificationError("No webhook secret to verify with.")
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)

    event_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signature = _header(headers, "webhook-signature")
    if not event_id or not timestamp or not signature:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature.")
    if not timestamp.isdigit() or len(timestamp) > 12:
        raise WebhookVerificationError("webhook-timestamp is not Unix seconds.")
    age = int(time.time() if now is None else now) - int(timestamp)
    if abs(age) > tolerance_seconds:
        raise WebhookVerificationError(f"The request is {age} s old; more than {tolerance_seconds} s from now.")

    standard: List[bytes] = []
    for entry in signature.split(" "):
        if entry.startswith("v1,"):
            try:
                standard.append(base64.b64decode(entry[3:], validate=True))
            except (binascii.Error, ValueError):
                continue
    signed = f"{event_id}.{timestamp}.".encode("utf-8") + body
    if not _matches_any(secret_list, standard, signed):
        raise WebhookVerificationError("No webhook-signature matches the secret(s).")

    svc_header = _header(headers, "x-svc-signature")
    if svc_header is not None:
        svc: List[bytes] = []
        for value in (svc_header, _header(headers, "x-svc-signature-previous")):
            if value is None:
                continue
            try:
                svc.append(bytes.fromhex(value))
            except ValueError:
                continue
        if not _matches_any(secret_list, svc, body):
            raise WebhookVerificationError("X-SVC-Signature does not match the secret(s).")

    try:
        event = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise WebhookVerificationError("The payload is not JSON.") from error
    if not isinstance(event, dict):
        raise WebhookVerificationError("The payload is not a JSON object.")
    return event
