"""The memory server: a FastAPI app over :class:`~shared_core.AsyncUserMemory`.

Endpoints (all ``POST`` with a JSON body, so user ids never appear in URLs or logs):
``/v1/observe``, ``/v1/observe_batch``, ``/v1/remember``, ``/v1/recall``, ``/v1/context``,
``/v1/profile``, ``/v1/history``, ``/v1/forget_key``, ``/v1/forget``, ``/v1/export``,
``/v1/import``, ``/v1/end_session``, ``/v1/session_turns``, ``/v1/set_memory_enabled``,
``/v1/audit``, ``/v1/users``, ``/v1/tokens`` (mint an end-user token), ``/v1/requests``
(the tenant's request log). Also ``/healthz``, ``/readyz`` (checks each store),
``/metrics`` (Prometheus, when ``prometheus-client`` is installed), ``/docs`` (OpenAPI),
``/me`` (the self-service page) and ``/mcp`` (MCP over streamable HTTP).

Every call needs ``Authorization: Bearer <API key or end-user token>``. Errors are RFC 9457
problem details with a stable ``code`` (see :mod:`shared_core.server.problems`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..aio import AsyncUserMemory
from ..entities import AuditEntry, Change, MemoryRecord, ScoredMemory, SessionTurn
from ..errors import UserMemoryError
from ..pipeline import UserMemory
from .auth import AuthError, KeyStore, Principal
from .problems import problem, problem_for_exception
from .service import MemoryService

__all__ = ["BodyLimit", "RateLimiter", "RequestAudit", "ServerSettings", "bearer", "create_app"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_UNLOGGED = frozenset({"/healthz", "/readyz", "/metrics", "/me/static/me.css", "/me/static/me.js"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerSettings:
    """How the server runs.

    Attributes:
        url: memory store URL (default: ``USERMEMORY_URL`` or the embedded SQLite file).
        keys_url: key store URL (default: ``USERMEMORY_KEYS_URL`` or ``server.db``).
        max_body_bytes: larger request bodies get 413 before anything is read further.
        rate_limit_per_minute: requests per minute per API key (a token bucket; 0 = off).
        token_ttl_seconds: default lifetime of an end-user token.
        cors_origins: origins allowed by CORS; empty (the default) sends no CORS headers.
        mcp: serve MCP over streamable HTTP at ``/mcp``.
        allowed_hosts: ``Host`` values MCP accepts (DNS-rebinding protection).
        threads: worker threads for core calls (the core's stores block; the event loop
            never does).
    """

    url: str | None = None
    keys_url: str | None = None
    max_body_bytes: int = 1_048_576
    rate_limit_per_minute: int = 6000
    token_ttl_seconds: int = 900
    cors_origins: tuple[str, ...] = ()
    mcp: bool = True
    allowed_hosts: tuple[str, ...] = ("127.0.0.1:*", "localhost:*", "[::1]:*", "testserver")
    threads: int = 32


class RateLimiter:
    """A token bucket per key: ``per_minute`` requests a minute, bursts up to that many."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._buckets: dict[str, tuple[float, float]] = {}
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


# -- request bodies --------------------------------------------------------------------------------
class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class UserIn(_In):
    user_id: str


class MessageIn(_In):
    text: str
    role: str = "user"
    session_id: str | None = None
    turn_id: str | None = None
    device_id: str | None = None
    system_context: str = "default"
    at: datetime | None = None


class ObserveIn(MessageIn):
    user_id: str


class ObserveBatchIn(UserIn):
    messages: list[MessageIn] = Field(min_length=1, max_length=100)


class RememberIn(UserIn):
    key: str
    value: str | int | float | bool
    kind: str = "preference"
    source: str = "user_declare"
    system_context: str = "default"
    scope: str = "global"
    device_id: str | None = None
    session_id: str | None = None
    hard: StrictBool = False
    permanent: StrictBool = False
    valid_until: datetime | None = None
    confidence: float | None = None
    at: datetime | None = None


class _ReadIn(UserIn):
    query: str
    system_context: str = "default"
    device_id: str | None = None
    session_id: str | None = None
    at: datetime | None = None
    include_archive: StrictBool = False


class RecallIn(_ReadIn):
    k: int = 3
    kinds: list[str] | None = None


class ContextIn(_ReadIn):
    token_budget: int = 400
    k: int | None = None


class ProfileIn(UserIn):
    system_context: str = "default"
    device_id: str | None = None


class HistoryIn(UserIn):
    key: str
    system_context: str | None = None


class ForgetKeyIn(UserIn):
    key: str
    system_context: str = "default"
    at: datetime | None = None


class ExportIn(UserIn):
    mask_pii: StrictBool = False


class ImportIn(UserIn):
    data: dict[str, Any]


class EndSessionIn(UserIn):
    session_id: str
    at: datetime | None = None


class SessionTurnsIn(UserIn):
    session_id: str
    limit: int | None = Field(default=None, ge=1)


class MemoryEnabledIn(UserIn):
    enabled: StrictBool


class TokenIn(UserIn):
    ttl_seconds: int | None = Field(default=None, ge=1, le=86_400)


class RequestsIn(_In):
    limit: int = Field(default=100, ge=1, le=10_000)


# -- responses -------------------------------------------------------------------------------------
class ChangesOut(BaseModel):
    changes: list[Change]


class BatchOut(BaseModel):
    changes: list[list[Change]]


class RecallOut(BaseModel):
    results: list[ScoredMemory]


class ContextOut(BaseModel):
    context: str


class ProfileOut(BaseModel):
    profile: dict[str, str]


class RecordsOut(BaseModel):
    records: list[MemoryRecord]


class ErasedOut(BaseModel):
    erased: dict[str, int]


class ImportOut(BaseModel):
    records: int


class EndSessionOut(BaseModel):
    record: MemoryRecord | None


class TurnsOut(BaseModel):
    turns: list[SessionTurn]


class OkOut(BaseModel):
    ok: Literal[True] = True


class AuditOut(BaseModel):
    entries: list[AuditEntry]


class UsersOut(BaseModel):
    users: list[str]


class TokenOut(BaseModel):
    user_id: str
    token: str
    expires_at: datetime


class RequestsOut(BaseModel):
    requests: list[dict[str, Any]]


# -- ASGI middleware -------------------------------------------------------------------------------
def _problem_response(doc: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
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
        too_large = _problem_response(
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


class _HttpMetrics:
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

    def observe(self, method: str, path: str, status: int, seconds: float) -> None:
        route = path if path.startswith(("/v1/", "/me", "/mcp")) else "other"
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(route).observe(seconds)

    def latest(self) -> bytes:
        return bytes(self.prom.generate_latest(self.registry))


# -- the app ---------------------------------------------------------------------------------------
def bearer(request: Request) -> str:
    """The ``Authorization: Bearer`` credential; :class:`AuthError` when missing."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise AuthError("send 'Authorization: Bearer <API key or end-user token>'")
    return value.strip()


async def principal(request: Request) -> Principal:
    """The caller of an API request (a FastAPI dependency); rate-limited per key."""
    store: KeyStore = request.app.state.keys
    p = await run_in_threadpool(store.authenticate, bearer(request))
    request.state.key_id = p.key_id
    request.state.tenant = p.tenant
    request.app.state.limiter.check(p.key_id)
    return p


Auth = Annotated[Principal, Depends(principal)]


def create_app(
    memory: AsyncUserMemory | UserMemory | None = None,
    *,
    keys: KeyStore | None = None,
    settings: ServerSettings | None = None,
) -> FastAPI:
    """Build the server app.

    Args:
        memory: the core to serve (not closed by the app); default: opened from
            ``settings.url`` on start-up and closed on shutdown.
        keys: the key store (not closed by the app); default: opened from ``settings.keys_url``.
        settings: limits, CORS, MCP; see :class:`ServerSettings`.
    """
    cfg = settings or ServerSettings()
    owned: list[Any] = []
    if memory is None:
        memory = AsyncUserMemory(cfg.url)
        owned.append(memory.sync)
    elif isinstance(memory, UserMemory):
        memory = AsyncUserMemory.wrap(memory)
    if keys is None:
        keys = KeyStore(cfg.keys_url)
        owned.append(keys)
    mem: AsyncUserMemory = memory
    store: KeyStore = keys
    svc = MemoryService(mem, store)
    limiter = RateLimiter(cfg.rate_limit_per_minute)
    http_metrics: _HttpMetrics | None = None
    from ..metrics import prometheus_available

    if prometheus_available():
        http_metrics = _HttpMetrics()

    mcp_server = None
    if cfg.mcp:
        from .mcp import build_mcp

        mcp_server = build_mcp(svc, limiter=limiter)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        stop = asyncio.Event()
        # AsyncUserMemory runs each call in the loop's default executor (asyncio.to_thread),
        # which has only cores + 4 threads: too few to overlap database round trips
        executor = ThreadPoolExecutor(max_workers=cfg.threads, thread_name_prefix="usermemory")
        asyncio.get_running_loop().set_default_executor(executor)

        async def flusher() -> None:
            while not stop.is_set():
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=1.0)
                try:
                    await run_in_threadpool(store.flush_log)
                except Exception as exc:  # keep serving; the next flush retries
                    log.warning("request log flush failed: %s", exc)

        task = asyncio.create_task(flusher())
        try:
            if mcp_server is not None:
                async with mcp_server.session_manager.run():
                    yield
            else:
                yield
        finally:
            stop.set()
            await task
            for obj in owned:
                await run_in_threadpool(obj.close)
            executor.shutdown(wait=False)

    app = FastAPI(
        title="UserMemory server",
        version="1",
        description="Structured cross-session user memory over HTTP. Authenticate with "
        "`Authorization: Bearer <API key>` (create one with `usermemory keys create`).",
        lifespan=lifespan,
    )
    app.state.service = svc
    app.state.keys = store
    app.state.settings = cfg
    app.state.limiter = limiter

    # -- errors --------------------------------------------------------------------------------
    @app.exception_handler(UserMemoryError)
    async def _core_error(request: Request, exc: UserMemoryError) -> JSONResponse:
        return _problem_response(problem_for_exception(exc))

    @app.exception_handler(AuthError)
    async def _auth_error(request: Request, exc: AuthError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        if exc.code == "rate_limited":
            headers = {"Retry-After": "1"}
        return _problem_response(problem(exc.code, str(exc), status=exc.status), headers)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")}
            for e in exc.errors()
        ]
        doc = problem("malformed_request", "the request body does not match the schema")
        doc["errors"] = errors
        return _problem_response(doc)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 415: "unsupported_media_type"}.get(
            exc.status_code, "forbidden" if exc.status_code == 403 else "malformed_request"
        )
        return _problem_response(problem(code, str(exc.detail), status=exc.status_code))

    def who(request: Request, user_id: str) -> str:
        request.state.user_id = user_id
        return user_id

    # -- API -----------------------------------------------------------------------------------
    @app.post("/v1/observe", response_model=ChangesOut, tags=["write"])
    async def observe(body: ObserveIn, p: Auth, request: Request) -> Any:
        """Feed one turn; returns what changed (``UserMemory.observe``)."""
        args = body.model_dump(exclude={"user_id"})
        text = args.pop("text")
        return {"changes": await svc.observe(p, who(request, body.user_id), {"text": text, **args})}

    @app.post("/v1/observe_batch", response_model=BatchOut, tags=["write"])
    async def observe_batch(body: ObserveBatchIn, p: Auth, request: Request) -> Any:
        """Feed up to 100 turns of one user in order; one list of changes per turn."""
        msgs = [m.model_dump() for m in body.messages]
        return {"changes": await svc.observe_batch(p, who(request, body.user_id), msgs)}

    @app.post("/v1/remember", response_model=MemoryRecord, tags=["write"])
    async def remember(body: RememberIn, p: Auth, request: Request) -> Any:
        """Write one memory from application code (``UserMemory.remember``)."""
        args = body.model_dump(exclude={"user_id", "key", "value"})
        return await svc.remember(p, who(request, body.user_id), body.key, body.value, args)

    @app.post("/v1/recall", response_model=RecallOut, tags=["read"])
    async def recall(body: RecallIn, p: Auth, request: Request) -> Any:
        """Scored memories for a query (``UserMemory.recall``)."""
        args = body.model_dump(exclude={"user_id", "query"})
        return {"results": await svc.recall(p, who(request, body.user_id), body.query, args)}

    @app.post("/v1/context", response_model=ContextOut, tags=["read"])
    async def context(body: ContextIn, p: Auth, request: Request) -> Any:
        """The prompt block for a query (``UserMemory.context``)."""
        args = body.model_dump(exclude={"user_id", "query"})
        return {"context": await svc.context(p, who(request, body.user_id), body.query, args)}

    @app.post("/v1/profile", response_model=ProfileOut, tags=["read"])
    async def profile(body: ProfileIn, p: Auth, request: Request) -> Any:
        """Current key -> value map (``UserMemory.profile``)."""
        return {
            "profile": await svc.profile(
                p,
                who(request, body.user_id),
                system_context=body.system_context,
                device_id=body.device_id,
            )
        }

    @app.post("/v1/history", response_model=RecordsOut, tags=["read"])
    async def history(body: HistoryIn, p: Auth, request: Request) -> Any:
        """Every version of one key (``UserMemory.history``)."""
        recs = await svc.history(
            p, who(request, body.user_id), body.key, system_context=body.system_context
        )
        return {"records": recs}

    @app.post("/v1/forget_key", response_model=ChangesOut, tags=["write"])
    async def forget_key(body: ForgetKeyIn, p: Auth, request: Request) -> Any:
        """Revoke one key and its sub-keys (``UserMemory.forget_key``)."""
        changes = await svc.forget_key(
            p,
            who(request, body.user_id),
            body.key,
            system_context=body.system_context,
            at=body.at,
        )
        return {"changes": changes}

    @app.post("/v1/forget", response_model=ErasedOut, tags=["write"])
    async def forget(body: UserIn, p: Auth, request: Request) -> Any:
        """Erase everything about a user in every store (``UserMemory.forget``); final."""
        return {"erased": await svc.forget(p, who(request, body.user_id))}

    @app.post("/v1/export", tags=["read"])
    async def export(body: ExportIn, p: Auth, request: Request) -> dict[str, Any]:
        """Everything held about a user (``UserMemory.export``)."""
        return await svc.export(p, who(request, body.user_id), mask_pii=body.mask_pii)

    @app.post("/v1/import", response_model=ImportOut, tags=["write"])
    async def import_(body: ImportIn, p: Auth, request: Request) -> Any:
        """Load an export of this user back (``UserMemory.import_user``)."""
        return {"records": await svc.import_user(p, who(request, body.user_id), body.data)}

    @app.post("/v1/end_session", response_model=EndSessionOut, tags=["write"])
    async def end_session(body: EndSessionIn, p: Auth, request: Request) -> Any:
        """Close a session and store its episode (``UserMemory.end_session``)."""
        rec = await svc.end_session(p, who(request, body.user_id), body.session_id, body.at)
        return {"record": rec}

    @app.post("/v1/session_turns", response_model=TurnsOut, tags=["read"])
    async def session_turns(body: SessionTurnsIn, p: Auth, request: Request) -> Any:
        """The turns kept in short-term session memory (``UserMemory.session_turns``)."""
        turns = await svc.session_turns(p, who(request, body.user_id), body.session_id, body.limit)
        return {"turns": turns}

    @app.post("/v1/set_memory_enabled", response_model=OkOut, tags=["write"])
    async def set_memory_enabled(body: MemoryEnabledIn, p: Auth, request: Request) -> Any:
        """Pause or resume memory for a user (``UserMemory.set_memory_enabled``)."""
        await svc.set_memory_enabled(p, who(request, body.user_id), body.enabled)
        return {"ok": True}

    @app.post("/v1/audit", response_model=AuditOut, tags=["read"])
    async def audit(body: UserIn, p: Auth, request: Request) -> Any:
        """The user's audit log (``UserMemory.audit_log``)."""
        return {"entries": await svc.audit_log(p, who(request, body.user_id))}

    @app.post("/v1/users", response_model=UsersOut, tags=["read"])
    async def users(p: Auth) -> Any:
        """The tenant's users (an end-user token sees only itself)."""
        return {"users": await svc.users(p)}

    @app.post("/v1/tokens", response_model=TokenOut, tags=["auth"])
    async def tokens(body: TokenIn, p: Auth, request: Request) -> Any:
        """Mint a short-lived end-user token (for ``/me`` or MCP) for one user of the tenant."""
        if p.is_end_user:
            raise AuthError("an end-user token cannot mint tokens", status=403, code="forbidden")
        p.check_user_wide()
        user_id = who(request, body.user_id)
        svc._uid(p, user_id)
        key = await run_in_threadpool(store.get, p.key_id)
        assert key is not None
        token, exp = await run_in_threadpool(
            store.mint_token, key, user_id, ttl_seconds=body.ttl_seconds or cfg.token_ttl_seconds
        )
        return {"user_id": user_id, "token": token, "expires_at": exp}

    @app.post("/v1/requests", response_model=RequestsOut, tags=["auth"])
    async def requests(body: RequestsIn, p: Auth) -> Any:
        """The tenant's request log, newest first (every request with the key that made it)."""
        if p.is_end_user:
            raise AuthError("the request log is for API keys", status=403, code="forbidden")
        rows = await run_in_threadpool(store.request_log, tenant=p.tenant, limit=body.limit)
        return {"requests": rows}

    # -- operations ----------------------------------------------------------------------------
    @app.get("/healthz", tags=["ops"])
    async def healthz() -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["ops"])
    async def readyz() -> JSONResponse:
        """Readiness: each store answers a cheap read (503 naming the ones that do not)."""
        core = mem.sync
        probe = "__readyz__"
        checks: dict[str, Callable[[], Any]] = {
            "records": lambda: core.records.user_state(probe),
            "vectors": lambda: core.vectors.ids_for_user(probe),
            "sessions": lambda: core.sessions.sessions(probe),
            "keys": store.ping,
        }
        if core.cache is not None:
            cache = core.cache
            checks["cache"] = lambda: cache.get(probe, "default")
        results: dict[str, Any] = {}
        for name, fn in checks.items():
            t0 = time.perf_counter()
            try:
                await asyncio.wait_for(run_in_threadpool(fn), timeout=5.0)
                results[name] = {"ok": True, "ms": round((time.perf_counter() - t0) * 1000, 2)}
            except Exception as exc:
                results[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        ok = all(r["ok"] for r in results.values())
        return JSONResponse(
            {"status": "ready" if ok else "not ready", "stores": results},
            status_code=200 if ok else 503,
        )

    if http_metrics is not None:
        hm = http_metrics

        @app.get("/metrics", include_in_schema=False)
        async def metrics() -> Response:
            body = hm.latest() + mem.sync.metrics.generate_latest()
            return Response(body, media_type="text/plain; version=0.0.4; charset=utf-8")

    from .page import register_page

    register_page(app, svc, store, limiter, cfg)

    if mcp_server is not None:
        from .mcp import mount_mcp

        mount_mcp(app, mcp_server, store, limiter, cfg)

    # the last added runs first: the audit sees every answer, 413s of the body limit too
    app.add_middleware(BodyLimit, limit=cfg.max_body_bytes)
    app.add_middleware(RequestAudit, keys=store, metrics=http_metrics)
    if cfg.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cfg.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type"],
        )
    return app
