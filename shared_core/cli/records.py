"""The commands on one user's memory in a store: inspect, history, export, forget, import."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import UserMemoryError
from .common import (
    create_option,
    embedder_option,
    main,
    missing_sqlite_file,
    open_memory,
    url_option,
)


@main.command()
@click.argument("user_id")
@click.option("--context", "system_context", default="default", show_default=True)
@url_option
@create_option
def inspect(user_id: str, system_context: str, url: str | None, create: bool) -> None:
    """Show a user's current profile, open conflicts and counts."""
    with open_memory(url, "hashing", create=create) as mem:
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
@url_option
@create_option
def history(user_id: str, key: str, url: str | None, create: bool) -> None:
    """Every version of one key, oldest first, with who/what changed it.

    ``said`` is when the version was stated (the turn's time), ``updated`` when the
    record last changed (e.g. when a later version superseded it).
    """
    with open_memory(url, "hashing", create=create) as mem:
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
@url_option
@create_option
def export(user_id: str, mask_pii: bool, output: str | None, url: str | None, create: bool) -> None:
    """Dump everything held about a user as JSON."""
    with open_memory(url, "hashing", create=create) as mem:
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
@url_option
def forget(user_id: str, yes: bool, url: str | None) -> None:
    """Erase everything about a user in every store and print what was erased."""
    missing = missing_sqlite_file(url)
    if missing is not None:  # before asking: there is nothing to erase there
        raise click.ClickException(
            f"no database at {missing} (check --url / USERMEMORY_URL); nothing to erase"
        )
    if not yes:
        click.confirm(f"Erase all memory of {user_id!r}?", abort=True)
    with open_memory(url, "hashing") as mem:
        report = mem.forget(user_id)
        for store, count in sorted(report.items()):
            click.echo(f"{store}: {count}")


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
@url_option
@embedder_option
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
    with open_memory(url, embedder) as mem:
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
