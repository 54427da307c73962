"""The memory server's commands: ``serve``, ``mcp`` and ``keys`` (the ``[server]`` extra)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from .common import embedder_option, main, open_memory, url_option, user_errors

F = TypeVar("F", bound=Callable[..., Any])


def _server_settings(**kwargs: Any) -> Any:
    try:
        from ..server.app import ServerSettings
    except ImportError as exc:
        raise click.ClickException(
            f'the server needs the [server] extra: pip install "usermemory[server]" ({exc})'
        ) from exc
    return ServerSettings(**kwargs)


_keys_option = click.option(
    "--keys-url",
    envvar="USERMEMORY_KEYS_URL",
    default=None,
    help="Key store URL (sqlite:///keys.db, postgresql://...). Default: server.db next "
    "to the embedded memory file.",
)


_COMPONENTS = (
    ("sessions", "Session store (redis://...)"),
    ("cache", "Profile cache (redis://...)"),
    ("events", "Change stream (redis://...)"),
    ("vectors", "Vector index (pinecone://...)"),
)


def _component_options(f: F) -> F:
    """``--sessions-url`` etc.: the component URLs of ``UserMemory`` (and their env vars)."""
    for name, what in reversed(_COMPONENTS):
        f = click.option(
            f"--{name}-url",
            envvar=f"USERMEMORY_{name.upper()}_URL",
            default=None,
            help=f"{what}, as StorageSpec({name}=...).",
        )(f)
    return f


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8765, show_default=True, type=int)
@url_option
@_keys_option
@embedder_option
@click.option("--max-body-bytes", default=1_048_576, show_default=True, type=int)
@click.option(
    "--rate-limit",
    default=6000,
    show_default=True,
    type=int,
    help="Requests a minute per API key (0 = no limit).",
)
@click.option("--cors-origin", multiple=True, help="Allow this browser origin (none by default).")
@click.option("--no-mcp", is_flag=True, help="Do not serve MCP at /mcp.")
@_component_options
def serve(
    host: str,
    port: int,
    url: str | None,
    keys_url: str | None,
    embedder: str,
    max_body_bytes: int,
    rate_limit: int,
    cors_origin: tuple[str, ...],
    no_mcp: bool,
    sessions_url: str | None = None,
    cache_url: str | None = None,
    events_url: str | None = None,
    vectors_url: str | None = None,
) -> None:
    """Run the memory server (REST API, /me page, MCP at /mcp) on the store URL."""
    settings = _server_settings(
        url=url,
        keys_url=keys_url,
        max_body_bytes=max_body_bytes,
        rate_limit_per_minute=rate_limit,
        cors_origins=cors_origin,
        mcp=not no_mcp,
        allowed_hosts=(f"{host}:*", "127.0.0.1:*", "localhost:*", "[::1]:*"),
    )
    from ..server.app import create_app
    from ..server.run import serve as run_server

    components = {
        "sessions": sessions_url,
        "cache": cache_url,
        "events": events_url,
        "vectors": vectors_url,
    }
    with open_memory(url, embedder, components=components) as mem, key_store(keys_url) as keys:
        if not keys.list_keys():
            click.echo(
                "no API keys yet: create one with `usermemory keys create --tenant NAME`",
                err=True,
            )
        run_server(create_app(mem, keys=keys, settings=settings), host=host, port=port)


@main.command()
@click.option(
    "--user",
    "user_id",
    default=None,
    help="The user whose memory the tools reach "
    "(stdio; fixed for the whole session, never chosen by the model).",
)
@click.option(
    "--tenant",
    default="local",
    show_default=True,
    help="Tenant of --user (ids are stored as TENANT/USER, as by the server).",
)
@click.option(
    "--context",
    "contexts",
    multiple=True,
    help="system_context values the tools may use (default: all).",
)
@click.option(
    "--transport",
    type=click.Choice(["stdio", "streamable-http"]),
    default="stdio",
    show_default=True,
    help="streamable-http serves /mcp with end-user tokens (POST /v1/tokens).",
)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8765, show_default=True, type=int)
@url_option
@_keys_option
@embedder_option
def mcp(
    user_id: str | None,
    tenant: str,
    contexts: tuple[str, ...],
    transport: str,
    host: str,
    port: int,
    url: str | None,
    keys_url: str | None,
    embedder: str,
) -> None:
    """Run the MCP server: stdio for one fixed user, or streamable HTTP with tokens."""
    if transport == "streamable-http":
        ctx = click.get_current_context()
        # serve's own defaults (limits, CORS, MCP on) fill what mcp has no option for
        ctx.invoke(serve, host=host, port=port, url=url, keys_url=keys_url, embedder=embedder)
        return
    if not user_id:
        raise click.UsageError("stdio MCP needs --user (the one user its tools reach)")
    _server_settings()
    import anyio

    from ..aio import AsyncUserMemory
    from ..server.auth import ALL_CONTEXTS, Principal, check_tenant
    from ..server.mcp import build_mcp
    from ..server.service import MemoryService

    with user_errors():
        principal = Principal(
            tenant=check_tenant(tenant),
            key_id="stdio",
            contexts=contexts or (ALL_CONTEXTS,),
            user_id=user_id,
        )
    with open_memory(url, embedder) as mem:
        server = build_mcp(MemoryService(AsyncUserMemory.wrap(mem)), principal=principal)
        anyio.run(server.run_stdio_async)


@main.group()
def keys() -> None:
    """Create, revoke and list the server's API keys."""


@contextmanager
def key_store(keys_url: str | None) -> Iterator[Any]:
    """The server's ``KeyStore`` at ``keys_url``, closed afterwards (errors as click errors)."""
    _server_settings()
    from ..server.auth import KeyStore

    with user_errors():
        store = KeyStore(keys_url)
        try:
            yield store
        finally:
            store.close()


@keys.command("create")
@click.option("--tenant", required=True, help="The tenant the key acts for.")
@click.option("--name", default="", help="A label for the key.")
@click.option(
    "--context",
    "contexts",
    multiple=True,
    help="system_context values the key may read and write (repeat; default: all).",
)
@_keys_option
def keys_create(tenant: str, name: str, contexts: tuple[str, ...], keys_url: str | None) -> None:
    """Create a key; the key itself is printed once and never stored."""
    with key_store(keys_url) as store:
        key, plain = store.create_key(tenant, name=name, contexts=contexts or ("*",))
    click.echo(
        f"key id {key.id} (tenant {key.tenant}, contexts {','.join(key.contexts)})", err=True
    )
    click.echo(plain)


@keys.command("revoke")
@click.argument("key_id")
@_keys_option
def keys_revoke(key_id: str, keys_url: str | None) -> None:
    """Revoke a key (and every end-user token it issued)."""
    with key_store(keys_url) as store:
        key = store.revoke(key_id)
    click.echo(f"revoked {key.id} at {key.revoked_at:%Y-%m-%d %H:%M:%S} UTC")


@keys.command("list")
@click.option("--tenant", default=None)
@click.option("--json", "as_json", is_flag=True)
@_keys_option
def keys_list(tenant: str | None, as_json: bool, keys_url: str | None) -> None:
    """List keys (never their secrets)."""
    with key_store(keys_url) as store:
        rows = store.list_keys(tenant)
    if as_json:
        click.echo(json.dumps([k.to_dict() for k in rows], indent=2))
        return
    for k in rows:
        state = f"revoked {k.revoked_at:%Y-%m-%d}" if k.revoked_at else "active"
        click.echo(f"{k.id}  {k.tenant:<16} {','.join(k.contexts):<20} {state:<18} {k.name}")
