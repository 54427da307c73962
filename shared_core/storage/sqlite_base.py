"""The SQLite connection shared by the embedded stores, and its small helpers.

:class:`SqliteDatabase` owns one stdlib ``sqlite3`` connection: WAL journal,
``synchronous=NORMAL``, foreign keys on, ``secure_delete`` on (deleted rows are overwritten
with zeros), ``check_same_thread=False`` with every use behind one ``RLock`` (the async
twin calls from worker threads), and the schema applied by
:mod:`shared_core.storage.migrations`. :class:`~shared_core.storage.sqlite.SqliteRecordStore`
and :class:`~shared_core.storage.vectors.SqliteVectorIndex` share one instance (which is
what makes ``":memory:"`` work for both).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import operator
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from itertools import repeat
from pathlib import Path
from typing import Any, Literal, Protocol

from ..clock import Clock, SystemClock, as_utc
from ..entities import Kind, MemoryRecord, Provenance, Scope, Source, Status
from ..errors import (
    BackendError,
    BackendUnavailableError,
    ConflictError,
    InvalidInputError,
    UserMemoryError,
)
from ..ids import user_digest
from .lexical import tokenize
from .migrations import SQLITE, SQLITE_MIGRATIONS, run_migrations

__all__ = [
    "EMPTY_PROVENANCE_JSON",
    "RECORD_COLUMNS",
    "CacheHolder",
    "Row",
    "SqliteDatabase",
    "decode_record",
    "format_time",
    "leave_inherited",
    "must_time",
    "parse_time",
    "translate_errors",
    "user_hash",
]

logger = logging.getLogger(__name__)

#: Connections inherited across ``os.fork()`` that a child must neither use nor close
#: (see :func:`leave_inherited`): referenced here so garbage collection never closes
#: them either.
_INHERITED: list[sqlite3.Connection] = []

#: Columns of a record row, in the order every ``SELECT`` and cached row uses.
RECORD_COLUMNS = (
    "id, user_id, system_context, kind, key, value, normalized, source, confidence, version, "
    "status, created_at, updated_at, valid_until, permanent, hard, explicit, scope, scope_ref, "
    "provenance, evidence, supersedes, metadata"
)
#: One record row: the :data:`RECORD_COLUMNS` values, then the ``lex`` text.
Row = tuple[Any, ...]


#: Ids bound per ``IN (...)`` query (SQLite's default limit on host parameters is 999).
IN_CHUNK = 500


def rows_by_id(conn: sqlite3.Connection, columns: str, ids: Sequence[str]) -> Iterator[Any]:
    """``SELECT columns FROM records WHERE id IN (ids)``, :data:`IN_CHUNK` ids a query."""
    for start in range(0, len(ids), IN_CHUNK):
        chunk = ids[start : start + IN_CHUNK]
        marks = ",".join("?" * len(chunk))
        yield from conn.execute(f"SELECT {columns} FROM records WHERE id IN ({marks})", chunk)


def user_hash(user_id: str) -> bytes:
    """The 16-byte key that indexes a user's rows (sha256 prefix; never the raw id)."""
    return user_digest(user_id)[:16]


def format_time(when: datetime) -> str:
    """Fixed-width UTC ISO 8601 text, so that string order is time order."""
    return as_utc(when).isoformat(timespec="microseconds")


def parse_time(text: str | None) -> datetime | None:
    """Inverse of :func:`format_time`."""
    return datetime.fromisoformat(text).astimezone(UTC) if text else None


def must_time(text: str) -> datetime:
    """:func:`parse_time` for NOT NULL columns."""
    parsed = parse_time(text)
    if parsed is None:
        raise BackendError("sqlite row has an empty timestamp")
    return parsed


@contextmanager
def translate_errors(what: str) -> Iterator[None]:
    """Translate ``sqlite3`` errors into the UserMemory error tree."""
    try:
        yield
    except UserMemoryError:
        raise
    except UnicodeEncodeError as exc:
        raise InvalidInputError(f"text is not valid Unicode (lone surrogate?): {exc}") from exc
    except sqlite3.IntegrityError as exc:
        if "records." in str(exc) and "UNIQUE" in str(exc):
            raise ConflictError(f"another active record holds that slot: {exc}") from exc
        raise BackendError(f"sqlite {what} failed: {exc}") from exc
    except sqlite3.ProgrammingError as exc:
        if "closed" in str(exc).lower():
            raise BackendUnavailableError("sqlite database is closed") from exc
        raise BackendError(f"sqlite {what} failed: {exc}") from exc
    except sqlite3.Error as exc:
        raise BackendError(f"sqlite {what} failed: {exc}") from exc


def leave_inherited(
    conn: sqlite3.Connection, *, busy: bool, in_memory: bool
) -> Literal["kept", "closed", "stranded"]:
    """In a child process after ``os.fork()``: stop using the parent's ``conn``.

    The one home of this rule (the core's :class:`SqliteDatabase`, the vector outbox and
    the server's key store call it). Returns what became of the connection:

    - ``"closed"``: a file database nobody was using at the fork. The child's handle is
      closed: SQLite keeps per-process lock bookkeeping, and while an inherited handle
      stays open a connection opened in the child takes no file locks at all (the parent
      could then checkpoint and delete the WAL under the child's writes). Closing it
      releases nothing of the parent's (POSIX locks belong to the process that took
      them). The caller opens a connection of this process (on first use).
    - ``"kept"``: an idle ``":memory:"`` database: fork copied it, it is the child's own
      (from the fork on the two processes' databases diverge); keep using it.
    - ``"stranded"``: a thread was inside a call (``busy``) or a file database was in a
      transaction at the fork. The handle is kept referenced and never touched, not even
      by garbage collection; the caller must not open the file again in this process.
    """
    if busy or (not in_memory and conn.in_transaction):
        _INHERITED.append(conn)
        return "stranded"
    if in_memory:
        return "kept"
    conn.close()
    return "closed"


class CacheHolder(Protocol):
    """A store that caches what it read through a :class:`SqliteDatabase` (the record
    store, the vector index): told about every change it did not make itself."""

    def records_written(self, rows: Sequence[Row]) -> None:
        """Records were committed on the shared connection (by any store)."""

    def forget_user(self, user_id: str) -> None:
        """The user was erased."""

    def forget_all(self) -> None:
        """Another connection or process wrote the file."""


class SqliteDatabase:
    """One SQLite connection shared by the record store and the vector index.

    Args:
        path: a file path (parent directories are created) or ``":memory:"``.
        clock: time source for migration bookkeeping.
        timeout: seconds to wait for another process's write lock.
        cache_kib: SQLite page cache size of the connection, in KiB.

    Raises:
        BackendUnavailableError: the file cannot be opened.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = ":memory:",
        *,
        clock: Clock | None = None,
        timeout: float = 30.0,
        cache_kib: int = 16384,
    ) -> None:
        self.path = str(path)
        self.clock: Clock = clock or SystemClock()
        self.lock = threading.RLock()
        self._refs = 0
        self._closed = False
        self._holders: list[CacheHolder] = []
        self._data_version: int | None = None
        self._timeout = timeout
        self._cache_kib = int(cache_kib)
        self._pid = os.getpid()
        self._reopen = False  # after a fork: this process opens its own connection first
        self._unusable: str | None = None  # after a fork: why it cannot (the reason raised)
        self.in_memory = self.path == ":memory:" or self.path == ""
        if not self.in_memory:
            try:
                Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise BackendUnavailableError(f"cannot create {self.path!r}: {exc}") from exc
        self.conn = self._connect()

    def _connect(self) -> sqlite3.Connection:
        """A new connection: WAL, the pragmas, pending migrations applied."""
        try:
            conn = sqlite3.connect(
                self.path if not self.in_memory else ":memory:",
                timeout=self._timeout,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise BackendUnavailableError(f"cannot open sqlite {self.path!r}: {exc}") from exc
        try:
            with translate_errors("open"):
                self.journal_mode = str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0])
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute("PRAGMA foreign_keys=ON")
                conn.execute("PRAGMA secure_delete=ON")
                conn.execute(f"PRAGMA cache_size=-{self._cache_kib}")
                self.applied = run_migrations(
                    conn, SQLITE_MIGRATIONS, dialect=SQLITE, clock=self.clock
                )
                self._data_version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        except BaseException:
            conn.close()
            raise
        return conn

    def after_fork(self) -> None:
        """In a child process after ``os.fork()``: stop using the parent's connection.

        A file database gets a connection of this process, opened on first use; an idle
        ``":memory:"`` one is the child's copy (see :func:`leave_inherited`). If a thread
        was inside a call or a transaction at the fork, the inherited handle is left
        alone and the database raises :class:`BackendUnavailableError` in this process
        (open a new memory here).
        """
        if self._pid == os.getpid():
            return  # shared by the record store and the vector index: once per fork
        self._pid = os.getpid()
        busy = not self.lock.acquire(blocking=False)  # held by a thread the fork left behind
        self.lock = threading.RLock()
        if self._closed or self._reopen:
            return
        fate = leave_inherited(self.conn, busy=busy, in_memory=self.in_memory)
        if fate == "stranded":
            self._unusable = (
                f"sqlite database {self.path!r} was in use by another thread when this "
                "process was forked; open a new UserMemory in this process"
            )
        self._reopen = fate != "kept"

    def _reconnect(self) -> None:
        """Open this process's connection after a fork (under the lock)."""
        if self._unusable is not None:
            raise BackendUnavailableError(self._unusable)
        self.conn = self._connect()
        self._reopen = False
        self.notify_external_change()  # cached rows: the file may have moved on since

    @property
    def closed(self) -> bool:
        """Whether the connection has been closed."""
        return self._closed

    def acquire(self) -> SqliteDatabase:
        """Count one more user of the connection (closed when the last one releases)."""
        with self.lock:
            self._check_open()
            self._refs += 1
        return self

    def release(self) -> None:
        """Drop one user; close the connection when none is left."""
        with self.lock:
            self._refs -= 1
            if self._refs <= 0:
                self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise BackendUnavailableError(f"sqlite database {self.path!r} is closed")
        if self._reopen:
            self._reconnect()

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock, with driver errors translated."""
        with self.lock:
            self._check_open()
            with translate_errors("read"):
                yield self.conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; any error rolls back and is re-raised typed."""
        with self.lock:
            self._check_open()
            with translate_errors("write"):
                self.conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self.conn
                    self.conn.execute("COMMIT")
                except BaseException:
                    if self.conn.in_transaction:
                        self.conn.execute("ROLLBACK")
                    raise

    def attach(self, holder: CacheHolder) -> None:
        """Keep ``holder``'s cache in step with this connection's file (until detached)."""
        self._holders.append(holder)

    def detach(self, holder: CacheHolder) -> None:
        """Stop telling ``holder`` about changes."""
        self._holders = [h for h in self._holders if h is not holder]

    def notify_records_written(self, rows: Sequence[Row]) -> None:
        """Committed record rows (:data:`RECORD_COLUMNS` plus ``lex``) -> every holder."""
        for holder in self._holders:
            holder.records_written(rows)

    def notify_erase(self, user_id: str) -> None:
        """``user_id`` was erased -> every holder forgets the user."""
        for holder in self._holders:
            holder.forget_user(user_id)

    def notify_external_change(self) -> None:
        """Another connection wrote the file -> every holder drops what it cached."""
        for holder in self._holders:
            holder.forget_all()

    def check_external_changes(self) -> bool:
        """Drop the caches if another connection (or process) committed since last checked.

        ``PRAGMA data_version`` changes only on commits by *other* connections, so the
        caches stay valid across this connection's own writes (which update them in
        place) and are dropped wholesale after anyone else's. Costs one pragma (~2 us).
        Call it under :attr:`lock` before answering from a cache.

        Returns:
            Whether a change was found (and the caches dropped).
        """
        if self.in_memory:
            return False
        with self.lock:  # called on every read: no context managers but the lock
            self._check_open()
            try:
                version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error:
                with translate_errors("read"):  # the typed error, as from read()
                    raise
        if version == self._data_version:
            return False
        self._data_version = version
        self.notify_external_change()
        return True

    def scrub_files(self) -> None:
        """Checkpoint the WAL into the main file and truncate it (erased bytes leave the WAL)."""
        if self.in_memory:
            return
        with self.read() as conn:
            for _ in range(5):
                busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
                if not busy:
                    return
            logger.warning("sqlite checkpoint stayed busy; the WAL may keep erased bytes for now")

    def close(self) -> None:
        """Checkpoint and close the connection (idempotent)."""
        with self.lock:
            if self._closed:
                return
            if self._reopen:  # forked, no connection of its own yet: none to close
                self._closed = True
                return
            try:
                if not self.in_memory:
                    self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                logger.warning("sqlite checkpoint on close failed: %s", exc)
            self.conn.close()
            self._closed = True


# --------------------------------------------------------------------------- record rows
_KINDS = {k.value: k for k in Kind}
_SOURCES = {s.value: s for s in Source}
_STATUSES = {s.value: s for s in Status}
_SCOPES = {s.value: s for s in Scope}
_EMPTY_PROVENANCE = Provenance()
EMPTY_PROVENANCE_JSON = json.dumps(_EMPTY_PROVENANCE.to_dict(), ensure_ascii=False, sort_keys=True)
_from_iso = datetime.fromisoformat


_PROVENANCE_FIELDS = ("session_id", "turn_id", "turn_index", "at", "span", "role", "actor")
if (
    hasattr(Provenance, "__post_init__")
    or tuple(f.name for f in dataclasses.fields(Provenance)) != _PROVENANCE_FIELDS
):  # pragma: no cover - a guard for the fast path
    raise TypeError("_provenance fills Provenance slots in this field order: it must match")
_PROVENANCE_SLOTS = tuple(getattr(Provenance, name).__set__ for name in _PROVENANCE_FIELDS)
_raw_decode = json.JSONDecoder().raw_decode


@functools.lru_cache(maxsize=32768)
def _provenance(text: str) -> Provenance:
    """Parsed provenance JSON, memoised: frozen, so one object can serve every read.

    Equal to ``Provenance.from_dict(json.loads(text))``. A stored text is one JSON object
    as ``json.dumps`` wrote it, so it is read by ``raw_decode`` alone (``json.loads`` adds
    two Python calls and two regex matches) and the object's slots are set directly
    (its frozen ``__init__`` sets each field through ``object.__setattr__``): a cold
    recall parses ~30 provenances no earlier read has seen. Anything else takes the
    generic path, with its errors.
    """
    try:
        data, end = _raw_decode(text)
    except ValueError:  # not JSON, or not at the start: json.loads says which
        data, end = None, -1
    if end != len(text) or type(data) is not dict:
        return Provenance.from_dict(json.loads(text))
    get = data.get
    at = get("at")
    prov: Provenance = _new_object(Provenance)
    _set_slots(
        prov,
        _PROVENANCE_SLOTS,
        (
            get("session_id"),
            get("turn_id"),
            get("turn_index"),
            _from_iso(at) if isinstance(at, str) else at,
            get("span"),
            get("role"),
            get("actor"),
        ),
    )
    return prov


_call = operator.call


def _set_slots(
    obj: object, setters: tuple[Callable[[Any, Any], None], ...], values: tuple[Any, ...]
) -> None:
    """Set the slots of a new ``obj``: ``setters[i](obj, values[i])``, looped in C (a slot
    setter returns ``None``, so ``any`` makes every call): 0.83 instead of 1.20 us for
    Provenance's 7 slots. The callers pass tuples of the same, fixed length."""
    any(map(_call, setters, repeat(obj), values))


_SCALARS = (str, int, float, bool, type(None))


@functools.lru_cache(maxsize=4096)
def _flat_metadata(text: str) -> tuple[tuple[str, Any], ...] | None:
    """The items of a metadata JSON object whose values are all scalars, memoised (the few
    shapes most rows have, e.g. ``{"role": "user"}``); ``None`` when a value is a list or
    an object, which every read must then parse into objects of its own."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise TypeError("record metadata is not a JSON object")
    if all(isinstance(v, _SCALARS) for v in data.values()):
        return tuple(data.items())
    return None


def _metadata(text: str) -> dict[str, Any]:
    """A new metadata dict of a row (callers may change it without touching any cache)."""
    if text == "{}":
        return {}
    items = _flat_metadata(text)
    return dict(items) if items is not None else dict(json.loads(text))


if hasattr(MemoryRecord, "__post_init__"):  # pragma: no cover - a guard for the fast path
    raise TypeError("decode_record fills MemoryRecord slots directly: it must have no checks")
_new_object = object.__new__
#: the slot setters of MemoryRecord in field order. A record is frozen, so its dataclass
#: ``__init__`` sets 23 fields through ``object.__setattr__``; setting the slots directly
#: gives the same object in half the time (reads decode every record they return).
_RECORD_FIELDS = tuple(f.name for f in dataclasses.fields(MemoryRecord))
_RECORD_SLOTS = tuple(getattr(MemoryRecord, name).__set__ for name in _RECORD_FIELDS)
if len(_RECORD_SLOTS) != 23:  # pragma: no cover - decode_record builds 23 values
    raise TypeError("decode_record sets 23 MemoryRecord fields: update it with the class")


def decode_record(r: Sequence[Any]) -> MemoryRecord:
    """Build a :class:`MemoryRecord` from a stored row (the first 23 columns).

    Equal to ``MemoryRecord.from_dict`` of the row, without the generic path: enum
    members come from dicts, ``"{}"`` metadata skips ``json.loads`` (and flat metadata is
    parsed once per distinct text), provenance (a frozen object) is parsed once per
    distinct JSON text (LRU of 32k), and the record's slots are set directly. Each call
    returns a new record with its own ``metadata`` dict, so callers may not corrupt a cache.

    Raises:
        BackendError: the row holds a value no record can have (a corrupt file).
    """
    try:
        prov = r[19]
        valid_until = r[13]
        # in MemoryRecord's field order (see _RECORD_FIELDS)
        values = (
            r[0],
            r[1],
            _KINDS.get(r[3]) or Kind(r[3]),
            r[4],
            r[5],
            r[6],
            _SOURCES.get(r[7]) or Source(r[7]),
            float(r[8]),
            int(r[9]),
            _STATUSES.get(r[10]) or Status(r[10]),
            _from_iso(r[11]),
            _from_iso(r[12]),
            _from_iso(valid_until) if valid_until else None,
            bool(r[14]),
            bool(r[15]),
            bool(r[16]),
            _SCOPES.get(r[17]) or Scope(r[17]),
            r[18],
            r[2],
            _EMPTY_PROVENANCE if prov == EMPTY_PROVENANCE_JSON else _provenance(prov),
            int(r[20]),
            r[21],
            _metadata(r[22]),
        )
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise BackendError(f"sqlite record row is corrupt: {exc}") from exc
    rec: MemoryRecord = _new_object(MemoryRecord)
    _set_slots(rec, _RECORD_SLOTS, values)
    return rec


def _json(data: Any, what: str) -> str:
    try:
        return json.dumps(data, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{what} is not JSON-serialisable: {exc}") from exc


def _lex_text(rec: MemoryRecord) -> str:
    parts = [rec.key, rec.value]
    if rec.normalized and rec.normalized != rec.value:
        parts.append(rec.normalized)
    if rec.provenance.span:
        parts.append(rec.provenance.span)
    return " ".join(tokenize(" \n ".join(parts)))


_REC_NAMES = tuple(c.strip() for c in RECORD_COLUMNS.split(","))
_TEXT_FIELDS = ("id", "user_id", "key", "value", "normalized", "scope_ref", "system_context")


def _record_row(rec: MemoryRecord) -> list[Any]:
    """Convert (and validate) a record into a row, before any transaction starts.

    The row is the :data:`RECORD_COLUMNS` values, then ``uid`` and ``lex``.
    """
    if not isinstance(rec, MemoryRecord):
        raise InvalidInputError(f"expected MemoryRecord, got {type(rec).__name__}")
    try:
        for name in _TEXT_FIELDS:
            if not isinstance(getattr(rec, name), str):
                raise InvalidInputError(f"record.{name} must be a string")
            getattr(rec, name).encode("utf-8")
        if not (
            type(rec.kind) is Kind
            and type(rec.source) is Source
            and type(rec.status) is Status
            and type(rec.scope) is Scope
        ):
            rec = rec.replace(
                kind=Kind(rec.kind),
                source=Source(rec.source),
                status=Status(rec.status),
                scope=Scope(rec.scope),
            )
        d = rec.to_dict()
        d.update(
            created_at=format_time(rec.created_at),
            updated_at=format_time(rec.updated_at),
            valid_until=format_time(rec.valid_until) if rec.valid_until is not None else None,
            confidence=float(rec.confidence),
            version=int(rec.version),
            evidence=int(rec.evidence),
            permanent=int(bool(rec.permanent)),
            hard=int(bool(rec.hard)),
            explicit=int(bool(rec.explicit)),
            provenance=_json(d["provenance"], "provenance"),
            metadata=_json(d["metadata"], "metadata"),
        )
        return [*(d[c] for c in _REC_NAMES), user_hash(rec.user_id), _lex_text(rec)]
    except InvalidInputError:
        raise
    except (ValueError, TypeError, AttributeError, UnicodeEncodeError) as exc:
        raise InvalidInputError(f"invalid record {getattr(rec, 'id', '?')!r}: {exc}") from exc
