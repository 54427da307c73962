"""The memory server: a FastAPI app over :class:`~shared_core.AsyncUserMemory`.

Endpoints (all ``POST`` with a JSON body, so user ids never appear in URLs or logs; see
:mod:`shared_core.server.api`): ``/v1/observe``, ``/v1/observe_messages``, ``/v1/remember``,
``/v1/recall``, ``/v1/context``, ``/v1/profile``, ``/v1/history``, ``/v1/conflicts``,
``/v1/resolve_conflict``, ``/v1/forget_key``, ``/v1/forget``, ``/v1/export``, ``/v1/import``,
``/v1/merge_anonymous``, ``/v1/end_session``, ``/v1/session_turns``,
``/v1/set_memory_enabled``, ``/v1/audit``, ``/v1/users``, ``/v1/tokens`` (mint an end-user
token), ``/v1/requests`` (the tenant's request log). Also ``/healthz``, ``/readyz`` (checks
each store), ``/metrics`` (Prometheus, when ``prometheus-client`` is installed), ``/docs``
(OpenAPI), ``/me`` (the self-service page) and ``/mcp`` (MCP over streamable HTTP).

Every call needs ``Authorization: Bearer <API key or end-user token>``. Errors are RFC 9457
problem details with a stable ``code`` (see :mod:`shared_core.server.problems`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..aio import AsyncUserMemory
from ..errors import UserMemoryError
from ..pipeline import UserMemory
from ..storage import lexical
from .api import bearer, principal, router
from .auth import AuthError, KeyStore
from .middleware import BodyLimit, HttpMetrics, RateLimiter, RequestAudit, problem_response
from .problems import problem, problem_for_exception
from .service import MemoryService

__all__ = [
    "BodyLimit",
    "RateLimiter",
    "RequestAudit",
    "ServerSettings",
    "bearer",
    "create_app",
    "principal",
]

log = logging.getLogger(__name__)


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
    http_metrics: HttpMetrics | None = None
    from ..metrics import prometheus_available

    if prometheus_available():
        http_metrics = HttpMetrics()

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
        # jieba's dictionary load (~1 s) would otherwise fall on the first request with
        # Chinese text; load it off the event loop while the server starts taking requests
        warming = asyncio.get_running_loop().run_in_executor(executor, lexical.warm_up)

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
            with contextlib.suppress(Exception):  # a failed warm-up only means a slower start
                await warming
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
    app.state.http_metrics = http_metrics

    # -- errors --------------------------------------------------------------------------------
    @app.exception_handler(UserMemoryError)
    async def _core_error(request: Request, exc: UserMemoryError) -> JSONResponse:
        return problem_response(problem_for_exception(exc))

    @app.exception_handler(AuthError)
    async def _auth_error(request: Request, exc: AuthError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        if exc.code == "rate_limited":
            headers = {"Retry-After": "1"}
        return problem_response(problem(exc.code, str(exc), status=exc.status), headers)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")}
            for e in exc.errors()
        ]
        doc = problem("malformed_request", "the request body does not match the schema")
        doc["errors"] = errors
        return problem_response(doc)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 415: "unsupported_media_type"}.get(
            exc.status_code, "forbidden" if exc.status_code == 403 else "malformed_request"
        )
        return problem_response(problem(code, str(exc.detail), status=exc.status_code))

    app.include_router(router)

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
