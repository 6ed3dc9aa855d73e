"""Python client for the Photo Missions API. Standard library only (urllib, json, hmac, hashlib)."""
from .client import ApiKey, ClientCredentials, Download, PhotoMissions, __version__, mission_body
from .errors import EvidenceVerificationError, OAuthError, PhotoMissionsError, ProblemError, WebhookVerificationError, parse_retry_after
from .evidence import verify_evidence
from .webhooks import verify_webhook

__all__ = [
    "ApiKey",
    "ClientCredentials",
    "Download",
    "EvidenceVerificationError",
    "OAuthError",
    "PhotoMissions",
    "PhotoMissionsError",
    "ProblemError",
    "WebhookVerificationError",
    "__version__",
    "mission_body",
    "parse_retry_after",
    "verify_evidence",
    "verify_webhook",
]
