"""The errors the client raises: the service's answer, or no answer at all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class CallContext:
    """What the client knows about the call that failed, beyond the answer itself."""

    method: str
    path: str
    idempotency_key: Optional[str]
    """The idempotencyKey the call carried (the same on every attempt): retry later with it."""
    attempts: int = 0
    """Attempts made, retries included."""


def _details(body: Any) -> dict:
    """id, name, message and requestId of either error shape (the token endpoint's is OAuth's)."""
    if not isinstance(body, dict):
        return {}
    error = body.get("error")
    if isinstance(error, dict):
        return error
    return {
        "id": body.get("id"),
        "name": body.get("name"),
        "message": body.get("error_description"),
        "requestId": body.get("requestId"),
    }


class PaymentRescueError(Exception):
    """The service answered with an error. Branch on `id` (six digits, docs/errors.md) or `code`."""

    def __init__(self, status: int, body: Any, request_id: Optional[str], retry_after: Optional[float], call: CallContext):
        details = _details(body)
        super().__init__(details.get("message") or f"HTTP {status} from {call.method} {call.path}")
        self.status = status
        self.id: Optional[str] = details.get("id")
        """Six digits: the HTTP status, then three naming the error (e.g. `503002`)."""
        self.code: Optional[str] = details.get("name")
        """The catalogue name of `id` (e.g. `rescue_unavailable`)."""
        self.request_id: Optional[str] = details.get("requestId") or request_id
        """The service's request id (also the x-request-id header): quote it to support."""
        self.retry_after = retry_after
        """Retry-After of the last answer, in seconds, when it carried one."""
        self.fall_back_to_original_decline = self.id == "503002"
        """503002 rescue_unavailable: keep the original decline; do not retry."""
        self.outcome_unknown = status in (500, 502, 504)
        """The call may have taken effect: retry later with the same idempotency_key."""
        self.idempotency_key = call.idempotency_key
        self.attempts = call.attempts
        self.method = call.method
        self.path = call.path
        self.body = body


class PaymentRescueNetworkError(Exception):
    """No answer: the connection failed or the attempt timed out (`timed_out`).

    The call may have reached the service (`outcome_unknown` is always True): retry with the same
    idempotency_key.
    """

    outcome_unknown = True

    def __init__(self, cause: BaseException, timed_out: bool, call: CallContext):
        what = "timed out" if timed_out else f"failed ({cause})"
        super().__init__(f"{call.method} {call.path} {what}")
        self.timed_out = timed_out
        self.idempotency_key = call.idempotency_key
        self.attempts = call.attempts
        self.method = call.method
        self.path = call.path
