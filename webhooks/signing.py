"""Standard Webhooks signatures (https://www.standardwebhooks.com/).

Every request carries ``webhook-id`` (the message id, the same on every attempt),
``webhook-timestamp`` (seconds since the epoch, of this attempt) and ``webhook-signature``:
``v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>``, space-separated when two
secrets sign (during a rotation's overlap). A secret is ``whsec_<base64 key>``; the HMAC
key is the decoded bytes. ``verify`` is what a receiver does (docs/webhooks.md).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Iterable, Mapping

PREFIX = "whsec_"
TOLERANCE_SECONDS = 300


class InvalidSignature(Exception):  # noqa: N818 - the name receivers know
    pass


def new_secret() -> str:
    return PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def _key(secret: str) -> bytes:
    return base64.b64decode(secret.removeprefix(PREFIX))


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers(
    secrets_: Iterable[str], message_id: str, body: bytes, timestamp: int | None = None
) -> dict[str, str]:
    """The three headers, signed with each of ``secrets_`` (current first)."""
    moment = int(time.time()) if timestamp is None else timestamp
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(moment),
        "webhook-signature": " ".join(signature(s, message_id, moment, body) for s in secrets_),
    }


def verify(secret: str, headers_: Mapping[str, str], body: bytes, now: float | None = None) -> None:
    """Raises ``InvalidSignature`` unless one of the signatures is ``secret``'s and the
    timestamp is within ``TOLERANCE_SECONDS`` of ``now``."""
    lowered = {k.lower(): v for k, v in headers_.items()}
    try:
        message_id = lowered["webhook-id"]
        timestamp = int(lowered["webhook-timestamp"])
        given = lowered["webhook-signature"].split()
    except (KeyError, ValueError):
        raise InvalidSignature("missing or malformed webhook headers") from None
    if abs((time.time() if now is None else now) - timestamp) > TOLERANCE_SECONDS:
        raise InvalidSignature("timestamp too far from now")
    expected = signature(secret, message_id, timestamp, body)
    if not any(hmac.compare_digest(expected, candidate) for candidate in given):
        raise InvalidSignature("no matching signature")
