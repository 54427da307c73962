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
        url: where to keep memory; ``None`` opens the embedded default (SQLite in the
            user data dir, or ``USERMEMORY_URL``). ``sqlite:///:memory:`` for tests.
        config: tunables; defaults from ``MemoryConfig.from_env()``.
        clock: time source (inject a ``FakeClock`` in tests and simulations).
        embedder: text -> vectors; default all-MiniLM-L6-v2 (ONNX, see ``default_embedder``)
            (loaded lazily on first use).
        extractor: turn -> candidates; default the offline English/Chinese rules.
        record_store / vector_index / session_store: explicit stores override the URL's.
        profile_cache / event_bus: optional hot cache and change feed (e.g. Redis).
        vectors_url / sessions_url / cache_url / events_url: open one component from its
            own URL next to the record store, e.g. ``sessions_url="redis://..."``,
            ``vectors_url="pinecone://index?namespace=prod"``.
        templates: replace the Jinja2 templates of ``context()``.

    Example:
        >>> from shared_core import UserMemory
        >>> mem = UserMemory.from_url("sqlite:///:memory:")
        >>> _ = mem.observe("u1", "I only accept SMS notifications, never call me.")
        >>> mem.profile("u1")["contact.channel"]
        'SMS'
    """
