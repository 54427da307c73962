"""The ``usermemory`` command line.

``usermemory demo`` runs the 50-session support scenario on the embedded default (no
server, no LLM, no network). ``inspect``, ``history``, ``export``, ``forget`` and
``import`` work on any store URL (``--url`` or ``USERMEMORY_URL``). ``warmup`` prepares
the default embedder ahead of time (the one-time ONNX export, e.g. in a Docker build).

Exit codes: 0 success, 1 a UserMemory error (bad input, backend failure), 2 usage error.
Heavy modules (sentence-transformers, torch) are imported only when an embedding is
computed, never at start-up.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from .errors import UserMemoryError

F = TypeVar("F", bound=Callable[..., Any])

_EMBEDDERS = ("auto", "minilm", "onnx", "hashing")


def _make_embedder(name: str) -> Any:
    from . import embed

    if name == "hashing":
        return embed.HashingEmbedder()
    if name == "minilm":
        return embed.SentenceTransformerEmbedder()
    if name == "onnx":
        return embed.OnnxEmbedder()
    return embed.default_embedder()


def _missing_sqlite_file(url: str | None) -> Path | None:
    """The SQLite file ``url`` names when it does not exist (``None``: exists or not SQLite)."""
    from ._base import default_url
    from .errors import ConfigError
    from .storage.registry import sqlite_path_from_url

    try:
        path, _ = sqlite_path_from_url(url or default_url())
    except ConfigError:  # another backend (or a malformed URL, reported when opened)
        return None
    if path == ":memory:" or Path(path).exists():
        return None
    return Path(path)


@contextmanager
def _memory(url: str | None, embedder: str = "auto", *, create: bool = True) -> Iterator[Any]:
    from .pipeline import UserMemory

    if url is not None and not url.strip():
        raise click.ClickException("--url must not be empty (omit it for the default store)")
    missing = None if create else _missing_sqlite_file(url)
    if missing is not None:
        raise click.ClickException(
            f"no database at {missing} (check --url / USERMEMORY_URL); "
            "pass --create to start an empty one there"
        )
    try:
        mem = UserMemory(url, embedder=_make_embedder(embedder) if embedder != "auto" else None)
    except UserMemoryError as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        yield mem
    except UserMemoryError as exc:
        raise click.ClickException(f"{type(exc).__name__}: {exc}") from exc
    finally:
        mem.close()


def _url_option(f: F) -> F:
    return click.option(
        "--url",
        envvar="USERMEMORY_URL",
        default=None,
        help="Store URL (sqlite:///path.db, postgresql://...). Default: the embedded SQLite "
        "file in your user data directory.",
    )(f)


def _create_option(f: F) -> F:
    return click.option(
        "--create",
        is_flag=True,
        help="Create the SQLite database if it does not exist (by default a missing file "
        "is an error: it is usually a mistyped path).",
    )(f)


def _embedder_option(f: F) -> F:
    return click.option(
        "--embedder",
        type=click.Choice(_EMBEDDERS),
        default="auto",
        show_default=True,
        help="auto = MiniLM (through ONNX when onnxruntime is installed, else "
        "sentence-transformers), else hashing.",
    )(f)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="usermemory", message="usermemory %(version)s")
def main() -> None:
    """UserMemory: structured cross-session memory for LLM agents."""


@main.command()
@click.option(
    "--db",
    default=":memory:",
    show_default=True,
    help="SQLite file for the demo (kept afterwards if a path is given).",
)
@_embedder_option
@click.option("--json", "as_json", is_flag=True, help="Print the session-50 result as JSON.")
def demo(db: str, embedder: str, as_json: bool) -> None:
    """Run the 50-session support scenario and show what session 50 recalls."""
    from .clock import FakeClock
    from .demo import DEMO_USER, SESSION_50_QUERY, demo_sessions, session_date
    from .pipeline import UserMemory
    from .tokens import count_tokens

    clock = FakeClock(session_date(1))
    url = "sqlite:///:memory:" if db == ":memory:" else f"sqlite:///{Path(db).resolve()}"
    emb = _make_embedder(embedder)
    started = time.perf_counter()
    history_tokens = 0
    with UserMemory(url, clock=clock, embedder=emb) as mem:
        sessions = list(demo_sessions())
        with click.progressbar(sessions, label="sessions 1-49", file=sys.stderr) as bar:
            for s in bar:
                for t in s.turns:
                    clock.set(t.at)
                    mem.observe(
                        DEMO_USER,
                        t.text,
                        role=t.role,
                        session_id=t.session_id,
                        system_context=t.system_context,
                        at=t.at,
                    )
                    history_tokens += count_tokens(f"{t.role}: {t.text}")
                mem.end_session(DEMO_USER, s.session_id, at=s.turns[-1].at)
        clock.set(session_date(50))
        results = mem.recall(DEMO_USER, SESSION_50_QUERY, k=3, system_context="support")
        block = mem.context(DEMO_USER, SESSION_50_QUERY, system_context="support")
        elapsed = time.perf_counter() - started
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "query": SESSION_50_QUERY,
                        "recalled": [r.to_dict() for r in results],
                        "context": block,
                        "context_tokens": count_tokens(block),
                        "buffer_memory_tokens": history_tokens,
                    },
                    indent=2,
                    ensure_ascii=False,
                )
            )
            return
        click.secho(
            f"\nSession 50 ({session_date(50):%Y-%m-%d}), user {DEMO_USER} says:", bold=True
        )
        click.echo(f"  {SESSION_50_QUERY!r}\n")
        click.secho("Recalled (score = confidence x decay x relevance):", bold=True)
        for r in results:
            p = r.provenance
            click.echo(
                f"  {r.record.key} = {r.record.value!r}  score {r.score:.3f} "
                f"(conf {r.confidence:.2f} x decay {r.decay:.2f} x rel {r.relevance:.2f}; "
                f"via {'+'.join(r.matched_by)})\n"
                f"      said {p.at:%Y-%m-%d} in session {p.session_id}, turn {p.turn_id}, "
                f"source {r.record.source.value}, version {r.record.version}"
            )
        click.secho("\nContext block injected into the prompt:", bold=True)
        click.echo(block)
        click.secho("\nPrompt size:", bold=True)
        click.echo(f"  UserMemory context block: {count_tokens(block)} tokens")
        click.echo(f"  ConversationBufferMemory (all 49 sessions): {history_tokens} tokens")
        click.echo(
            f"\n(49 sessions observed and recalled in {elapsed:.1f} s, "
            f"embedder {getattr(emb, 'name', type(emb).__name__)})"
        )


@main.command()
@click.argument("user_id")
@click.option("--context", "system_context", default="default", show_default=True)
@_url_option
@_create_option
def inspect(user_id: str, system_context: str, url: str | None, create: bool) -> None:
    """Show a user's current profile, open conflicts and counts."""
    with _memory(url, "hashing", create=create) as mem:
        prof = mem.profile(user_id, system_context=system_context)
        state = mem.records.user_state(user_id)
        if state is None and not prof:
            raise click.ClickException(f"no memory stored for user {user_id!r}")
        click.secho(f"User {user_id} (context {system_context})", bold=True)
        if state is not None:
            click.echo(
                f"  sessions {state.sessions}, turns {state.turns}, "
                f"memory {'on' if state.memory_enabled else 'OFF'}, last seen "
                f"{state.last_seen:%Y-%m-%d %H:%M}"
                if state.last_seen
                else ""
            )
        for key, value in sorted(prof.items()):
            click.echo(f"  {key} = {value!r}")
        for c in mem.records.conflicts(user_id, system_context):
            if c.question:
                click.echo(f"  ? {c.question}")


@main.command()
@click.argument("user_id")
@click.argument("key")
@_url_option
@_create_option
def history(user_id: str, key: str, url: str | None, create: bool) -> None:
    """Every version of one key, oldest first, with who/what changed it.

    ``said`` is when the version was stated (the turn's time), ``updated`` when the
    record last changed (e.g. when a later version superseded it).
    """
    with _memory(url, "hashing", create=create) as mem:
        versions = mem.history(user_id, key)
        if not versions:
            raise click.ClickException(f"no history for {user_id!r} / {key!r}")
        for r in versions:
            p = r.provenance
            said = p.at or r.created_at
            click.echo(
                f"v{r.version} {r.status.value:<10} {r.value!r} source={r.source.value} "
                f"conf={r.confidence:.2f} said={said:%Y-%m-%d %H:%M} "
                f"updated={r.updated_at:%Y-%m-%d %H:%M} "
                f"session={p.session_id} turn={p.turn_id} context={r.system_context}"
            )


@main.command()
@click.argument("user_id")
@click.option("--mask-pii", is_flag=True, help="Mask phone numbers, emails, card and ID numbers.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None)
@_url_option
@_create_option
def export(user_id: str, mask_pii: bool, output: str | None, url: str | None, create: bool) -> None:
    """Dump everything held about a user as JSON."""
    with _memory(url, "hashing", create=create) as mem:
        data = mem.export(user_id, mask_pii=mask_pii)
        text = json.dumps(data, indent=2, ensure_ascii=False)
        if output:
            try:
                Path(output).write_text(text + "\n", encoding="utf-8")
            except OSError as exc:
                raise click.ClickException(f"cannot write {output}: {exc}") from exc
            click.echo(f"exported {len(data['records'])} records to {output}", err=True)
        else:
            click.echo(text)


@main.command()
@click.argument("user_id")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@_url_option
def forget(user_id: str, yes: bool, url: str | None) -> None:
    """Erase everything about a user in every store and print what was erased."""
    missing = _missing_sqlite_file(url)
    if missing is not None:  # before asking: there is nothing to erase there
        raise click.ClickException(
            f"no database at {missing} (check --url / USERMEMORY_URL); nothing to erase"
        )
    if not yes:
        click.confirm(f"Erase all memory of {user_id!r}?", abort=True)
    with _memory(url, "hashing") as mem:
        report = mem.forget(user_id)
        for store, count in sorted(report.items()):
            click.echo(f"{store}: {count}")


@main.command()
@_embedder_option
def warmup(embedder: str) -> None:
    """Prepare the embedder once: export MiniLM to ONNX if needed, load it, time a query.

    Run it at deploy time (or in a Docker build) so the first request of a process does
    not pay the one-time export (about 12 s).
    """
    import statistics

    try:
        emb = _make_embedder(embedder)
        started = time.perf_counter()
        emb.embed(["warm up"])
        load_s = time.perf_counter() - started
        times = []
        for i in range(20):
            t0 = time.perf_counter()
            emb.embed([f"how should we contact you about order {i}?"])
            times.append((time.perf_counter() - t0) * 1000)
    except UserMemoryError as exc:
        raise click.ClickException(f"{type(exc).__name__}: {exc}") from exc
    where = getattr(emb, "model_dir", None)
    if getattr(emb, "using_fallback", False):
        where = None
        click.echo("ONNX export failed; using sentence-transformers (see the warning above)")
    click.echo(f"embedder: {getattr(emb, 'name', type(emb).__name__)}")
    if where is not None:
        click.echo(f"model: {where}")
    click.echo(f"load: {load_s:.2f} s; one query: {statistics.median(times):.1f} ms (median of 20)")


def _check_dimension(mem: Any, embedder: str) -> None:
    """Refuse to import when the store's vectors have another width than the embedder's.

    Every vector written would be rejected and the memories would be found by keyword
    only; better to stop and say which embedder the store was built with.
    """
    have = getattr(mem.vectors, "dimension", None)
    if have is None:
        return
    width = int(mem.embedder.dimension)
    if width == have:
        return
    fits = {384: "onnx (or minilm)", 256: "hashing"}.get(have)
    fix = (
        f"import with --embedder {fits} (or USERMEMORY_EMBEDDER), the embedder this store "
        "was built with"
        if fits
        else "import with the embedder this store was built with"
    )
    raise click.ClickException(
        f"the store holds {have}-dimensional vectors but embedder "
        f"{getattr(mem.embedder, 'name', embedder)!r} makes {width}-dimensional ones: {fix}; "
        "or import into a new store"
    )


@main.command(name="import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@_url_option
@_embedder_option
def import_(file: str, url: str | None, embedder: str) -> None:
    """Import turns from a JSONL file (one {"user_id", "text", ...} per line), or an export.

    Each line: {"user_id": ..., "text": ..., "role": "user", "session_id": ...,
    "turn_id": ..., "system_context": ..., "at": "2026-04-12T09:30:00+00:00"}.
    A file holding one JSON object from ``usermemory export`` is restored as is.
    """
    from datetime import datetime

    from tqdm import tqdm

    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"cannot read {file}: {exc}") from exc
    with _memory(url, embedder) as mem:
        _check_dimension(mem, embedder)
        stripped = text.lstrip()
        if stripped.startswith("{") and '"format"' in stripped[:200] and "\n{" not in stripped:
            try:
                dump = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise click.ClickException(f"{file} is not a valid export: {exc}") from exc
            n = mem.import_user(dump)
            click.echo(f"restored {n} records")
            return
        lines = [ln for ln in text.splitlines() if ln.strip()]
        changed = 0
        errors = 0
        for lineno, line in enumerate(tqdm(lines, desc="turns", unit="turn", file=sys.stderr), 1):
            try:
                row = json.loads(line)
                if not isinstance(row, dict):
                    raise ValueError("each line must be a JSON object")
                at = row.get("at")
                if at is not None and not isinstance(at, str):
                    raise ValueError("'at' must be an ISO 8601 string")
                changes = mem.observe(
                    row.get("user_id"),
                    row.get("text"),
                    role=row.get("role", "user"),
                    session_id=row.get("session_id"),
                    turn_id=row.get("turn_id"),
                    device_id=row.get("device_id"),
                    system_context=row.get("system_context", "default"),
                    at=datetime.fromisoformat(at) if at is not None else None,
                )
                changed += sum(1 for c in changes if c.action.value in ("added", "updated"))
            except (UserMemoryError, ValueError, RecursionError) as exc:
                errors += 1
                msg = "JSON nested too deeply" if isinstance(exc, RecursionError) else exc
                click.echo(f"line {lineno}: {type(exc).__name__}: {msg}", err=True)
        click.echo(
            f"{len(lines) - errors} turns imported, {changed} memories written, "
            f"{errors} lines rejected"
        )
        if errors:
            sys.exit(1)


# -- memory server: serve, mcp, keys (needs the [server] extra) -----------------------------------
def _server_settings(**kwargs: Any) -> Any:
    try:
        from .server.app import ServerSettings
    except ImportError as exc:
        raise click.ClickException(
            f'the server needs the [server] extra: pip install "usermemory[server]" ({exc})'
        ) from exc
    return ServerSettings(**kwargs)


def _keys_option(f: F) -> F:
    return click.option(
        "--keys-url",
        envvar="USERMEMORY_KEYS_URL",
        default=None,
        help="Key store URL (sqlite:///keys.db, postgresql://...). Default: server.db next "
        "to the embedded memory file.",
    )(f)


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
            help=f"{what}, as UserMemory({name}_url=...).",
        )(f)
    return f


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8765, show_default=True, type=int)
@_url_option
@_keys_option
@_embedder_option
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
    from .pipeline import UserMemory, default_url
    from .server.app import create_app
    from .server.auth import KeyStore
    from .server.run import serve as run_server
    from .storage.registry import StorageSpec

    if url is not None and not url.strip():
        raise click.ClickException("--url must not be empty (omit it for the default store)")
    try:
        spec = StorageSpec(
            records=url or default_url(),
            sessions=sessions_url,
            cache=cache_url,
            events=events_url,
            vectors=vectors_url,
        )
        mem = UserMemory(spec, embedder=_make_embedder(embedder) if embedder != "auto" else None)
    except UserMemoryError as exc:
        raise click.ClickException(f"{type(exc).__name__}: {exc}") from exc
    with mem:
        try:
            keys = KeyStore(keys_url)
        except UserMemoryError as exc:
            raise click.ClickException(str(exc)) from exc
        try:
            if not keys.list_keys():
                click.echo(
                    "no API keys yet: create one with `usermemory keys create --tenant NAME`",
                    err=True,
                )
            run_server(create_app(mem, keys=keys, settings=settings), host=host, port=port)
        finally:
            keys.close()


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
@_url_option
@_keys_option
@_embedder_option
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
        ctx.invoke(
            serve,
            host=host,
            port=port,
            url=url,
            keys_url=keys_url,
            embedder=embedder,
            max_body_bytes=1_048_576,
            rate_limit=6000,
            cors_origin=(),
            no_mcp=False,
        )
        return
    if not user_id:
        raise click.UsageError("stdio MCP needs --user (the one user its tools reach)")
    _server_settings()
    import anyio

    from .aio import AsyncUserMemory
    from .server.auth import ALL_CONTEXTS, Principal, check_tenant
    from .server.mcp import build_mcp
    from .server.service import MemoryService

    try:
        principal = Principal(
            tenant=check_tenant(tenant),
            key_id="stdio",
            contexts=contexts or (ALL_CONTEXTS,),
            user_id=user_id,
        )
    except UserMemoryError as exc:
        raise click.ClickException(str(exc)) from exc
    with _memory(url, embedder) as mem:
        server = build_mcp(MemoryService(AsyncUserMemory.wrap(mem)), principal=principal)
        anyio.run(server.run_stdio_async)


@main.group()
def keys() -> None:
    """Create, revoke and list the server's API keys."""


def _key_store(keys_url: str | None) -> Any:
    _server_settings()
    from .server.auth import KeyStore

    try:
        return KeyStore(keys_url)
    except UserMemoryError as exc:
        raise click.ClickException(str(exc)) from exc


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
    store = _key_store(keys_url)
    try:
        key, plain = store.create_key(tenant, name=name, contexts=contexts or ("*",))
    except UserMemoryError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        store.close()
    click.echo(
        f"key id {key.id} (tenant {key.tenant}, contexts {','.join(key.contexts)})", err=True
    )
    click.echo(plain)


@keys.command("revoke")
@click.argument("key_id")
@_keys_option
def keys_revoke(key_id: str, keys_url: str | None) -> None:
    """Revoke a key (and every end-user token it issued)."""
    store = _key_store(keys_url)
    try:
        key = store.revoke(key_id)
    except UserMemoryError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        store.close()
    click.echo(f"revoked {key.id} at {key.revoked_at:%Y-%m-%d %H:%M:%S} UTC")


@keys.command("list")
@click.option("--tenant", default=None)
@click.option("--json", "as_json", is_flag=True)
@_keys_option
def keys_list(tenant: str | None, as_json: bool, keys_url: str | None) -> None:
    """List keys (never their secrets)."""
    store = _key_store(keys_url)
    try:
        rows = store.list_keys(tenant)
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps([k.to_dict() for k in rows], indent=2))
        return
    for k in rows:
        state = f"revoked {k.revoked_at:%Y-%m-%d}" if k.revoked_at else "active"
        click.echo(f"{k.id}  {k.tenant:<16} {','.join(k.contexts):<20} {state:<18} {k.name}")


if __name__ == "__main__":  # pragma: no cover
    main()
