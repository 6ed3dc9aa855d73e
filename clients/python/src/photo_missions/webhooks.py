"""Verifies a webhook request before anything trusts it.

The service signs every request twice: Standard Webhooks (``webhook-id``, ``webhook-timestamp``,
``webhook-signature``: HMAC-SHA256 over ``id.timestamp.body``, which binds the timestamp so a
captured request cannot be replayed later) and the spec's ``X-SVC-Signature`` (hex HMAC-SHA256
of the body). While a rotated-out secret still signs, signatures by both secrets are sent: pass
the old and the new secret. Comparisons use ``hmac.compare_digest`` (constant time).

Keys, as the service signs: ``webhook-signature`` is keyed as Standard Webhooks says, with the
bytes a ``whsec_`` + base64 secret decodes to (every secret made or rotated since the service
followed the spec exactly). Secrets made before (``whsec_``/``odsec_`` + base64url) keyed it with
their characters, as they still do until rotated; the string alone does not tell which it is (an
old base64url secret may decode as base64 too), so both keys are tried: each needs the secret.
``X-SVC-Signature`` is keyed with the secret's characters, whatever its age.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
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


_STANDARD_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")


def _standard_secret_bytes(secret: str) -> Optional[bytes]:
    """The bytes a Standard Webhooks secret (``whsec_`` + standard base64) stands for, or None."""
    if not secret.startswith("whsec_"):
        return None
    encoded = secret[len("whsec_"):]
    if not _STANDARD_BASE64.match(encoded):
        return None
    try:
        key = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        return None
    return key or None


def _standard_keys(secrets: List[str]) -> List[bytes]:
    keys: List[bytes] = []
    for secret in secrets:
        decoded = _standard_secret_bytes(secret)
        if decoded is not None:
            keys.append(decoded)
        keys.append(secret.encode("utf-8"))
    return keys


def _matches_any(keys: List[bytes], signatures: List[bytes], data: bytes) -> bool:
    matched = False
    # Every pair is compared (no early exit), so timing does not tell which secret matched.
    for key in keys:
        expected = hmac.new(key, data, hashlib.sha256).digest()
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
    if not _matches_any(_standard_keys(secret_list), standard, signed):
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
        if not _matches_any([secret.encode("utf-8") for secret in secret_list], svc, body):
            raise WebhookVerificationError("X-SVC-Signature does not match the secret(s).")

    try:
        event = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise WebhookVerificationError("The payload is not JSON.") from error
    if not isinstance(event, dict):
        raise WebhookVerificationError("The payload is not a JSON object.")
    return event
