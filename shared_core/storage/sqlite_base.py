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

import functools
import json
import logging
import os
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

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
from .lexical import LexDocs, tokenize
from .migrations import SQLITE, SQLITE_MIGRATIONS, run_migrations

__all__ = [
    "RECORD_COLUMNS",
    "RecordCache",
    "Row",
    "SqliteDatabase",
    "UserRows",
    "decode_record",
    "format_time",
    "must_time",
    "parse_time",
    "translate_errors",
    "user_hash",
]

logger = logging.getLogger(__name__)

#: Columns of a record row, in the order every ``SELECT`` and cached row uses.
RECORD_COLUMNS = (
    "id, user_id, system_context, kind, key, value, normalized, source, confidence, version, "
    "status, created_at, updated_at, valid_until, permanent, hard, explicit, scope, scope_ref, "
    "provenance, evidence, supersedes, metadata"
)
#: One record row: the :data:`RECORD_COLUMNS` values, then the ``lex`` text.
Row = tuple[Any, ...]


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
        self._erase_listeners: list[Callable[[str], None]] = []
        self._change_listeners: list[Callable[[], None]] = []
        self._write_listeners: list[Callable[[Sequence[Row]], None]] = []
        self._data_version: int | None = None
        self.in_memory = self.path == ":memory:" or self.path == ""
        if not self.in_memory:
            try:
                Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise BackendUnavailableError(f"cannot create {self.path!r}: {exc}") from exc
        try:
            self.conn = sqlite3.connect(
                self.path if not self.in_memory else ":memory:",
                timeout=timeout,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise BackendUnavailableError(f"cannot open sqlite {self.path!r}: {exc}") from exc
        try:
            with translate_errors("open"):
                self.journal_mode = str(self.conn.execute("PRAGMA journal_mode=WAL").fetchone()[0])
                self.conn.execute("PRAGMA synchronous=NORMAL")
                self.conn.execute("PRAGMA foreign_keys=ON")
                self.conn.execute("PRAGMA secure_delete=ON")
                self.conn.execute(f"PRAGMA cache_size=-{int(cache_kib)}")
                self.applied = run_migrations(
                    self.conn, SQLITE_MIGRATIONS, dialect=SQLITE, clock=self.clock
                )
                self._data_version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
        except BaseException:
            self.conn.close()
            raise

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

    def on_erase(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(user_id)`` after a user is erased (cache invalidation)."""
        self._erase_listeners.append(callback)

    def notify_erase(self, user_id: str) -> None:
        """Tell every ``on_erase`` listener that ``user_id`` was erased."""
        for cb in self._erase_listeners:
            cb(user_id)

    def on_external_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` when another connection is found to have written the file."""
        self._change_listeners.append(callback)

    def on_records_written(self, callback: Callable[[Sequence[Row]], None]) -> None:
        """Call ``callback(rows)`` after records are committed on this connection.

        ``rows`` are the committed record rows (:data:`RECORD_COLUMNS` plus ``lex``).
        """
        self._write_listeners.append(callback)

    def remove_listener(self, callback: Callable[..., None]) -> None:
        """Forget ``callback`` (registered with any ``on_*`` method)."""
        for group in (self._erase_listeners, self._change_listeners, self._write_listeners):
            while callback in group:
                group.remove(callback)

    def notify_records_written(self, rows: Sequence[Row]) -> None:
        """Tell every ``on_records_written`` listener about a committed record write."""
        for cb in self._write_listeners:
            cb(rows)

    def notify_external_change(self) -> None:
        """Tell every ``on_external_change`` listener to drop what it cached."""
        for cb in self._change_listeners:
            cb()

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
        with self.read() as conn:
            version = int(conn.execute("PRAGMA data_version").fetchone()[0])
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
_EMPTY_PROVENANCE_JSON = json.dumps(_EMPTY_PROVENANCE.to_dict(), ensure_ascii=False, sort_keys=True)
_from_iso = datetime.fromisoformat
# Columns of a row (see RECORD_COLUMNS); the lex text is the 24th.
(_ID, _USER, _CTX, _KIND, _KEY, _VALUE, _NORM, _SOURCE, _CONF, _VERSION, _STATUS) = range(11)
_UPDATED, _SCOPE_REF, _LEX = 12, 18, 23


@functools.lru_cache(maxsize=32768)
def _provenance(text: str) -> Provenance:
    """Parsed provenance JSON, memoised: frozen, so one object can serve every read."""
    return Provenance.from_dict(json.loads(text))


def decode_record(r: Sequence[Any]) -> MemoryRecord:
    """Build a :class:`MemoryRecord` from a stored row (the first 23 columns).

    Equal to ``MemoryRecord.from_dict`` of the row, without the generic path: enum
    members come from dicts, ``"{}"`` metadata skips ``json.loads``, and provenance (a
    frozen object) is parsed once per distinct JSON text (LRU of 32k). Each call returns a
    new record with its own ``metadata`` dict, so callers may not corrupt a cache.

    Raises:
        BackendError: the row holds a value no record can have (a corrupt file).
    """
    try:
        prov = r[19]
        meta = r[22]
        valid_until = r[13]
        return MemoryRecord(
            id=r[0],
            user_id=r[1],
            system_context=r[2],
            kind=_KINDS.get(r[3]) or Kind(r[3]),
            key=r[4],
            value=r[5],
            normalized=r[6],
            source=_SOURCES.get(r[7]) or Source(r[7]),
            confidence=float(r[8]),
            version=int(r[9]),
            status=_STATUSES.get(r[10]) or Status(r[10]),
            created_at=_from_iso(r[11]),
            updated_at=_from_iso(r[12]),
            valid_until=_from_iso(valid_until) if valid_until else None,
            permanent=bool(r[14]),
            hard=bool(r[15]),
            explicit=bool(r[16]),
            scope=_SCOPES.get(r[17]) or Scope(r[17]),
            scope_ref=r[18],
            provenance=_EMPTY_PROVENANCE if prov == _EMPTY_PROVENANCE_JSON else _provenance(prov),
            evidence=int(r[20]),
            supersedes=r[21],
            metadata={} if meta == "{}" else dict(json.loads(meta)),
        )
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise BackendError(f"sqlite record row is corrupt: {exc}") from exc


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


# --------------------------------------------------------------------------- record cache
_SHARED_TEXT: dict[str, str] = {}


def _shared(text: str) -> str:
    """One string object per distinct low-cardinality value (kind, status, context...)."""
    got = _SHARED_TEXT.get(text)
    if got is None:
        if len(_SHARED_TEXT) < 4096:
            _SHARED_TEXT[text] = text
        got = text
    return got


def _compact(row: Sequence[Any], user_id: str) -> Row:
    """The row with repeated strings shared (saves ~30% of a cached row's memory)."""
    r = list(row)
    r[_USER] = user_id
    for i in (_CTX, _KIND, _SOURCE, _STATUS, 17, _SCOPE_REF):
        r[i] = _shared(r[i])
    if r[19] == _EMPTY_PROVENANCE_JSON:
        r[19] = _EMPTY_PROVENANCE_JSON
    return tuple(r)


def _newest_first(rows: Sequence[Row]) -> list[Row]:
    # = ORDER BY updated_at DESC, version DESC, id DESC (fixed-width UTC text sorts as time)
    return sorted(rows, key=lambda r: (r[_UPDATED], r[_VERSION], r[_ID]), reverse=True)


class UserRows:
    """Every record row of one user (all contexts and statuses), as stored."""

    __slots__ = ("_lex", "_sorted", "rows", "user_id")

    def __init__(self, user_id: str, rows: Sequence[Sequence[Any]]) -> None:
        self.user_id = user_id
        self.rows: dict[str, Row] = {r[_ID]: _compact(r, user_id) for r in rows}
        self._sorted: dict[str | None, list[Row]] = {}
        self._lex: dict[str, LexDocs] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def newest_first(self, system_context: str | None) -> list[Row]:
        """The rows of one context (``None``: all), newest ``updated_at`` first."""
        got = self._sorted.get(system_context)
        if got is None:
            rows = self.rows.values()
            if system_context is not None:
                rows = [r for r in rows if r[_CTX] == system_context]  # type: ignore[assignment]
            got = self._sorted[system_context] = _newest_first(list(rows))
        return got

    def lex_docs(self, system_context: str) -> LexDocs:
        """The tokenized corpus of one context (shared with the lexical search)."""
        got = self._lex.get(system_context)
        if got is None:
            got = self._lex[system_context] = LexDocs(
                (r[_ID], r[_STATUS], r[_LEX])
                for r in self.rows.values()
                if r[_CTX] == system_context
            )
        return got

    def put(self, row: Row) -> None:
        """Insert or replace one row (by id)."""
        old = self.rows.get(row[_ID])
        self.rows[row[_ID]] = _compact(row, self.user_id)
        self._touch(row[_CTX])
        if old is not None and old[_CTX] != row[_CTX]:
            self._touch(old[_CTX])

    def remove(self, record_id: str) -> None:
        """Forget one row (it moved to another user)."""
        old = self.rows.pop(record_id, None)
        if old is not None:
            self._touch(old[_CTX])

    def _touch(self, system_context: str) -> None:
        self._sorted.pop(system_context, None)
        self._sorted.pop(None, None)
        self._lex.pop(system_context, None)


class RecordCache:
    """LRU of :class:`UserRows`, bounded by users and by rows held in total.

    Not thread-safe by itself: the store calls it under the database lock. A user with
    more rows than ``max_rows`` is not cached (the store then reads SQLite directly).

    Args:
        max_users: users kept.
        max_rows: rows kept across users (the most recently used user always stays).
    """

    def __init__(self, max_users: int, max_rows: int) -> None:
        self.max_users = max(1, max_users)
        self.max_rows = max(0, max_rows)
        self._users: OrderedDict[str, UserRows] = OrderedDict()
        self._owner: dict[str, str] = {}
        self._huge: OrderedDict[str, None] = OrderedDict()
        self._total = 0
        self.hits = 0
        self.loads = 0

    @property
    def enabled(self) -> bool:
        """False when ``max_rows`` is 0 (every read goes to SQLite)."""
        return self.max_rows > 0

    @property
    def users(self) -> int:
        """Users cached now."""
        return len(self._users)

    @property
    def rows(self) -> int:
        """Rows cached now."""
        return self._total

    def user(self, user_id: str) -> UserRows | None:
        """The cached rows of ``user_id`` (marked most recently used), or ``None``."""
        got = self._users.get(user_id)
        if got is not None:
            self._users.move_to_end(user_id)
            self.hits += 1
        return got

    def add(self, user_id: str, rows: Sequence[Sequence[Any]]) -> UserRows:
        """Cache every row of ``user_id`` (as just read from SQLite) and evict LRU users."""
        self.drop_user(user_id)
        entry = UserRows(user_id, rows)
        self.loads += 1
        if len(entry) > self.max_rows:
            self._huge[user_id] = None
            while len(self._huge) > self.max_users:
                self._huge.popitem(last=False)
            return entry  # served once, not kept
        self._users[user_id] = entry
        self._owner.update(dict.fromkeys(entry.rows, user_id))
        self._total += len(entry)
        self._evict()
        return entry

    def too_big(self, user_id: str) -> bool:
        """Whether ``user_id`` was found to have more rows than the cache may hold."""
        return user_id in self._huge

    def row(self, record_id: str) -> Row | None:
        """The cached row with this id, if its user is cached."""
        owner = self._owner.get(record_id)
        if owner is None:
            return None
        return self._users[owner].rows.get(record_id)

    def written(self, rows: Sequence[Row]) -> None:
        """Apply committed rows to the cached users (in place), so nothing goes stale.

        Cached users are complete, so an id not in the id map belonged to no cached user.
        """
        for row in rows:
            rid, user = row[_ID], row[_USER]
            prev = self._owner.get(rid)
            if prev is not None and prev != user:
                self._users[prev].remove(rid)
                del self._owner[rid]
                self._total -= 1
            entry = self._users.get(user)
            if entry is not None:
                if rid not in entry.rows:
                    self._total += 1
                    self._owner[rid] = user
                entry.put(row)
        self._evict()

    def drop_user(self, user_id: str) -> None:
        """Forget one user's rows."""
        self._huge.pop(user_id, None)
        entry = self._users.pop(user_id, None)
        if entry is not None:
            for rid in entry.rows:
                self._owner.pop(rid, None)
            self._total -= len(entry)

    def clear(self) -> None:
        """Forget everything."""
        self._users.clear()
        self._owner.clear()
        self._huge.clear()
        self._total = 0

    def _evict(self) -> None:
        while len(self._users) > 1 and (
            len(self._users) > self.max_users or self._total > self.max_rows
        ):
            oldest = next(iter(self._users))
            self.drop_user(oldest)
