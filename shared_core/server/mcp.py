"""An MCP server (official ``mcp`` SDK) exposing one user's memory to an agent host.

Tools: ``remember``, ``recall``, ``get_context``, ``get_profile``, ``get_history`` and
``forget_key``. No tool takes a user id: the user is fixed by the server's configuration
(``usermemory mcp --user u1`` over stdio) or by the end-user token sent with each HTTP
request (``Authorization: Bearer <token from /v1/tokens>`` on ``/mcp``), so a model can
never choose whose memory it reads.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from ..errors import UserMemoryError
from .auth import AuthError, Principal
from .problems import problem_for_exception

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .app import ServerSettings
    from .auth import KeyStore
    from .middleware import RateLimiter
    from .service import MemoryService

__all__ = ["build_mcp", "mount_mcp"]

_INSTRUCTIONS = (
    "Long-term memory of the current user (fixed by the server, not by you). Call get_context "
    "with the user's message before answering, remember what the user asks you to keep, and "
    "forget_key when they ask you to forget something."
)


def _summary(rec: dict[str, Any]) -> dict[str, Any]:
    prov = rec.get("provenance") or {}
    return {
        "key": rec["key"],
        "value": rec["value"],
        "kind": rec["kind"],
        "status": rec["status"],
        "version": rec["version"],
        "confidence": rec["confidence"],
        "system_context": rec["system_context"],
        "said_at": prov.get("at"),
        "said_in_session": prov.get("session_id"),
        "words": prov.get("span"),
    }


def build_mcp(
    svc: MemoryService,
    *,
    principal: Principal | None = None,
    limiter: RateLimiter | None = None,
) -> MCPServer:
    """The MCP server over ``svc``.

    Args:
        svc: the memory service.
        principal: the fixed user (stdio); ``None`` reads the end-user token of each HTTP
            request instead.
        limiter: per-key rate limit applied to each tool call.
    """
    # log_level WARNING: the SDK calls logging.basicConfig; keep the root logger's level as is
    server: MCPServer = MCPServer(
        name="usermemory", instructions=_INSTRUCTIONS, log_level="WARNING"
    )

    def who(ctx: Context) -> tuple[Principal, str]:
        p = principal
        if p is None:
            headers = ctx.headers or {}
            scheme, _, cred = str(headers.get("authorization", "")).partition(" ")
            if scheme.lower() != "bearer" or not cred.strip():
                raise AuthError("MCP over HTTP needs 'Authorization: Bearer <end-user token>'")
            p = svc.keys.authenticate(cred.strip())
            if limiter is not None:
                limiter.check(p.key_id)
        if p.user_id is None:
            raise AuthError(
                "the MCP user is fixed by an end-user token (POST /v1/tokens), not by an API key",
                status=403,
                code="user_forbidden",
            )
        return p, p.user_id

    async def run(ctx: Context, call: Callable[[Principal, str], Awaitable[Any]]) -> Any:
        try:
            p, user = who(ctx)
            return await call(p, user)
        except AuthError as exc:
            raise ToolError(f"{exc.code}: {exc}") from exc
        except UserMemoryError as exc:
            raise ToolError(f"{problem_for_exception(exc)['code']}: {exc}") from exc

    @server.tool()
    async def remember(
        key: str,
        value: str,
        ctx: Context,
        kind: str = "preference",
        system_context: str = "default",
    ) -> dict[str, Any]:
        """Store one thing about the user, as the user's own statement.

        Args:
            key: dotted lowercase slot name, e.g. "contact.channel" or "diet".
            value: the value, e.g. "sms" or "vegetarian".
            kind: fact, preference, constraint, relationship or event.
            system_context: the product area the memory belongs to.
        """

        async def call(p: Principal, user: str) -> Any:
            args = {"kind": kind, "system_context": system_context}
            return _summary(await svc.remember(p, user, key, value, args))

        return await run(ctx, call)  # type: ignore[no-any-return]

    @server.tool()
    async def recall(
        query: str, ctx: Context, k: int = 3, system_context: str = "default"
    ) -> dict[str, Any]:
        """The user's memories most relevant to a query, best first, with where they came from."""

        async def call(p: Principal, user: str) -> Any:
            hits = await svc.recall(p, user, query, {"k": k, "system_context": system_context})
            return {"memories": [{**_summary(h["record"]), "score": h["score"]} for h in hits]}

        return await run(ctx, call)  # type: ignore[no-any-return]

    @server.tool()
    async def get_context(
        query: str, ctx: Context, token_budget: int = 400, system_context: str = "default"
    ) -> str:
        """The memory block to put in the prompt for this query (constraints first)."""

        async def call(p: Principal, user: str) -> Any:
            args = {"token_budget": token_budget, "system_context": system_context}
            return await svc.context(p, user, query, args)

        return await run(ctx, call)  # type: ignore[no-any-return]

    @server.tool()
    async def get_profile(ctx: Context, system_context: str = "default") -> dict[str, str]:
        """The user's current profile: key -> value."""

        async def call(p: Principal, user: str) -> Any:
            return await svc.profile(p, user, system_context=system_context)

        return await run(ctx, call)  # type: ignore[no-any-return]

    @server.tool()
    async def get_history(key: str, ctx: Context) -> dict[str, Any]:
        """Every version of one key, oldest first (value, status, when and where it was said)."""

        async def call(p: Principal, user: str) -> Any:
            return {"versions": [_summary(r) for r in await svc.history(p, user, key)]}

        return await run(ctx, call)  # type: ignore[no-any-return]

    @server.tool()
    async def forget_key(key: str, ctx: Context, system_context: str = "default") -> dict[str, Any]:
        """Forget one key (and its sub-keys) when the user asks; old versions stay audited."""

        async def call(p: Principal, user: str) -> Any:
            changes = await svc.forget_key(p, user, key, system_context=system_context)
            return {"revoked": [c["key"] for c in changes if c["action"] == "revoked"]}

        return await run(ctx, call)  # type: ignore[no-any-return]

    return server


def mount_mcp(
    app: FastAPI,
    server: MCPServer,
    keys: KeyStore,
    limiter: RateLimiter,
    cfg: ServerSettings,
) -> None:
    """Serve ``server`` at ``/mcp`` (stateless streamable HTTP, JSON responses).

    Each request is authenticated before it reaches the SDK (401 problem otherwise) and its
    key id lands in the request log; the tools then read the user from the same token.
    """
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.concurrency import run_in_threadpool
    from starlette.routing import Route

    from .middleware import problem_response
    from .problems import problem

    hosts = list(cfg.allowed_hosts)
    sub = server.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=True,
        json_response=True,
        max_request_body_size=cfg.max_body_bytes,
        transport_security=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=hosts,
            allowed_origins=[f"http://{h}" for h in hosts] + [f"https://{h}" for h in hosts],
        ),
    )
    inner = next(r for r in sub.routes if isinstance(r, Route) and r.path == "/mcp").app

    class Gate:  # an ASGI app (Starlette treats a plain function as a request handler)
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await gate(scope, receive, send)

    async def gate(scope: Any, receive: Any, send: Any) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        scheme, _, cred = headers.get("authorization", "").partition(" ")
        try:
            if scheme.lower() != "bearer" or not cred.strip():
                raise AuthError("MCP over HTTP needs 'Authorization: Bearer <end-user token>'")
            cred = cred.strip()
            p = keys.authenticate_cached(cred)
            if p is None:
                p = await run_in_threadpool(keys.authenticate, cred)
            state = scope.setdefault("state", {})
            state["key_id"], state["tenant"], state["user_id"] = p.key_id, p.tenant, p.user_id
            if p.user_id is None:
                raise AuthError(
                    "the MCP user is fixed by an end-user token (POST /v1/tokens)",
                    status=403,
                    code="user_forbidden",
                )
        except AuthError as exc:
            resp = problem_response(problem(exc.code, str(exc), status=exc.status))
            await resp(scope, receive, send)
            return
        await inner(scope, receive, send)

    app.router.routes.append(Route("/mcp", endpoint=Gate(), methods=["GET", "POST", "DELETE"]))
