"""The merchant operations of the Payment Rescue Service, with its token and retry rules."""

from __future__ import annotations

import platform
import uuid
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, cast
from urllib.parse import quote

from . import types as t
from .retry_policy import RetryOptions
from .tokens import BearerTokens
from .transport import Request, RetryEvent, Transport

VERSION = "1.0.0"


def _segment(value: str) -> str:
    return quote(value, safe="")


class PaymentRescueClient:
    """A client for one API key (client credentials).

    base_url: the API host, e.g. https://sandbox.example.com (paths start with /v1).
    tokenization_key: for `tokenize` only (the bearer token is not accepted there).
    retry: RetryOptions (default: 3 attempts, 0.25 s doubling to 5 s, Retry-After up to 30 s).
    timeout: seconds for one attempt (default 30); a timed-out attempt counts as no answer.
    on_retry: told before each retry (a RetryEvent), for logs and metrics.
    """

    def __init__(
        self,
        base_url: str,
        client_id: str,
        client_secret: str,
        *,
        scope: Optional[str] = None,
        tokenization_key: Optional[str] = None,
        retry: Optional[RetryOptions] = None,
        timeout: float = 30.0,
        on_retry: Optional[Callable[[RetryEvent], None]] = None,
    ):
        self._transport = Transport(
            base_url,
            retry or RetryOptions(),
            timeout,
            f"payment-rescue-client-python/{VERSION} python/{platform.python_version()}",
            on_retry,
        )
        self._tokens = BearerTokens(self._transport, client_id, client_secret, scope)
        self._tokenization_key = tokenization_key
        self.orders = _Orders(self)
        self.events = _Events(self)
        self.webhook_endpoints = _WebhookEndpoints(self)

    def _call(self, method: str, path: str, idempotent: bool, **fields: Any) -> Any:
        fields.setdefault("auth", self._tokens)
        return self._transport.call(Request(method, path, idempotent, **fields))

    def _keyed(self, path: str, body: Mapping[str, Any]) -> Any:
        """A POST carrying an idempotencyKey (the given one, or a new UUID kept for every retry)."""
        key = body.get("idempotencyKey") or str(uuid.uuid4())
        return self._call("POST", path, True, body={**body, "idempotencyKey": key}, idempotency_key=key)

    def evaluate(self, request: t.EvaluateRequest) -> t.EvaluateAnswer:
        """POST /v1/evaluate: analyse a declined transaction (APPROVED, DECLINED, CHALLENGE, SUBMITTED, CAPTUREREQUIRED)."""
        return cast(t.EvaluateAnswer, self._keyed("/v1/evaluate", request))

    def capture(self, request: t.CaptureRequest) -> t.CaptureAnswer:
        """POST /v1/capture: complete an authorized (CAPTUREREQUIRED) order."""
        return cast(t.CaptureAnswer, self._keyed("/v1/capture", request))

    def tokenize(self, card: t.TokenizeRequest) -> Dict[str, Any]:
        """POST /v1/tokenize with the tokenization key, never the bearer token; the same card gives the same token."""
        if not self._tokenization_key:
            raise ValueError("tokenize needs the tokenization_key option (x-tokenization-key)")
        return self._call("POST", "/v1/tokenize", True, body=card, auth=_StaticHeader({"x-tokenization-key": self._tokenization_key}))


class _StaticHeader:
    """A credential that a new token cannot replace (the tokenization key): a 401 is raised."""

    def __init__(self, headers: Dict[str, str]):
        self._headers = headers

    def header(self) -> Dict[str, str]:
        return self._headers

    def refresh(self, rejected: Dict[str, str]) -> None:
        pass


class _Orders:
    def __init__(self, client: PaymentRescueClient):
        self._c = client

    def get(self, order_id: str) -> t.Order:
        """GET /v1/orders/{id}."""
        return self._c._call("GET", f"/v1/orders/{_segment(order_id)}", True)

    def cancel(self, order_id: str, request: Optional[t.CancelOrderRequest] = None) -> None:
        """POST /v1/orders/{id}/cancel: void a rescue not yet captured."""
        self._c._keyed(f"/v1/orders/{_segment(order_id)}/cancel", request or {})

    def external_cancel(self, external_order_id: str, request: Optional[t.CancelOrderRequest] = None) -> None:
        """POST /v1/orders/{external-order-id}/external-cancel: cancel by your own order id."""
        self._c._keyed(f"/v1/orders/{_segment(external_order_id)}/external-cancel", request or {})

    def refund(self, order_id: str, request: Optional[t.RefundOrderRequest] = None) -> t.RefundAnswer:
        """POST /v1/orders/{id}/refund: full unless `amountToRefund` is given."""
        return self._c._keyed(f"/v1/orders/{_segment(order_id)}/refund", request or {})


class _Events:
    def __init__(self, client: PaymentRescueClient):
        self._c = client

    def list(self, since: Optional[str] = None, starting_after: Optional[str] = None, limit: Optional[int] = None) -> t.EventPage:
        """GET /v1/events: one page, oldest first."""
        query = {"since": since, "starting_after": starting_after, "limit": limit}
        return self._c._call("GET", "/v1/events", True, query=query)

    def iterate(self, since: Optional[str] = None, starting_after: Optional[str] = None, limit: Optional[int] = None) -> Iterator[t.EventRecord]:
        """Every event from the given point on, page after page, each once (cursor paging)."""
        if starting_after:
            since = None
        while True:
            page = self.list(since, starting_after, limit)
            yield from page["data"]
            if not page.get("hasMore") or not page.get("nextCursor"):
                return
            starting_after, since = page["nextCursor"], None


class _WebhookEndpoints:
    """Calls that could act twice (create, rotate_secret, send_test_event) are not retried on 500/502/504 or no answer."""

    def __init__(self, client: PaymentRescueClient):
        self._c = client

    def create(self, request: t.CreateWebhookEndpointRequest) -> t.WebhookEndpointWithSecret:
        return self._c._call("POST", "/v1/webhooks", False, body=request)

    def list(self) -> t.WebhookEndpointList:
        return self._c._call("GET", "/v1/webhooks", True)

    def get(self, endpoint_id: str) -> t.WebhookEndpoint:
        return self._c._call("GET", f"/v1/webhooks/{_segment(endpoint_id)}", True)

    def update(self, endpoint_id: str, request: t.UpdateWebhookEndpointRequest) -> t.WebhookEndpoint:
        return self._c._call("PUT", f"/v1/webhooks/{_segment(endpoint_id)}", True, body=request)

    def delete(self, endpoint_id: str) -> t.WebhookEndpointDeleted:
        return self._c._call("DELETE", f"/v1/webhooks/{_segment(endpoint_id)}", True)

    def rotate_secret(self, endpoint_id: str, activates_at: Optional[str] = None) -> t.RotatedWebhookEndpoint:
        """A new secret; the old one keeps signing until `activatesAt` (default 24 h; "now" at once)."""
        body = {} if activates_at is None else {"activatesAt": activates_at}
        return self._c._call("POST", f"/v1/webhooks/{_segment(endpoint_id)}/rotate-secret", False, body=body)

    def send_test_event(self, endpoint_id: str, event: Optional[str] = None) -> t.TestEventQueued:
        """POST /v1/webhooks/{id}/test: a signed test event of `event` (default order.completed)."""
        body = {} if event is None else {"event": event}
        return self._c._call("POST", f"/v1/webhooks/{_segment(endpoint_id)}/test", False, body=body)
