"""ASGI pieces of the server: per-key rate limit, body size limit, request audit, metrics."""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi.responses import JSONResponse

from .. import _forksafe
from .auth import AuthError, KeyStore
from .problems import problem

__all__ = ["BodyLimit", "HttpMetrics", "RateLimiter", "RequestAudit", "problem_response"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_UNLOGGED = frozenset({"/healthz", "/readyz", "/metrics", "/me/static/me.css", "/me/static/me.js"})


class RateLimiter:
    """A token bucket per key: ``per_minute`` requests a minute, bursts up to that many."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()
        _forksafe.track(self)  # a server built before a fork (gunicorn --preload)

    def after_fork(self) -> None:
        """In a forked child: a new lock. The buckets are kept (the parent's counts so
        far); from the fork on each process counts its own requests, so N workers let a
        key through up to N times ``per_minute``."""
        self._lock = threading.Lock()

    def check(self, key_id: str) -> None:
        if self.per_minute <= 0:
            return
        now = time.monotonic()
        rate = self.per_minute / 60.0
        with self._lock:
            tokens, last = self._buckets.get(key_id, (float(self.per_minute), now))
            tokens = min(float(self.per_minute), tokens + (now - last) * rate)
            if tokens < 1.0:
                self._buckets[key_id] = (tokens, now)
                raise AuthError(
                    f"rate limit of {self.per_minute} requests a minute exceeded; retry in "
                    f"{(1.0 - tokens) / rate:.1f} s",
                    status=429,
                    code="rate_limited",
                )
            self._buckets[key_id] = (tokens - 1.0, now)


def problem_response(doc: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(
        doc, status_code=doc["status"], media_type="application/problem+json", headers=headers
    )


class BodyLimit:
    """413 for a body over ``limit`` bytes (by Content-Length, or counted while streaming)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = problem_response(
            problem("body_too_large", f"the request body is over {self.limit} bytes")
        )
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    n = int(value)
                except ValueError:
                    n = self.limit + 1
                if n > self.limit:
                    await too_large(scope, receive, send)
                    return
        seen = 0
        started = False
        refused = False

        async def limited_receive() -> Message:
            nonlocal seen, refused
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    if not started and not refused:
                        refused = True
                        await too_large(scope, receive, send)
                    # the app sees the client go away; whatever it answers is dropped
                    return {"type": "http.disconnect"}
            return msg

        async def tracking_send(msg: Message) -> None:
            nonlocal started
            if refused:
                return
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        await self.app(scope, limited_receive, tracking_send)


class RequestAudit:
    """Logs every request (method, path, status, time, key id, tenant, user) to the key store."""

    def __init__(self, app: ASGIApp, keys: KeyStore, metrics: Any) -> None:
        self.app = app
        self.keys = keys
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        scope.setdefault("state", {})

        async def capture(msg: Message) -> None:
            nonlocal status
            if msg["type"] == "http.response.start":
                status = int(msg["status"])
            await send(msg)

        try:
            await self.app(scope, receive, capture)
        finally:
            ms = (time.perf_counter() - started) * 1000
            path = scope.get("path", "")
            state = scope["state"]
            if self.metrics is not None:
                self.metrics.observe(scope.get("method", ""), path, status, ms / 1000)
            if path not in _UNLOGGED:
                self.keys.log_request(
                    key_id=state.get("key_id"),
                    tenant=state.get("tenant"),
                    user_id=state.get("user_id"),
                    method=scope.get("method", ""),
                    path=path,
                    status=status,
                    ms=round(ms, 3),
                )


class HttpMetrics:
    """Server-level Prometheus metrics (requests by route and status, latency)."""

    def __init__(self) -> None:
        import prometheus_client as prom

        self.prom = prom
        self.registry = prom.CollectorRegistry()
        self.requests = prom.Counter(
            "usermemory_http_requests_total",
            "HTTP requests served",
            ("method", "path", "status"),
            registry=self.registry,
        )
        self.latency = prom.Histogram(
            "usermemory_http_request_seconds",
            "HTTP request latency",
            ("path",),
            registry=self.registry,
        )
        _forksafe.track(self)  # a server built before a fork (gunicorn --preload)

    def after_fork(self) -> None:
        """In a forked child: new ``prometheus_client`` locks (a parent thread may have
        held one at the fork); the counts so far are the parent's."""
        from ..metrics import renew_prometheus_locks

        renew_prometheus_locks(self.registry, [self.requests, self.latency])

    def observe(self, method: str, path: str, status: int, seconds: float) -> None:
        route = path if path.startswith(("/v1/", "/me", "/mcp")) else "other"
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(route).observe(seconds)

    def latest(self) -> bytes:
        return bytes(self.prom.generate_latest(self.registry))
