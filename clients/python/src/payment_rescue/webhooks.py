"""Webhook verification (docs/webhooks.md of the service, "Verifying"), as the TypeScript client's.

Checked: x-fc-content-sha512 (SHA-512 of the raw body), the x-fc-authorization signature
(HMAC-SHA512 over "POST\\n" + nonce;date;host;contentHash with the base64-decoded secret), the
x-fc-signature body signature, and that x-fc-date is within `tolerance` seconds of now. Every
secret given is tried (rotation), every comparison is constant-time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import time
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import Any, Iterable, Mapping, Optional, Union, cast

from .types import WebhookEnvelope

DEFAULT_TOLERANCE = 300.0
"""How far x-fc-date may be from now, either way, in seconds (5 minutes)."""


class WebhookVerificationError(Exception):
    """The delivery is not authentic, was modified, or is too old (a replay). Answer non-2xx.

    `reason`: `missing-headers`, `stale`, `content-hash` or `signature`.
    """

    def __init__(self, reason: str):
        super().__init__(f"webhook rejected: {reason}")
        self.reason = reason


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    """A header by its name in any case; the first value of a list."""
    get = getattr(headers, "get_all", None)  # email.message.Message / http.client headers
    if get is not None:
        values = get(name)
        return values[0] if values else None
    for key, value in headers.items():
        if key.lower() == name:
            return value[0] if isinstance(value, (list, tuple)) else value
    return None


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def _sign(secret: str, data: bytes) -> str:
    return base64.b64encode(hmac.new(base64.b64decode(secret), data, hashlib.sha512).digest()).decode()


def _failure(body, headers, secrets, host, tolerance, now) -> Optional[str]:
    if isinstance(body, str):
        body = body.encode("utf-8")
    if not isinstance(body, (bytes, bytearray, memoryview)):
        raise TypeError("webhooks: body must be the raw body (bytes or str), not parsed JSON")
    body = bytes(body)
    nonce = _header(headers, "x-fc-nonce")
    date = _header(headers, "x-fc-date")
    match = re.search(r"&Signature=(.+)$", _header(headers, "x-fc-authorization") or "")
    claimed = match.group(1) if match else None
    claimed_body = _header(headers, "x-fc-signature")
    claimed_hash = _header(headers, "x-fc-content-sha512")
    if not (nonce and date and claimed and claimed_body and claimed_hash):
        return "missing-headers"
    try:
        sent = parsedate_to_datetime(date).timestamp()
    except (TypeError, ValueError):
        return "stale"
    if isinstance(now, datetime):
        now = now.timestamp()
    if tolerance > 0 and abs((time.time() if now is None else now) - sent) > tolerance:
        return "stale"
    content_hash = base64.b64encode(hashlib.sha512(body).digest()).decode()
    if not _same(claimed_hash, content_hash):
        return "content-hash"
    to_sign = f"POST\n{nonce};{date};{host};{content_hash}".encode()
    matched = False
    # Every secret is tried, so the time taken does not tell which one matched.
    for secret in [secrets] if isinstance(secrets, str) else secrets:
        ok = _same(claimed, _sign(secret, to_sign)) and _same(claimed_body, _sign(secret, body))
        matched = ok or matched
    return None if matched else "signature"


def verify(
    body: Union[bytes, str],
    headers: Mapping[str, Any],
    secrets: Union[str, Iterable[str]],
    host: str,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Union[datetime, float, None] = None,
) -> bool:
    """True when the delivery is authentic (signed by one of `secrets`), unmodified and fresh.

    body: the raw body as received (never re-serialised JSON); headers: as your framework gives
    them; secrets: the endpoint's secret, or during a rotation the new and the old one; host: the
    host of the URL you registered (with its port unless 443): it is signed; tolerance: seconds,
    0 turns the date check off; now: a datetime or Unix seconds (default: the clock).
    """
    return _failure(body, headers, secrets, host, tolerance, now) is None


def parse(
    body: Union[bytes, str],
    headers: Mapping[str, Any],
    secrets: Union[str, Iterable[str]],
    host: str,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Union[datetime, float, None] = None,
) -> WebhookEnvelope:
    """The verified envelope (a dict; narrow it on `Event`), or WebhookVerificationError."""
    reason = _failure(body, headers, secrets, host, tolerance, now)
    if reason:
        raise WebhookVerificationError(reason)
    return cast(WebhookEnvelope, json.loads(body))
