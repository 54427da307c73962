"""What every ``usermemory`` command shares: the ``main`` group, options, opening a store.

Typed core errors (:class:`~shared_core.UserMemoryError`) become ``click`` errors (exit
code 1, no traceback) through :func:`user_errors`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from ..errors import UserMemoryError

__all__ = [
    "EMBEDDERS",
    "create_option",
    "embedder_option",
    "main",
    "make_embedder",
    "missing_sqlite_file",
    "open_memory",
    "url_option",
    "user_errors",
]

EMBEDDERS = ("auto", "minilm", "onnx", "hashing")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="usermemory", message="usermemory %(version)s")
def main() -> None:
    """UserMemory: structured cross-session memory for LLM agents."""


@contextmanager
def user_errors() -> Iterator[None]:
    """A :class:`UserMemoryError` raised inside becomes a ``click`` error naming its type."""
    try:
        yield
    except UserMemoryError as exc:
        raise click.ClickException(f"{type(exc).__name__}: {exc}") from exc


def make_embedder(name: str) -> Any:
    """The embedder ``--embedder NAME`` selects (``auto``: the default)."""
    from .. import embed

    if name == "hashing":
        return embed.HashingEmbedder()
    if name == "minilm":
        return embed.SentenceTransformerEmbedder()
    if name == "onnx":
        return embed.OnnxEmbedder()
    return embed.default_embedder()


def missing_sqlite_file(url: str | None) -> Path | None:
    """The SQLite file ``url`` names when it does not exist (``None``: exists or not SQLite)."""
    from .._base import default_url
    from ..errors import ConfigError
    from ..storage.registry import sqlite_path_from_url

    try:
        path, _ = sqlite_path_from_url(url or default_url())
    except ConfigError:  # another backend (or a malformed URL, reported when opened)
        return None
    if path == ":memory:" or Path(path).exists():
        return None
    return Path(path)


@contextmanager
def open_memory(
    url: str | None,
    embedder: str = "auto",
    *,
    create: bool = True,
    components: Mapping[str, Any] | None = None,
) -> Iterator[Any]:
    """Open the ``UserMemory`` a command works on, and close it afterwards.

    Args:
        url: ``--url`` (``None``: the embedded default).
        embedder: ``--embedder``.
        create: whether a missing SQLite file may be created (else a click error).
        components: the server's ``--sessions-url`` etc.: assemble a ``StorageSpec``.

    Raises:
        click.ClickException: an empty URL, a missing file, or any ``UserMemoryError``
            while opening or using the store.
    """
    from ..pipeline import UserMemory, default_url
    from ..storage.registry import StorageSpec

    if url is not None and not url.strip():
        raise click.ClickException("--url must not be empty (omit it for the default store)")
    missing = None if create else missing_sqlite_file(url)
    if missing is not None:
        raise click.ClickException(
            f"no database at {missing} (check --url / USERMEMORY_URL); "
            "pass --create to start an empty one there"
        )
    target = url if components is None else StorageSpec(records=url or default_url(), **components)
    with user_errors():
        mem = UserMemory(target, embedder=make_embedder(embedder) if embedder != "auto" else None)
        try:
            yield mem
        finally:
            mem.close()


url_option = click.option(
    "--url",
    envvar="USERMEMORY_URL",
    default=None,
    help="Store URL (sqlite:///path.db, postgresql://...). Default: the embedded SQLite "
    "file in your user data directory.",
)


create_option = click.option(
    "--create",
    is_flag=True,
    help="Create the SQLite database if it does not exist (by default a missing file "
    "is an error: it is usually a mistyped path).",
)


embedder_option = click.option(
    "--embedder",
    type=click.Choice(EMBEDDERS),
    default="auto",
    show_default=True,
    help="auto = MiniLM (through ONNX when onnxruntime is installed, else "
    "sentence-transformers), else hashing.",
)
