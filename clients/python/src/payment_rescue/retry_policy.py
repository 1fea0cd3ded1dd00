"""The interface's retry rules for callers ("Errors"), as the TypeScript client applies them.

- 500 (500010 included), 502, 504, no answer: exponential backoff with jitter, the same
  idempotencyKey (only calls that cannot act twice);
- 503 503001 (idempotency store) and 503010 (not taken up in time): wait Retry-After, then retry;
- 503 503002 rescue unavailable: never retried (fall back to the original decline);
- another 503: retried after Retry-After only when it carries one;
- 429: wait Retry-After; 409 409003 (same key in flight) and 409009 (order busy): backoff;
- 401: a new token once and the call once more (the transport's own rule, not counted here).
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Callable, Optional, Tuple


@dataclass(frozen=True)
class RetryOptions:
    max_attempts: int = 3
    """Attempts in all, the first included (the interface: at most 3)."""
    base_delay: float = 0.25
    """First backoff delay in seconds; doubles each retry, with jitter."""
    max_delay: float = 5.0
    """Longest backoff delay in seconds."""
    max_retry_after: float = 30.0
    """A Retry-After longer than this (seconds) is not waited for: the error is raised."""


_RETRY_AFTER_IDS = {"503001", "503010"}
_BACKOFF_IDS = {"409003", "409009"}

# ("no", None), ("backoff", None) or ("retry-after", seconds)
Decision = Tuple[str, Optional[float]]


def decide(status: int, error_id: Optional[str], retry_after: Optional[float], idempotent: bool, options: RetryOptions) -> Decision:
    """How to treat one error answer. `idempotent`: repeating the call cannot act twice."""

    def after_retry_after() -> Decision:
        if retry_after is None:
            return ("backoff", None) if idempotent else ("no", None)
        return ("retry-after", retry_after) if retry_after <= options.max_retry_after else ("no", None)

    if status == 503:
        if error_id == "503002":
            return ("no", None)
        if error_id in _RETRY_AFTER_IDS or retry_after is not None:
            return after_retry_after()
        return ("no", None)
    if status == 429:
        return after_retry_after()
    if not idempotent:
        return ("no", None)
    if status in (500, 502, 504):
        return ("backoff", None)
    if status == 409 and error_id in _BACKOFF_IDS:
        return ("backoff", None)
    return ("no", None)


def backoff_delay(retry: int, options: RetryOptions, rand: Callable[[], float] = random.random) -> float:
    """Exponential backoff with equal jitter: half the step fixed, half random. `retry` counts from 1."""
    step = min(options.max_delay, options.base_delay * 2 ** (retry - 1))
    return step / 2 + rand() * (step / 2)


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After as seconds or an HTTP date, in seconds; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if re.fullmatch(r"\d+", value):
        return float(value)
    try:
        at = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, at - (time.time() if now is None else now))
