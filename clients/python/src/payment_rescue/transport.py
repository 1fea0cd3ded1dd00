"""HTTP with the interface's retry and token rules: one call in, one answer (or a typed error) out."""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Protocol

from .errors import CallContext, PaymentRescueError, PaymentRescueNetworkError
from .retry_policy import RetryOptions, backoff_delay, decide, parse_retry_after


@dataclass(frozen=True)
class RetryEvent:
    """Told before each retry: why, and how long the client waits."""

    method: str
    path: str
    attempt: int
    """The attempt that failed (1 = the first)."""
    delay: float
    """Seconds the client waits before the next attempt."""
    reason: str
    """`backoff`, `retry-after` or `token-refresh`."""
    status: Optional[int]
    id: Optional[str]
    idempotency_key: Optional[str]


class AuthProvider(Protocol):
    """Supplies the credential header, per attempt; `refresh` after a 401 (once per call)."""

    def header(self) -> Dict[str, str]: ...

    def refresh(self, rejected: Dict[str, str]) -> None: ...


@dataclass
class Request:
    method: str
    path: str
    idempotent: bool
    """Repeating it cannot act twice (GET, PUT, DELETE, a call carrying an idempotencyKey)."""
    body: Any = None
    form: Optional[Dict[str, str]] = None
    query: Dict[str, Any] = field(default_factory=dict)
    idempotency_key: Optional[str] = None
    auth: Optional[AuthProvider] = None


@dataclass
class _Answer:
    status: int
    body: Any
    headers: Any


class Transport:
    def __init__(
        self,
        base_url: str,
        retry: RetryOptions,
        timeout: float,
        user_agent: str,
        on_retry: Optional[Callable[[RetryEvent], None]] = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.base_url = base_url.rstrip("/")
        self.retry = retry
        self.timeout = timeout
        self.user_agent = user_agent
        self.on_retry = on_retry
        self.sleep = sleep

    def call(self, req: Request) -> Any:
        context = CallContext(req.method, req.path, req.idempotency_key)
        refreshed = False
        while True:
            context.attempts += 1
            auth = req.auth.header() if req.auth else {}
            try:
                answer = self._attempt(req, auth)
            except (urllib.error.URLError, OSError, http.client.HTTPException) as err:
                timed_out = isinstance(err, socket.timeout) or isinstance(getattr(err, "reason", None), socket.timeout)
                if not req.idempotent or context.attempts >= self.retry.max_attempts:
                    raise PaymentRescueNetworkError(err, timed_out, CallContext(**vars(context))) from err
                self._wait(req, context, backoff_delay(context.attempts, self.retry), "backoff", None, None)
                continue
            if answer.status < 400:
                return answer.body

            error_id = _error_id(answer.body)
            if answer.status == 401 and req.auth is not None and not refreshed:
                refreshed = True
                self._tell(req, context, 0.0, "token-refresh", 401, error_id)
                req.auth.refresh(auth)
                context.attempts -= 1  # the interface's "refresh once and retry" is not a retry of the call
                continue
            retry_after = parse_retry_after(answer.headers.get("retry-after"))
            kind, delay = decide(answer.status, error_id, retry_after, req.idempotent, self.retry)
            if kind == "no" or context.attempts >= self.retry.max_attempts:
                raise PaymentRescueError(
                    answer.status, answer.body, answer.headers.get("x-request-id"), retry_after, CallContext(**vars(context))
                )
            if kind == "backoff":
                delay = backoff_delay(context.attempts, self.retry)
            self._wait(req, context, delay or 0.0, kind, answer.status, error_id)

    def _tell(self, req: Request, context: CallContext, delay: float, reason: str, status, error_id) -> None:
        if self.on_retry:
            self.on_retry(RetryEvent(req.method, req.path, context.attempts, delay, reason, status, error_id, req.idempotency_key))

    def _wait(self, req: Request, context: CallContext, delay: float, reason: str, status, error_id) -> None:
        self._tell(req, context, delay, reason, status, error_id)
        self.sleep(delay)

    def _attempt(self, req: Request, auth: Dict[str, str]) -> _Answer:
        url = self.base_url + req.path
        query = {k: v for k, v in req.query.items() if v is not None}
        if query:
            url += "?" + urllib.parse.urlencode(query)
        headers = {"accept": "application/json", "user-agent": self.user_agent, **auth}
        data = None
        if req.form is not None:
            headers["content-type"] = "application/x-www-form-urlencoded"
            data = urllib.parse.urlencode(req.form).encode()
        elif req.body is not None:
            headers["content-type"] = "application/json"
            data = json.dumps(req.body).encode()
        request = urllib.request.Request(url, data=data, headers=headers, method=req.method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as res:
                return _Answer(res.status, _parse(res.read(), res.headers), res.headers)
        except urllib.error.HTTPError as res:  # an answer, with an error status
            with res:
                return _Answer(res.code, _parse(res.read(), res.headers), res.headers)


def _parse(raw: bytes, headers) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8", errors="replace")
    if "json" in (headers.get("content-type") or ""):
        try:
            return json.loads(text)
        except ValueError:
            pass  # a proxy's HTML error page, say: kept as text on the error
    return text


def _error_id(body: Any) -> Optional[str]:
    """The six-digit id of either error shape (`{"error": {"id"}}`, or OAuth's `{"error", "id"}`)."""
    if not isinstance(body, dict):
        return None
    error = body.get("error")
    found = error.get("id") if isinstance(error, dict) else body.get("id")
    return found if isinstance(found, str) else None
