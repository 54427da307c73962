"""UserMemory: the one place that chains the steps of the write and read paths.

Write path (``observe``): validate -> session memory -> extract -> gate -> resolve -> persist
(records + audit + conflicts in one transaction, then vectors, cache, events).
Read path (``recall``/``context``): validate -> rewrite -> key lookup + dense + lexical ->
fuse -> score (confidence x decay x relevance) -> render.

The steps themselves are pure functions in ``ingest/`` and ``recall/``; this module only
does IO and ordering.
"""

from __future__ import annotations

from ._base import MemoryBase, default_url
from ._manage import Management
from ._read import ReadPath
from ._write import WritePath

__all__ = ["MemoryBase", "UserMemory", "default_url"]


class UserMemory(WritePath, ReadPath, Management):
    """Structured long-term memory of users across conversations.

    Args:
        url: where to keep memory: a URL (``None`` opens the embedded default, SQLite in
            the user data dir, or ``USERMEMORY_URL``; ``sqlite:///:memory:`` for tests), a
            :class:`~shared_core.storage.StorageSpec` naming a URL or store per role
            (``StorageSpec(records="postgresql://...", sessions="redis://...")``), or
            already opened :class:`~shared_core.storage.Backends`.
        config: tunables; defaults from ``MemoryConfig.from_env()``.
        clock: time source (inject a ``FakeClock`` in tests and simulations).
        embedder: text -> vectors; default all-MiniLM-L6-v2 (ONNX, see ``default_embedder``)
            (loaded lazily on first use).
        extractor: turn -> candidates; default the offline English/Chinese rules.
        templates: replace the Jinja2 templates of ``context()``.

    Example:
        >>> from shared_core import UserMemory
        >>> mem = UserMemory.from_url("sqlite:///:memory:")
        >>> _ = mem.observe("u1", "I only accept SMS notifications, never call me.")
        >>> mem.profile("u1")["contact.channel"]
        'SMS'
    """
