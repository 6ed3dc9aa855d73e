"""verify_evidence: checks a delivered photo's signed verification record (the `evidence` of
`photos.delivered`, or GET /orders/{id}/photos/{photo_id}/evidence) against the service's JWKS,
with the pure-Python Ed25519 of .ed25519 (standard library only), and — given the photo's bytes —
that they are the bytes the record's SHA-256 names. Returns the record's claims."""
import base64
import hashlib
import json
import re
from typing import Any, Dict, Mapping, Optional, Union

from . import ed25519
from .errors import EvidenceVerificationError

EVIDENCE_TYP = "photo-evidence+jwt"
_B64URL = re.compile(r"^[A-Za-z0-9_-]*$")


def _b64url(text: str) -> bytes:
    if not _B64URL.match(text):
        raise EvidenceVerificationError("The evidence is not a compact JWS (bad base64url).")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _json(data: bytes) -> Dict[str, Any]:
    try:
        value = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        value = None
    if not isinstance(value, dict):
        raise EvidenceVerificationError("The evidence is not a compact JWS (bad JSON).")
    return value


def verify_evidence(
    evidence: str,
    jwks: Mapping[str, Any],
    photo: Optional[Union[bytes, bytearray, memoryview]] = None,
    issuer: Optional[str] = None,
) -> Dict[str, Any]:
    """Verify `evidence` (a compact JWS) with `jwks` (the parsed /.well-known/jwks.json).

    Raises EvidenceVerificationError when the signature, the key, the header, the issuer (when
    given) or the photo's bytes (when given) do not check out."""
    parts = evidence.split(".")
    if len(parts) != 3:
        raise EvidenceVerificationError("The evidence is not a compact JWS (three parts).")
    header_part, payload_part, signature_part = parts
    header = _json(_b64url(header_part))
    if header.get("alg") != "EdDSA":
        raise EvidenceVerificationError("Unexpected algorithm %r: evidence is signed with EdDSA." % header.get("alg"))
    if header.get("typ") != EVIDENCE_TYP:
        raise EvidenceVerificationError("Not a photo evidence record (typ %r)." % header.get("typ"))
    key = next((k for k in jwks.get("keys", []) if isinstance(k, dict) and k.get("kid") == header.get("kid")), None)
    if not key or key.get("kty") != "OKP" or key.get("crv") != "Ed25519" or not isinstance(key.get("x"), str):
        raise EvidenceVerificationError("No Ed25519 key %r in the JWKS." % header.get("kid"))
    public = _b64url(key["x"])
    signature = _b64url(signature_part)
    if not ed25519.verify(public, (header_part + "." + payload_part).encode("ascii"), signature):
        raise EvidenceVerificationError("The evidence's signature does not verify.")
    record = _json(_b64url(payload_part))
    if issuer is not None and record.get("iss") != issuer:
        raise EvidenceVerificationError("The evidence was issued by %r, not %r." % (record.get("iss"), issuer))
    if photo is not None and hashlib.sha256(bytes(photo)).hexdigest() != record.get("sha256"):
        raise EvidenceVerificationError("The photo's bytes are not the ones the evidence was signed for (SHA-256 differs).")
    return record
