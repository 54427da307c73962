"""The storage seams. Every backend implements these small protocols.

- :class:`RecordStore`  durable records (every version), audit log, conflicts, user state,
  lexical search. One ``apply(WriteBatch)`` call is one transaction.
- :class:`VectorIndex`  dense vectors keyed by record id, always searched per user.
- :class:`SessionStore` short-term session memory with a TTL.

They are ``typing.Protocol`` classes: a backend does not need to inherit from them.
Stores raise only errors from :mod:`shared_core.errors` (translate driver errors at
the boundary with :func:`shared_core.errors.map_backend_errors`).

Any store may also implement :class:`ForkAware` (one optional method, ``after_fork``),
called in a child process after ``os.fork()`` for every store of every open memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..entities import AuditEntry, Conflict, Kind, MemoryRecord, SessionTurn, Status, UserState
from ..errors import ConflictError

__all__ = [
    "ArchiveRecordStore",
    "EventBus",
    "Fence",
    "FencedStore",
    "ForkAware",
    "LexicalHit",
    "ProfileCache",
    "RecordFilter",
    "RecordStore",
    "SessionStore",
    "UserTouch",
    "VectorHit",
    "VectorIndex",
    "VectorItem",
    "WriteBatch",
    "after_fork",
]

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordFilter:
    """Which records of ONE user to list. ``None`` means "any".

    ``also_ids``: records with these ids are listed too, whatever the other predicates
    say (still only this user's, in this ``system_context``). The read path lists the
    records a query needs in one read: the structured part by predicate, the search
    hits by id.
    """

    user_id: str
    system_context: str | None = "default"
    statuses: tuple[Status, ...] | None = (Status.ACTIVE,)
    kinds: tuple[Kind, ...] | None = None
    exclude_kinds: tuple[Kind, ...] = ()
    keys: tuple[str, ...] | None = None  # exact keys
    key_prefixes: tuple[str, ...] | None = None  # "contact." matches "contact.call"
    scope_refs: tuple[str, ...] | None = None  # e.g. ("", "device:dev_1")
    value_normalized: str | None = None
    limit: int | None = None  # newest first when limited
    also_ids: tuple[str, ...] = ()  # OR-ed with the predicates above (same user, context)


@dataclass(frozen=True, slots=True)
class Fence:
    """A user's write fence, read before a write and checked inside its transaction.

    ``epoch`` counts the user's erasures, ``gen`` every committed write to the user
    (records, state, conflicts) and every erasure. A batch that carries the fence it read
    (``WriteBatch.expect``) commits only if both are unchanged, so a write computed before
    an erase, or from data another writer has since changed, can never commit: the store
    raises :class:`~shared_core.errors.ConflictError` and the caller re-reads and retries
    (or, when ``epoch`` moved, drops the write: the erase wins).
    """

    user_id: str
    epoch: int = 0
    gen: int = 0


def check_fence(expected: Mapping[str, Fence], user_id: str, bumped: Sequence[Any] | None) -> None:
    """For stores: raise ConflictError unless ``bumped`` (the user's ``(epoch, gen)`` row
    right after this transaction moved it) shows that the fence ``expected`` for the user
    (:meth:`WriteBatch.expected`) still held before."""
    if bumped is None:  # pragma: no cover - INSERT ... RETURNING always returns a row
        raise ConflictError("the write fence returned no row")
    expect = expected.get(user_id)
    if expect is None:
        return
    epoch, gen = int(bumped[0]), int(bumped[1]) - 1
    if (epoch, gen) != (expect.epoch, expect.gen):
        raise ConflictError(
            "the user was written or erased since this write read it"
            f" (fence {expect.epoch}/{expect.gen} -> {epoch}/{gen}); re-read and retry"
        )


def needs_erasure_cut(entry: AuditEntry, written: set[str]) -> bool:
    """Whether ``entry`` must be checked against its user's last erasure (see
    :func:`unerased_audit`): any entry of a user the batch does not write, and any
    buffered ``read`` entry whoever the batch writes."""
    return entry.user_id not in written or entry.action == "read"


def unerased_audit(
    entries: Sequence[AuditEntry],
    items: Sequence[Any],
    written: set[str],
    erased_at: Callable[[str], Any],
    at: Callable[[AuditEntry, Any], Any],
) -> list[Any]:
    """For stores: the ``items`` (one per audit entry) without read-only entries dated before
    their user's last erasure, so another process's buffered reads cannot bring an erased
    id back. A user the batch writes keeps the write's own entries (that write passed the
    fence), but not buffered ``read`` entries riding along with it: those may predate an
    erasure made by another process, and they name the erased records.

    ``erased_at(user_id)`` is the stored erasure time (``None`` if never), ``at(entry,
    item)`` the entry's time in the same form; each user is looked up once.
    """
    cuts: dict[str, Any] = {}
    kept = []
    for entry, item in zip(entries, items, strict=True):
        if needs_erasure_cut(entry, written):
            if entry.user_id not in cuts:
                cuts[entry.user_id] = erased_at(entry.user_id)
            cut = cuts[entry.user_id]
            if cut is not None and at(entry, item) < cut:
                continue
        kept.append(item)
    return kept


@dataclass(frozen=True, slots=True, kw_only=True)
class UserTouch:
    """Counters a write adds to the user's state, applied atomically by the store.

    The store adds ``turns`` and ``sessions`` to the stored counters in the write's
    transaction (never a read-modify-write in Python), keeps the first ``first_seen``,
    sets ``last_seen`` to ``at`` and, when given, ``last_session_id``. A new user row is
    created with memory enabled.
    """

    user_id: str
    at: datetime
    turns: int = 0
    sessions: int = 0
    session_id: str | None = None


@dataclass(slots=True, kw_only=True)
class WriteBatch:
    """Everything one observe/remember call writes, committed atomically.

    ``records`` are inserted or replaced by id (a new version is a new id; a
    superseded version is the same id with ``status`` changed).
    """

    records: list[MemoryRecord] = field(default_factory=list)
    audit: list[AuditEntry] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    resolved_conflicts: list[tuple[str, datetime]] = field(default_factory=list)  # (id, when)
    user_state: UserState | None = None
    touch: UserTouch | None = None  # atomic counter increments (observe)
    expect: Fence | None = None  # commit only if the user's fence is still this one
    # fences of other users the batch was computed from (a merge reads the anonymous id):
    # the batch commits only if they still hold too
    expect_also: tuple[Fence, ...] = ()

    def __bool__(self) -> bool:
        return bool(
            self.records
            or self.audit
            or self.conflicts
            or self.resolved_conflicts
            or self.user_state is not None
            or self.touch is not None
        )

    def written_users(self) -> set[str]:
        """Users whose records, conflicts or state this batch writes (audit alone is not a
        write to the user: it does not move the fence)."""
        users = {r.user_id for r in self.records} | {c.user_id for c in self.conflicts}
        if self.user_state is not None:
            users.add(self.user_state.user_id)
        if self.touch is not None:
            users.add(self.touch.user_id)
        return users | set(self.expected())

    def expected(self) -> dict[str, Fence]:
        """Every fence the batch expects, by user (``expect`` and ``expect_also``)."""
        fences = {f.user_id: f for f in self.expect_also}
        if self.expect is not None:
            fences[self.expect.user_id] = self.expect
        return fences


@dataclass(frozen=True, slots=True)
class LexicalHit:
    record_id: str
    score: float  # higher is better (e.g. -bm25)


@dataclass(frozen=True, slots=True)
class VectorHit:
    record_id: str
    similarity: float  # cosine similarity in [-1, 1]


@dataclass(frozen=True, slots=True, kw_only=True)
class VectorItem:
    """One vector to index, with the metadata every search filters on (never raw text)."""

    record_id: str
    user_id: str
    system_context: str
    kind: Kind
    key: str
    vector: Vector


@runtime_checkable
class RecordStore(Protocol):
    """Durable storage of records, audit log, conflicts and per-user state."""

    def apply(self, batch: WriteBatch) -> None:
        """Commit the whole batch in one transaction, or nothing (raise BackendError)."""
        ...

    def get(self, record_ids: Sequence[str]) -> list[MemoryRecord]:
        """The records with these ids (any status), in no particular order."""
        ...

    def find(self, flt: RecordFilter) -> list[MemoryRecord]:
        """Records of one user matching the filter, newest ``updated_at`` first."""
        ...

    def history(
        self, user_id: str, key: str, *, system_context: str | None = None
    ) -> list[MemoryRecord]:
        """Every version of ``key`` (all kinds and scopes), oldest first."""
        ...

    def lexical_search(
        self,
        user_id: str,
        system_context: str,
        query: str,
        *,
        limit: int,
        statuses: tuple[Status, ...] = (Status.ACTIVE,),
    ) -> list[LexicalHit]:
        """BM25-style search over ``key``/``value``/``span`` of one user's records.

        ``query`` is free text (English or Chinese); the store tokenizes it the same
        way it tokenized the records, and must not treat it as query syntax.
        """
        ...

    def conflicts(
        self, user_id: str, system_context: str | None = "default", *, open_only: bool = True
    ) -> list[Conflict]: ...

    def audit_log(self, user_id: str, *, limit: int | None = None) -> list[AuditEntry]:
        """The user's audit entries, oldest first."""
        ...

    def user_state(self, user_id: str) -> UserState | None: ...

    def users(self) -> list[str]:
        """Every user id with anything stored."""
        ...

    def erase_user(self, user_id: str, *, at: datetime) -> dict[str, int]:
        """Delete everything about the user; keep only a tombstone (hash of the id, time).

        Returns counts per table. After this the user id and the user's values must not be
        readable from the store's files.
        """
        ...

    def close(self) -> None: ...


@runtime_checkable
class ArchiveRecordStore(Protocol):
    """The reads of a record store with an archive (e.g. ``PostgresRecordStore``)."""

    supports_archive: bool

    def get(
        self, record_ids: Sequence[str], *, include_archive: bool = False
    ) -> list[MemoryRecord]: ...

    def find(self, flt: RecordFilter, *, include_archive: bool = False) -> list[MemoryRecord]: ...

    def lexical_search(
        self,
        user_id: str,
        system_context: str,
        query: str,
        *,
        limit: int,
        include_archive: bool = False,
    ) -> list[LexicalHit]: ...

    def archived_ids(self, record_ids: Sequence[str]) -> set[str]: ...


@runtime_checkable
class FencedStore(Protocol):
    """A :class:`RecordStore` that fences writes against erasure and concurrent writers
    and keeps a durable queue of erasures other stores have not confirmed yet.

    The built-in SQLite and PostgreSQL stores implement it; ``apply`` honours
    ``WriteBatch.expect`` and ``WriteBatch.touch``, and ``erase_user`` moves the epoch.
    """

    def fence(self, user_id: str) -> Fence:
        """The user's current fence (``Fence(user_id)`` when never written)."""
        ...

    def queue_erasure(self, user_id: str, stores: Sequence[str], *, at: datetime) -> None:
        """Durably note that ``stores`` still have to erase ``user_id``."""
        ...

    def pending_erasures(self, *, limit: int = 100) -> list[tuple[str, str]]:
        """Queued ``(user_id, store)`` erasures, oldest first."""
        ...

    def confirm_erasure(self, user_id: str, store: str) -> None:
        """Drop one queued erasure (the store confirmed it)."""
        ...


@runtime_checkable
class VectorIndex(Protocol):
    """Dense vectors of records; every search is scoped to one user and context."""

    dimension: int | None

    def upsert(self, items: Sequence[VectorItem]) -> None: ...

    def search(
        self,
        user_id: str,
        system_context: str,
        vector: Vector,
        *,
        k: int,
        kinds: tuple[Kind, ...] | None = None,
    ) -> list[VectorHit]:
        """Top ``k`` of this user's vectors in this context by cosine similarity."""
        ...

    def delete(self, record_ids: Iterable[str]) -> int: ...

    def delete_user(self, user_id: str) -> int: ...

    def ids_for_user(self, user_id: str) -> set[str]:
        """Record ids indexed for the user (used by reconciliation and erase checks)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class SessionStore(Protocol):
    """Short-term memory of live sessions, expiring ``ttl_seconds`` after the last activity."""

    def append(
        self, user_id: str, session_id: str, turn: SessionTurn, *, device_id: str | None = None
    ) -> None:
        """Add a turn to the session and refresh its TTL."""
        ...

    def turns(
        self, user_id: str, session_id: str, *, limit: int | None = None
    ) -> list[SessionTurn]:
        """The session's turns, oldest first (the last ``limit`` if given)."""
        ...

    def mark_written(
        self, user_id: str, session_id: str, turn_id: str, record_ids: Sequence[str]
    ) -> None:
        """Remember which records a turn wrote (so "just kidding" can undo them)."""
        ...

    def get_state(self, user_id: str, session_id: str) -> Mapping[str, Any]:
        """Small JSON-able per-session state (e.g. last_turn_index)."""
        ...

    def set_state(self, user_id: str, session_id: str, state: Mapping[str, Any]) -> None: ...

    def update_state(
        self,
        user_id: str,
        session_id: str,
        fn: Callable[[dict[str, Any]], Mapping[str, Any]],
    ) -> dict[str, Any]:
        """Atomically replace the state with ``fn(state)`` and return what was written.

        No concurrent writer's update is lost: ``fn`` sees the latest state (``{}`` when
        none) and may be called more than once (an optimistic store retries it), so it must
        be a pure function of its argument. Refreshes the TTL like ``set_state``.

        Raises:
            InvalidInputError: ``fn`` returned something that is not a JSON-able mapping.
            ConflictError: the store gave up retrying under sustained contention.
        """
        ...

    def end(self, user_id: str, session_id: str) -> list[SessionTurn]:
        """Drop the session and return its turns."""
        ...

    def sessions(self, user_id: str) -> list[str]:
        """Live session ids of the user."""
        ...

    def delete_user(self, user_id: str) -> int:
        """Drop every session of the user; return how many keys/sessions were removed."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class ProfileCache(Protocol):
    """A hot cache of ``profile()`` results, read before the durable store.

    The pipeline invalidates a user's entries after every successful write to that user,
    so a read after ``remember``/``observe`` never sees a stale profile.
    """

    def get(
        self, user_id: str, system_context: str, scope_key: str = ""
    ) -> dict[str, str] | None: ...

    def set(
        self, user_id: str, system_context: str, profile: Mapping[str, str], scope_key: str = ""
    ) -> None: ...

    def invalidate(self, user_id: str) -> None: ...

    def delete_user(self, user_id: str) -> int: ...

    def close(self) -> None: ...


@runtime_checkable
class EventBus(Protocol):
    """Publishes every change so other processes/agents can sync (e.g. a Redis Stream)."""

    def publish(self, event: Mapping[str, Any]) -> None:
        """Publish one change.

        ``event`` keys: type ("memory.update"), user_id, system_context, action, key,
        record_id, version, at. Never values.
        """
        ...

    def delete_user(self, user_id: str) -> int:
        """Remove stream entries that carry the user's data; return how many."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class ForkAware(Protocol):
    """Optional on any store: what it does in a child process after ``os.fork()``.

    The core's one ``os.register_at_fork`` hook (``shared_core/_forksafe.py``, which
    also renews module-level locks) calls, in the child, ``after_fork()`` on each store
    of every memory not closed yet, on the child's only thread, before the child runs
    anything else. A store then:

    - replaces its locks (a thread of the parent may have held one at the fork; that
      thread does not exist in the child, so the lock would never be released);
    - stops using connections, sockets and threads of the parent: it opens its own
      (preferably on first use: a child that never calls it opens nothing) and never
      closes the inherited ones, which the parent still uses (keep a reference, so
      garbage collection does not close them either);
    - forwards the call to the stores it wraps.

    It must be idempotent within one process (a store shared by two roles, e.g. the
    SQLite connection of the record store and the vector index, is told twice), must not
    raise, and should do no I/O. A store without the method is left as it is: fine for
    one that holds nothing but data of its own (redis-py notices the fork by itself).
    """

    def after_fork(self) -> None: ...


def after_fork(part: object) -> None:
    """Call ``part.after_fork()`` if the store has it (see :class:`ForkAware`)."""
    hook = getattr(part, "after_fork", None)
    if callable(hook):
        hook()
