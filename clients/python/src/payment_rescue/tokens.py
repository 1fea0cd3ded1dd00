"""Client credentials (POST /v1/oauth2/token): one cached token, renewed before it expires."""

from __future__ import annotations

import threading
import time
from typing import Callable, Dict, Optional

from .transport import Request, Transport

EXPIRY_MARGIN = 30.0
"""Renew this many seconds before the token's stated expiry, so a call never leaves with a dying token."""


class BearerTokens:
    """One token shared by the client's calls (and threads), renewed 30 s before `expires_in` runs
    out, and replaced when the service answers 401 (the interface: refresh once and retry)."""

    def __init__(
        self,
        transport: Transport,
        client_id: str,
        client_secret: str,
        scope: Optional[str] = None,
        now: Callable[[], float] = time.monotonic,
    ):
        self._transport = transport
        self._form = {"grant_type": "client_credentials", "client_id": client_id, "client_secret": client_secret}
        if scope:
            self._form["scope"] = scope
        self._now = now
        self._lock = threading.Lock()
        self._token: Optional[str] = None
        self._expires_at = 0.0

    def header(self) -> Dict[str, str]:
        return {"authorization": f"Bearer {self._current()}"}

    def refresh(self, rejected: Dict[str, str]) -> None:
        """After a 401: drop the token that was refused, unless another thread already replaced it."""
        with self._lock:
            if rejected.get("authorization") == f"Bearer {self._token}":
                self._token = None
        self._current()

    def _current(self) -> str:
        with self._lock:  # concurrent refreshes become one token request
            if self._token is None or self._now() >= self._expires_at:
                # Issuing a token changes nothing a repeat could double.
                answer = self._transport.call(Request("POST", "/v1/oauth2/token", idempotent=True, form=self._form))
                lifetime = float(answer["expires_in"])
                self._token = answer["access_token"]
                self._expires_at = self._now() + max(lifetime / 2, lifetime - EXPIRY_MARGIN)
            return self._token
