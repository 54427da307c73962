"""The SQLite record store's in-process cache of whole users' rows (:class:`RecordCache`
of :class:`UserRows`), kept exact by the store's own writes and dropped on another
connection's commit (``PRAGMA data_version``, see
:meth:`~shared_core.storage.sqlite_base.SqliteDatabase.check_external_changes`).

A user's first read loads every row with only the columns that filtering, ordering and
the lexical corpus use (:data:`LIST_COLUMNS`); the rest of a row (:data:`DETAIL_COLUMNS`:
value, provenance, metadata, ...) is read the first time a read decodes that row. Each
value crossing the ``sqlite3`` module costs about a microsecond (the module releases
and retakes the GIL per column), and a recall decodes about a third of a user's rows, so
a cold recall moves ~1,500 fewer values out of SQLite and keeps fewer objects.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cachetools import LRUCache

from .lexical import LexDocs
from .sqlite_base import EMPTY_PROVENANCE_JSON, Row

__all__ = ["DETAIL_COLUMNS", "LIST_COLUMNS", "RecordCache", "UserRows"]

# Columns of a row (see RECORD_COLUMNS); the lex text is the 24th.
(_ID, _USER, _CTX, _KIND, _KEY, _VALUE, _NORM, _SOURCE, _CONF, _VERSION, _STATUS) = range(11)
_UPDATED, _SCOPE_REF, _LEX = 12, 18, 23

#: The columns a user's first read loads for every row, in this order.
LIST_COLUMNS = "id, system_context, kind, key, version, status, updated_at, scope_ref, lex"
#: The rest of a row (``id`` first), read for the rows a read decodes.
DETAIL_COLUMNS = (
    "id, value, normalized, source, confidence, created_at, valid_until, permanent, hard,"
    " explicit, scope, provenance, evidence, supersedes, metadata"
)


class _Unread:
    """The value of a column not read yet (one instance, :data:`_UNREAD`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unread>"


_UNREAD: Any = _Unread()

_SHARED_TEXT: dict[str, str] = {}
_MAX_SHARED = 4096


def _sharer() -> Callable[[str, str], str]:
    """``dict.setdefault`` of the shared-string table while it has room, then ``dict.get``:
    one string object per distinct low-cardinality value (context, kind, source, status,
    scope, scope_ref) from a table of at most ~4096 values (saves ~30% of a cached row's
    memory)."""
    return _SHARED_TEXT.setdefault if len(_SHARED_TEXT) < _MAX_SHARED else _SHARED_TEXT.get


def _compact(row: Sequence[Any], user_id: str) -> Row:
    """A whole row (:data:`RECORD_COLUMNS` then ``lex``) with repeated strings shared."""
    sh = _sharer()
    r = row
    prov = r[19]
    return (
        r[0],
        user_id,
        sh(r[2], r[2]),
        sh(r[3], r[3]),
        r[4],
        r[5],
        r[6],
        sh(r[7], r[7]),
        r[8],
        r[9],
        sh(r[10], r[10]),
        r[11],
        r[12],
        r[13],
        r[14],
        r[15],
        r[16],
        sh(r[17], r[17]),
        sh(r[18], r[18]),
        EMPTY_PROVENANCE_JSON if prov == EMPTY_PROVENANCE_JSON else prov,
        *r[20:],
    )


def _listed(r: Sequence[Any], user_id: str, sh: Callable[[str, str], str]) -> Row:
    """A row of :data:`LIST_COLUMNS` in the shape of a whole row, the other columns unread.

    Built as one tuple display: this runs for every row of a user's first read.
    """
    u = _UNREAD
    return (
        r[0],
        user_id,
        sh(r[1], r[1]),
        sh(r[2], r[2]),
        r[3],
        u,
        u,
        u,
        u,
        r[4],
        sh(r[5], r[5]),
        u,
        r[6],
        u,
        u,
        u,
        u,
        u,
        sh(r[7], r[7]),
        u,
        u,
        u,
        u,
        r[8],
    )


def _detailed(r: Row, d: Sequence[Any], sh: Callable[[str, str], str]) -> Row:
    """The listed row ``r`` completed with its :data:`DETAIL_COLUMNS` row ``d``."""
    prov = d[11]
    return (
        r[0],
        r[1],
        r[2],
        r[3],
        r[4],
        d[1],
        d[2],
        sh(d[3], d[3]),
        d[4],
        r[9],
        r[10],
        d[5],
        r[12],
        d[6],
        d[7],
        d[8],
        d[9],
        sh(d[10], d[10]),
        r[18],
        EMPTY_PROVENANCE_JSON if prov == EMPTY_PROVENANCE_JSON else prov,
        d[12],
        d[13],
        d[14],
        r[23],
    )


_BY_ID = operator.itemgetter(_ID)
_BY_VERSION = operator.itemgetter(_VERSION)
_BY_UPDATED = operator.itemgetter(_UPDATED)


def _newest_first(rows: Sequence[Row]) -> list[Row]:
    """``ORDER BY updated_at DESC, version DESC, id DESC`` (fixed-width UTC text sorts as
    time): three stable sorts on one column each, last key first (one-type keys compare
    on CPython's fast paths, tuple keys do not: 26 instead of 40 us for 100 rows)."""
    out = sorted(rows, key=_BY_ID, reverse=True)
    out.sort(key=_BY_VERSION, reverse=True)
    out.sort(key=_BY_UPDATED, reverse=True)
    return out


class UserRows:
    """Every record row of one user (all contexts and statuses), as stored.

    Built from rows of :data:`LIST_COLUMNS`; a row's other columns are filled in by
    :meth:`fill` (see :meth:`unread`) or by a write (:meth:`put`). Lists such as
    :meth:`newest_first` may hold a row as it was before it was filled: look a row up in
    :attr:`rows` by id to decode it.
    """

    __slots__ = ("_lex", "_sorted", "rows", "user_id")

    def __init__(self, user_id: str, rows: Iterable[Sequence[Any]]) -> None:
        self.user_id = user_id
        sh = _sharer()
        self.rows: dict[str, Row] = {r[0]: _listed(r, user_id, sh) for r in rows}
        self._sorted: dict[str | None, list[Row]] = {}
        self._lex: dict[str, LexDocs] = {}

    def unread(self, record_ids: Iterable[str]) -> list[str]:
        """Those of ``record_ids`` (ids of this user's rows) whose details are not read yet."""
        rows, u = self.rows, _UNREAD
        return [rid for rid in record_ids if rows[rid][_VALUE] is u]

    def fill(self, details: Iterable[Sequence[Any]]) -> None:
        """Complete rows with their :data:`DETAIL_COLUMNS` rows (ids not held are skipped)."""
        rows, u, sh = self.rows, _UNREAD, _sharer()
        for d in details:
            r = rows.get(d[0])
            if r is not None and r[_VALUE] is u:
                rows[d[0]] = _detailed(r, d, sh)

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


class _RowsLRU(LRUCache[str, UserRows]):
    """Users, least recently used first, sized by their rows; eviction reports the user."""

    def __init__(self, max_rows: int, evicted: Callable[[UserRows], None]) -> None:
        super().__init__(maxsize=max_rows, getsizeof=len)
        self._evicted = evicted

    def popitem(self) -> tuple[str, UserRows]:
        key, entry = super().popitem()
        self._evicted(entry)
        return key, entry


class RecordCache:
    """LRU of :class:`UserRows` (a ``cachetools.LRUCache`` sized by rows), bounded by users
    and by rows held in total, plus an index from record id to its cached user.

    Not thread-safe by itself: the store calls it under the database lock. A user with
    more rows than ``max_rows`` is not cached (the store then reads SQLite directly).

    Args:
        max_users: users kept.
        max_rows: rows kept across users.
    """

    def __init__(self, max_users: int, max_rows: int) -> None:
        self.max_users = max(1, max_users)
        self.max_rows = max(0, max_rows)
        self._users = _RowsLRU(self.max_rows, self._forget_rows)
        self._owner: dict[str, str] = {}
        self._huge: LRUCache[str, None] = LRUCache(maxsize=self.max_users)
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
        return int(self._users.currsize)

    def user(self, user_id: str) -> UserRows | None:
        """The cached rows of ``user_id`` (marked most recently used), or ``None``."""
        got = self._users.get(user_id)
        if got is not None:
            self.hits += 1
        return got

    def add(self, user_id: str, rows: Iterable[Sequence[Any]]) -> UserRows:
        """Cache every row of ``user_id`` (rows of :data:`LIST_COLUMNS` as read from SQLite:
        a cursor is consumed row by row, so the rows as read are not all held next to their
        compact copies) and evict LRU users."""
        self.drop_user(user_id)
        entry = UserRows(user_id, rows)
        self.loads += 1
        if not self._keep(entry):
            return entry  # served once, not kept
        self._owner.update(dict.fromkeys(entry.rows, user_id))
        return entry

    def too_big(self, user_id: str) -> bool:
        """Whether ``user_id`` was found to have more rows than the cache may hold."""
        return user_id in self._huge

    def row(self, record_id: str) -> Row | None:
        """The cached row with this id, if its user is cached and the row was read whole."""
        owner = self._owner.get(record_id)
        if owner is None:
            return None
        row = self._users[owner].rows.get(record_id)
        return None if row is None or row[_VALUE] is _UNREAD else row

    def written(self, rows: Sequence[Row]) -> None:
        """Apply committed rows to the cached users (in place), so nothing goes stale.

        Cached users are complete, so an id not in the id map belonged to no cached user.
        """
        resized: dict[str, UserRows] = {}
        for row in rows:
            rid, user = row[_ID], row[_USER]
            prev = self._owner.get(rid)
            if prev is not None and prev != user:
                moved_from = self._users[prev]
                moved_from.remove(rid)
                del self._owner[rid]
                resized[prev] = moved_from
            entry = self._users.get(user)
            if entry is not None:
                if rid not in entry.rows:
                    self._owner[rid] = user
                    resized[user] = entry
                entry.put(row)
        for user, entry in resized.items():  # a size is taken on insert: re-insert
            if user in self._users:
                self._users.pop(user)
                if not self._keep(entry):
                    for rid in entry.rows:
                        self._owner.pop(rid, None)

    def drop_user(self, user_id: str) -> None:
        """Forget one user's rows."""
        self._huge.pop(user_id, None)
        entry = self._users.pop(user_id, None)
        if entry is not None:
            self._forget_rows(entry)

    def clear(self) -> None:
        """Forget everything."""
        self._users.clear()
        self._owner.clear()
        self._huge.clear()

    def _keep(self, entry: UserRows) -> bool:
        """Insert ``entry`` as most recently used, evicting LRU users to stay within both
        bounds; a user bigger than ``max_rows`` is remembered as too big instead."""
        if len(entry) > self.max_rows:
            self._huge[entry.user_id] = None
            return False
        self._users[entry.user_id] = entry
        while len(self._users) > self.max_users:
            self._users.popitem()
        return True

    def _forget_rows(self, entry: UserRows) -> None:
        for rid in entry.rows:
            self._owner.pop(rid, None)
