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

import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from ..clock import Clock, SystemClock, as_utc
from ..errors import (
    BackendError,
    BackendUnavailableError,
    ConflictError,
    InvalidInputError,
    UserMemoryError,
)
from .migrations import SQLITE, SQLITE_MIGRATIONS, run_migrations

__all__ = [
    "RECORD_COLUMNS",
    "Row",
    "SqliteDatabase",
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
    try:
        return hashlib.sha256(user_id.encode("utf-8")).digest()[:16]
    except UnicodeEncodeError as exc:
        raise InvalidInputError("user id is not valid Unicode (lone surrogate)") from exc


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
        self._write_listeners: list[Callable[[Sequence[Row], set[str]], None]] = []
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

    def on_records_written(self, callback: Callable[[Sequence[Row], set[str]], None]) -> None:
        """Call ``callback(rows, old_owners)`` after records are committed on this connection.

        ``rows`` are the committed record rows (:data:`RECORD_COLUMNS` plus ``lex``);
        ``old_owners`` the users that held any of those ids before the write.
        """
        self._write_listeners.append(callback)

    def remove_listener(self, callback: Callable[..., None]) -> None:
        """Forget ``callback`` (registered with any ``on_*`` method)."""
        for group in (self._erase_listeners, self._change_listeners, self._write_listeners):
            while callback in group:
                group.remove(callback)

    def notify_records_written(self, rows: Sequence[Row], old_owners: set[str]) -> None:
        """Tell every ``on_records_written`` listener about a committed record write."""
        for cb in self._write_listeners:
            cb(rows, old_owners)

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
