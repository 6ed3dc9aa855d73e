"""Errors the client raises: API errors are RFC 9457 problem details with a stable ``code``."""
from __future__ import annotations

import time
from email.utils import parsedate_to_datetime
from typing import Any, Dict, List, Optional


class PhotoMissionsError(Exception):
    """Base class of every error this package raises."""


class ProblemError(PhotoMissionsError):
    """The API refused the request (4xx) or failed (5xx) after the retries the client allows."""

    def __init__(self, problem: Dict[str, Any], request_id: Optional[str], retry_after_seconds: Optional[int]):
        self.problem = problem
        self.status: int = int(problem.get("status", 0))
        self.code: str = str(problem.get("code", f"http_{self.status}"))
        self.detail: Optional[str] = problem.get("detail")
        self.request_id = request_id
        self.retry_after_seconds = retry_after_seconds
        super().__init__(f"{self.status} {self.code}: {self.detail or problem.get('title', '')}")

    @property
    def field_errors(self) -> List[Dict[str, Any]]:
        """The invalid members of a 422 (``pointer``, ``message``); empty otherwise."""
        errors = self.problem.get("errors")
        return list(errors) if isinstance(errors, list) else []


class OAuthError(PhotoMissionsError):
    """The token endpoint refused the client (RFC 6749 section 5.2)."""

    def __init__(self, error: str, description: str, status: int):
        self.error = error
        self.description = description
        self.status = status
        super().__init__(f"{status} {error}: {description}")


class WebhookVerificationError(PhotoMissionsError):
    """A webhook request whose signature, timestamp or headers do not check out."""


class EvidenceVerificationError(PhotoMissionsError):
    """A delivered photo's evidence record whose signature, key, header or photo bytes do not check out."""


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[int]:
    """``Retry-After`` in seconds: delta-seconds or an HTTP date (RFC 9110 section 10.2.3)."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        at = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0, int(at - (time.time() if now is None else now) + 0.999))
