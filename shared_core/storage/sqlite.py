"""The embedded default store: one SQLite file (stdlib ``sqlite3``), no server.

- :class:`SqliteDatabase` owns the connection: WAL journal, ``synchronous=NORMAL``,
  foreign keys, ``secure_delete`` (erased rows are overwritten with zeros), one
  connection shared by threads behind an ``RLock``, schema via
  :mod:`shared_core.storage.migrations`. ``":memory:"`` works.
- :class:`SqliteRecordStore` implements :class:`~shared_core.storage.protocols.RecordStore`.
  Lexical search is BM25 computed in process over one user's records in one context
  (loaded through the per-user index and cached until that user writes), which stays
  ~constant-time however many other users the file holds (see
  ``benchmarks/storage_lexical.py``).
- The vector index (:class:`shared_core.storage.vectors.SqliteVectorIndex`) shares the
  same :class:`SqliteDatabase`.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Sequence
from typing import Any

from cachetools import LRUCache

from ..clock import Clock
from ..entities import (
    AuditEntry,
    Conflict,
    Kind,
    MemoryRecord,
    Status,
)
from ..errors import InvalidInputError
from .lexical import LEXICAL_VERSION, LexDocs, tokenize_query
from .protocols import (
    LexicalHit,
    RecordFilter,
    WriteBatch,
    needs_erasure_cut,
    unerased_audit,
)
from .sqlite_base import (
    RECORD_COLUMNS,
    Row,
    SqliteDatabase,
    _json,
    _lex_text,
    _record_row,
    decode_record,
    format_time,
    must_time,
    parse_time,
    rows_by_id,
    user_hash,
)
from .sqlite_cache import DETAIL_COLUMNS, LIST_COLUMNS, RecordCache, UserRows
from .sqlite_users import SqliteUserTables

__all__ = ["SqliteDatabase", "SqliteRecordStore", "format_time", "parse_time", "user_hash"]

logger = logging.getLogger(__name__)

_RECORD_COLS = RECORD_COLUMNS
_UPDATABLE = [*(c.strip() for c in _RECORD_COLS.split(",")[1:]), "uid", "lex"]
_AUDIT_COLS = (
    "id",
    "user_id",
    "action",
    "record_id",
    "key",
    "actor",
    "at",
    "session_id",
    "turn_id",
    "detail",
)
_CONFLICT_COLS = (
    "id",
    "user_id",
    "system_context",
    "key",
    "record_ids",
    "reason",
    "question",
    "detected_at",
    "resolved_at",
)


_row_record = decode_record


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class SqliteRecordStore(SqliteUserTables):
    """:class:`~shared_core.storage.protocols.RecordStore` on SQLite.

    Args:
        path: database file or ``":memory:"`` (ignored when ``database`` is given).
        database: share an open :class:`SqliteDatabase` (e.g. with the vector index).
        clock: time source (migrations bookkeeping) when opening ``path``.
        lexical_cache_size: users whose records (decoded rows and tokenized corpora) are
            kept in memory (LRU).
        max_cached_records: bound on record rows held in memory across users (LRU; ~1 KB
            each); ``0`` turns the record cache off (every read queries SQLite).

    The cache holds every row of a cached user (one indexed query fills it on the user's
    first read with the columns filtering, ordering and BM25 use; the rest of a row is
    read when a read first decodes it) and answers ``get``, ``find`` and
    ``lexical_search``. This store's own
    writes update it in place (every store sharing the :class:`SqliteDatabase` too);
    writes by other connections or processes are detected with ``PRAGMA data_version``
    on each read, which drops the whole cache.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = ":memory:",
        *,
        database: SqliteDatabase | None = None,
        clock: Clock | None = None,
        lexical_cache_size: int = 1024,
        max_cached_records: int = 100_000,
    ) -> None:
        self.db = (database or SqliteDatabase(path, clock=clock)).acquire()
        self._lex_cache: LRUCache[tuple[str, str], LexDocs] = LRUCache(
            maxsize=max(1, lexical_cache_size)
        )
        self._cache = RecordCache(lexical_cache_size, max_cached_records)
        self._closed = False
        self.db.attach(self)
        self._retokenize_if_stale()

    # ------------------------------------------------------------------ writes
    def apply(self, batch: WriteBatch) -> None:
        """Commit the batch in one transaction (records upserted by id), or nothing.

        Raises:
            InvalidInputError: a record/entry is malformed (nothing written).
            ConflictError: two active records would share one slot (nothing written).
            BackendError: the database failed (rolled back).
        """
        if not batch:
            return
        # Demote before promote: the one-active-per-slot index is checked per statement.
        records = sorted(batch.records, key=lambda r: r.status == Status.ACTIVE)
        rows = [_record_row(r) for r in records]
        audit_rows = [self._audit_row(a) for a in batch.audit]
        conflict_rows = [self._conflict_row(c) for c in batch.conflicts]
        written_users = batch.written_users()
        state = batch.user_state
        cols = _RECORD_COLS + ", uid, lex"
        marks = ", ".join("?" * (len(_UPDATABLE) + 1))
        sets = ", ".join(f"{c} = excluded.{c}" for c in _UPDATABLE)
        # the lock spans the commit and the cache update: no reader sees one without the other
        with self.db.lock:
            with self.db.transaction() as conn:
                self._move_fences(conn, written_users, batch.expected())
                if batch.audit:
                    erased = self._erasures(
                        conn,
                        {a.user_id for a in batch.audit if needs_erasure_cut(a, written_users)},
                    )
                    audit_rows = unerased_audit(
                        batch.audit,
                        audit_rows,
                        written_users,
                        erased.get,
                        lambda _, row: row[7],  # fixed-width UTC text sorts as time
                    )
                old_slots = self._existing_slots(conn, [r.id for r in records])
                conn.executemany(
                    f"INSERT INTO records ({cols}) VALUES ({marks})"
                    f" ON CONFLICT(id) DO UPDATE SET {sets}",
                    rows,
                )
                conn.executemany(
                    "INSERT OR REPLACE INTO audit (id, uid, user_id, action, record_id, key, actor,"
                    " at, session_id, turn_id, detail) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    audit_rows,
                )
                conn.executemany(
                    "INSERT OR REPLACE INTO conflicts (id, uid, user_id, system_context, key,"
                    " record_ids, reason, question, detected_at, resolved_at)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?)",
                    conflict_rows,
                )
                conn.executemany(
                    "UPDATE conflicts SET resolved_at = ? WHERE id = ?",
                    [(format_time(when), cid) for cid, when in batch.resolved_conflicts],
                )
                touched_users = written_users | {row[2] for row in audit_rows}
                conn.executemany(
                    "INSERT OR IGNORE INTO users (uid, user_id) VALUES (?, ?)",
                    [(user_hash(u), u) for u in sorted(touched_users)],
                )
                if state is not None:
                    self._upsert_state(conn, state)
                if batch.touch is not None:
                    self._touch_state(conn, batch.touch)
            # after the commit, still under the lock
            self._invalidate({(r.user_id, r.system_context) for r in records} | old_slots)
            if rows:
                self.db.notify_records_written([(*row[:23], row[24]) for row in rows])

    @staticmethod
    def _existing_slots(conn: sqlite3.Connection, ids: Sequence[str]) -> set[tuple[str, str]]:
        return {(u, c) for u, c in rows_by_id(conn, "user_id, system_context", ids)}

    @staticmethod
    def _audit_row(a: AuditEntry) -> list[Any]:
        if not isinstance(a, AuditEntry) or not isinstance(a.user_id, str):
            raise InvalidInputError("audit entries must be AuditEntry with a string user_id")
        d = a.to_dict()
        d.update(at=format_time(a.at), detail=_json(d["detail"], "audit detail"))
        return [d["id"], user_hash(a.user_id), *(d[c] for c in _AUDIT_COLS[1:])]

    @staticmethod
    def _conflict_row(c: Conflict) -> list[Any]:
        if not isinstance(c, Conflict) or not isinstance(c.user_id, str):
            raise InvalidInputError("conflicts must be Conflict with a string user_id")
        d = c.to_dict()
        d.update(
            record_ids=_json(d["record_ids"], "conflict record_ids"),
            detected_at=format_time(c.detected_at),
            resolved_at=format_time(c.resolved_at) if c.resolved_at else None,
        )
        return [d["id"], user_hash(c.user_id), *(d[c] for c in _CONFLICT_COLS[1:])]

    # ------------------------------------------------------------------ reads
    def get(self, record_ids: Sequence[str]) -> list[MemoryRecord]:
        """The records with these ids (any status); unknown ids are skipped."""
        ids = list(dict.fromkeys(record_ids))
        out: list[MemoryRecord] = []
        with self.db.lock:
            self._sync()
            if self._cache.enabled:
                missing = []
                for rid in ids:
                    row = self._cache.row(rid)
                    if row is None:
                        missing.append(rid)
                    else:
                        out.append(decode_record(row))
                ids = missing
            with self.db.read() as conn:
                out.extend(decode_record(r) for r in rows_by_id(conn, _RECORD_COLS, ids))
        return out

    def find(self, flt: RecordFilter) -> list[MemoryRecord]:
        """Records of one user matching ``flt``, newest ``updated_at`` first."""
        for values in (flt.statuses, flt.kinds, flt.keys, flt.key_prefixes, flt.scope_refs):
            if values is not None and len(values) == 0 and not flt.also_ids:
                return []
        try:
            statuses = None if flt.statuses is None else [Status(x).value for x in flt.statuses]
            kinds = None if flt.kinds is None else [Kind(x).value for x in flt.kinds]
            excluded = [Kind(x).value for x in flt.exclude_kinds]
        except ValueError as exc:
            raise InvalidInputError(f"invalid record filter: {exc}") from exc
        limit = None if flt.limit is None else max(0, int(flt.limit))
        with self.db.lock:
            self._sync()
            entry = self._user_rows(flt.user_id)
            if entry is not None:
                found = self._find_cached(entry, flt, statuses, kinds, excluded, limit)
                if found is not None:
                    return found
            return self._find_sql(flt, statuses, kinds, excluded, limit)

    def _find_cached(
        self,
        entry: UserRows,
        flt: RecordFilter,
        statuses: list[str] | None,
        kinds: list[str] | None,
        excluded: list[str],
        limit: int | None,
    ) -> list[MemoryRecord] | None:
        """:meth:`find` over a cached user's rows (the same predicates as the SQL).

        ``None`` when another connection wrote the file while the matching rows' details
        were read (the caches are dropped; the caller reads SQLite).
        """
        if limit == 0:
            return []
        st = None if statuses is None else set(statuses)
        kd = None if kinds is None else set(kinds)
        ex = set(excluded)
        keys = None if flt.keys is None else set(flt.keys)
        prefixes = None if flt.key_prefixes is None else tuple(flt.key_prefixes)
        refs = None if flt.scope_refs is None else set(flt.scope_refs)
        norm = flt.value_normalized
        also = frozenset(flt.also_ids)
        listed = entry.newest_first(flt.system_context)
        rows = entry.rows
        if norm is not None and not self._read_details(entry, [r[0] for r in listed]):
            return None  # ``normalized`` is a detail: read it for every row first
        matched: list[str] = []
        for r in listed:
            if r[0] not in also and (
                (st is not None and r[10] not in st)
                or (kd is not None and r[3] not in kd)
                or (ex and r[3] in ex)
                or (keys is not None and r[4] not in keys)
                or (prefixes is not None and not r[4].startswith(prefixes))
                or (refs is not None and r[18] not in refs)
                or (norm is not None and rows[r[0]][6] != norm)
            ):
                continue
            matched.append(r[0])
            if limit is not None and len(matched) >= limit:
                break
        if not self._read_details(entry, matched):
            return None
        return [decode_record(rows[rid]) for rid in matched]

    def _read_details(self, entry: UserRows, record_ids: Sequence[str]) -> bool:
        """Read the details of those of the user's rows that lack them (call under the lock).

        Returns:
            False if another connection committed meanwhile (the caches are then dropped,
            the rows may mix two versions) or a row is gone: the caller must read SQLite.
        """
        todo = entry.unread(record_ids)
        if not todo:
            return True
        with self.db.read() as conn:
            entry.fill(rows_by_id(conn, DETAIL_COLUMNS, todo))
        return not self.db.check_external_changes() and not entry.unread(todo)

    def _find_sql(
        self,
        flt: RecordFilter,
        statuses: list[str] | None,
        kinds: list[str] | None,
        excluded: list[str],
        limit: int | None,
    ) -> list[MemoryRecord]:
        where: list[str] = []
        params: list[Any] = []

        def among(column: str, values: Sequence[str], negate: bool = False) -> None:
            where.append(f"{column} {'NOT ' if negate else ''}IN ({','.join('?' * len(values))})")
            params.extend(values)

        if statuses is not None:
            among("status", statuses)
        if kinds is not None:
            among("kind", kinds)
        if excluded:
            among("kind", excluded, negate=True)
        if flt.keys is not None:
            among("key", list(flt.keys))
        if flt.key_prefixes is not None:
            ors = []
            for p in flt.key_prefixes:
                # LIKE is ASCII-case-insensitive in SQLite; substr() makes the prefix exact.
                ors.append("(key = ? OR (key LIKE ? ESCAPE '\\' AND substr(key, 1, ?) = ?))")
                params.extend([p, _escape_like(p) + "%", len(p), p])
            where.append("(" + " OR ".join(ors) + ")")
        if flt.scope_refs is not None:
            among("scope_ref", list(flt.scope_refs))
        if flt.value_normalized is not None:
            where.append("normalized = ?")
            params.append(flt.value_normalized)
        cond = " AND ".join(where) or "1"
        if flt.also_ids:
            cond = f"({cond}) OR id IN ({','.join('?' * len(flt.also_ids))})"
            params.extend(flt.also_ids)
        head = ["uid = ?", "user_id = ?"]
        first: list[Any] = [user_hash(flt.user_id), flt.user_id]
        if flt.system_context is not None:
            head.append("system_context = ?")
            first.append(flt.system_context)
        params = [*first, *params]
        sql = (
            f"SELECT {_RECORD_COLS} FROM records WHERE {' AND '.join(head)} AND ({cond})"
            " ORDER BY updated_at DESC, version DESC, id DESC"
        )
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        with self.db.read() as conn:
            return [decode_record(r) for r in conn.execute(sql, params)]

    def _sync(self) -> None:
        """Drop the caches if another connection wrote the file (call under the lock)."""
        self.db.check_external_changes()

    def _user_rows(self, user_id: str) -> UserRows | None:
        """The user's cached rows, loaded with one indexed query on first use.

        ``None`` when the cache is off or the user has more rows than it may hold.
        Call under the database lock.
        """
        cache = self._cache
        if not cache.enabled or cache.too_big(user_id):
            return None
        entry = cache.user(user_id)
        if entry is None:
            with self.db.read() as conn:
                rows = conn.execute(
                    f"SELECT {LIST_COLUMNS} FROM records WHERE uid = ? AND user_id = ? LIMIT ?",
                    (user_hash(user_id), user_id, cache.max_rows + 1),
                )
                entry = cache.add(user_id, rows)
            if cache.too_big(user_id):
                return None
        return entry

    def records_written(self, rows: Sequence[Row]) -> None:
        """Committed rows (from any store on this connection) -> update the caches."""
        self._cache.written(rows)
        for r in rows:
            self._lex_cache.pop((r[1], r[2]), None)

    def forget_all(self) -> None:
        """Drop every cache (another connection wrote the file)."""
        with self.db.lock:
            self._cache.clear()
            self._lex_cache.clear()

    def warm(self, user_id: str) -> bool:
        """Load the user's records into the cache now (e.g. at session start).

        The first ``recall`` of a conversation then answers from memory. Optional: reads
        fill the cache anyway.

        Returns:
            Whether the user is cached (``False`` if the cache is off or the user is too big).
        """
        with self.db.lock:
            self._sync()
            return self._user_rows(user_id) is not None

    @property
    def cache_stats(self) -> dict[str, int]:
        """Record cache counters: ``users``, ``rows`` held, ``hits`` and ``loads`` so far."""
        c = self._cache
        return {"users": c.users, "rows": c.rows, "hits": c.hits, "loads": c.loads}

    def history(
        self, user_id: str, key: str, *, system_context: str | None = None
    ) -> list[MemoryRecord]:
        """Every version of ``key`` (all kinds and scopes), oldest first."""
        sql = f"SELECT {_RECORD_COLS} FROM records WHERE uid = ? AND user_id = ? AND key = ?"
        params: list[Any] = [user_hash(user_id), user_id, key]
        if system_context is not None:
            sql += " AND system_context = ?"
            params.append(system_context)
        sql += " ORDER BY created_at, version, updated_at, id"
        with self.db.read() as conn:
            return [_row_record(r) for r in conn.execute(sql, params)]

    def lexical_search(
        self,
        user_id: str,
        system_context: str,
        query: str,
        *,
        limit: int,
        statuses: tuple[Status, ...] = (Status.ACTIVE,),
    ) -> list[LexicalHit]:
        """BM25 over key/value/span of one user's records in one context (higher = better).

        The query is tokenized like the records; it is never interpreted as query syntax.
        """
        q_tokens = tokenize_query(query)
        if not q_tokens or limit <= 0:
            return []
        try:
            wanted = frozenset(Status(s).value for s in statuses)
        except ValueError as exc:
            raise InvalidInputError(f"invalid status filter: {exc}") from exc
        with self.db.lock:
            self._sync()
            entry = self._user_rows(user_id)
            if entry is None:  # cache off, or a user too big for it
                docs = self._lex_docs(user_id, system_context)
            else:
                docs = entry.lex_docs(system_context)
            ids, index = docs.index(wanted)
        scores = index.scores(q_tokens)
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], ids[kv[0]]))
        return [LexicalHit(ids[i], s) for i, s in ranked[:limit]]

    def _lex_docs(self, user_id: str, system_context: str) -> LexDocs:
        """The corpus of a user the record cache does not hold (loaded with ``lex`` only)."""
        ck = (user_id, system_context)
        with self.db.lock:
            docs = self._lex_cache.get(ck)
            if docs is not None:
                return docs
            with self.db.read() as conn:
                rows = conn.execute(
                    "SELECT id, status, lex FROM records WHERE uid = ? AND system_context = ?"
                    " AND user_id = ?",
                    (user_hash(user_id), system_context, user_id),
                ).fetchall()
            docs = LexDocs(rows)
            self._lex_cache[ck] = docs
            return docs

    def _invalidate(self, keys: set[tuple[str, str]]) -> None:
        with self.db.lock:
            for k in keys:
                self._lex_cache.pop(k, None)

    def forget_user(self, user_id: str) -> None:
        """Drop the user's cached rows and corpora (the user was erased)."""
        with self.db.lock:
            self._cache.drop_user(user_id)
            for k in [k for k in self._lex_cache if k[0] == user_id]:
                del self._lex_cache[k]

    def conflicts(
        self, user_id: str, system_context: str | None = "default", *, open_only: bool = True
    ) -> list[Conflict]:
        """The user's conflicts (open ones only by default), oldest first."""
        sql = f"SELECT {', '.join(_CONFLICT_COLS)} FROM conflicts WHERE uid = ? AND user_id = ?"
        params: list[Any] = [user_hash(user_id), user_id]
        if system_context is not None:
            sql += " AND system_context = ?"
            params.append(system_context)
        if open_only:
            sql += " AND resolved_at IS NULL"
        with self.db.read() as conn:
            rows = conn.execute(sql + " ORDER BY detected_at, id", params).fetchall()
        out = []
        for r in rows:
            d = dict(zip(_CONFLICT_COLS, r, strict=True))
            d.update(
                record_ids=tuple(json.loads(d["record_ids"])),
                detected_at=must_time(d["detected_at"]),
                resolved_at=parse_time(d["resolved_at"]),
            )
            out.append(Conflict(**d))
        return out

    def audit_log(self, user_id: str, *, limit: int | None = None) -> list[AuditEntry]:
        """The user's audit entries, oldest first (the last ``limit`` if given)."""
        sql = (
            f"SELECT {', '.join(_AUDIT_COLS)} FROM audit WHERE uid = ? AND user_id = ?"
            " ORDER BY at DESC, rowid DESC"
        )
        params: list[Any] = [user_hash(user_id), user_id]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, int(limit)))
        with self.db.read() as conn:
            rows = conn.execute(sql, params).fetchall()
        out = []
        for r in reversed(rows):
            d = dict(zip(_AUDIT_COLS, r, strict=True))
            d.update(at=must_time(d["at"]), detail=json.loads(d["detail"]))
            out.append(AuditEntry(**d))
        return out

    # ------------------------------------------------------------------ housekeeping
    def _retokenize_if_stale(self) -> None:
        """Re-tokenize stored rows if they were written by another tokenizer version."""
        with self.db.read() as conn:
            row = conn.execute(
                "SELECT value FROM _usermemory_meta WHERE name = 'lexical_version'"
            ).fetchone()
        if row is not None and int(row[0]) == LEXICAL_VERSION:
            return
        with self.db.transaction() as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM records")]
            for start in range(0, len(ids), 1000):
                for rec in self._get_in(conn, ids[start : start + 1000]):
                    conn.execute(
                        "UPDATE records SET lex = ? WHERE id = ?", (_lex_text(rec), rec.id)
                    )
            conn.execute(
                "INSERT OR REPLACE INTO _usermemory_meta (name, value)"
                " VALUES ('lexical_version', ?)",
                (str(LEXICAL_VERSION),),
            )
        self.db.notify_external_change()  # drop every cached corpus of this file
        if ids:
            logger.info("re-tokenized %d records for lexical version %d", len(ids), LEXICAL_VERSION)

    @staticmethod
    def _get_in(conn: sqlite3.Connection, ids: Sequence[str]) -> list[MemoryRecord]:
        q = f"SELECT {_RECORD_COLS} FROM records WHERE id IN ({','.join('?' * len(ids))})"
        return [_row_record(r) for r in conn.execute(q, list(ids))]

    def after_fork(self) -> None:
        """In a forked child: see :meth:`SqliteDatabase.after_fork`."""
        self.db.after_fork()

    def close(self) -> None:
        """Release the shared database (closed when its last user releases it)."""
        if self._closed:
            return
        self._closed = True
        with self.db.lock:
            self._lex_cache.clear()
            self._cache.clear()
        self.db.detach(self)
        self.db.release()

    def __enter__(self) -> SqliteRecordStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
