"""Storage backends: the protocols, the embedded SQLite default and the URL registry.

``open_backend("sqlite:///memory.db")`` or ``open_backend(StorageSpec(records=...,
sessions=...))`` returns :class:`Backends` (records, vectors, sessions, cache, events).
Server backends (PostgreSQL, Redis, Pinecone) live in their own modules and are imported
only when their URL scheme is opened.
"""

from __future__ import annotations

from .lexical import tokenize
from .migrations import Migration, run_migrations
from .protocols import (
    EventBus,
    LexicalHit,
    ProfileCache,
    RecordFilter,
    RecordStore,
    SessionStore,
    VectorHit,
    VectorIndex,
    VectorItem,
    WriteBatch,
)
from .registry import (
    Backends,
    BackendSpec,
    StorageSpec,
    known_schemes,
    open_backend,
    open_component,
    register_backend,
)
from .session import InMemorySessionStore
from .sqlite import SqliteRecordStore
from .sqlite_base import SqliteDatabase
from .vectors import NumpyVectorIndex, SqliteVectorIndex

__all__ = [
    "BackendSpec",
    "Backends",
    "EventBus",
    "InMemorySessionStore",
    "LexicalHit",
    "Migration",
    "NumpyVectorIndex",
    "ProfileCache",
    "RecordFilter",
    "RecordStore",
    "SessionStore",
    "SqliteDatabase",
    "SqliteRecordStore",
    "SqliteVectorIndex",
    "StorageSpec",
    "VectorHit",
    "VectorIndex",
    "VectorItem",
    "WriteBatch",
    "known_schemes",
    "open_backend",
    "open_component",
    "register_backend",
    "run_migrations",
    "tokenize",
]
