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

import hashlib
import json
import logging
import os
import sqlite3
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..clock import Clock
from ..entities import (
    AuditEntry,
    Conflict,
    Kind,
    MemoryRecord,
    Scope,
    Source,
    Status,
    UserState,
)
from ..errors import InvalidInputError
from .lexical import LEXICAL_VERSION, BM25Index, tokenize
from .protocols import LexicalHit, RecordFilter, WriteBatch
from .sqlite_base import SqliteDatabase, format_time, must_time, parse_time, user_hash

__all__ = ["SqliteDatabase", "SqliteRecordStore", "format_time", "parse_time", "user_hash"]

logger = logging.getLogger(__name__)

_RECORD_COLS = (
    "id, user_id, system_context, kind, key, value, normalized, source, confidence, version, "
    "status, created_at, updated_at, valid_until, permanent, hard, explicit, scope, scope_ref, "
    "provenance, evidence, supersedes, metadata"
)
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


_REC_NAMES = tuple(c.strip() for c in _RECORD_COLS.split(","))
_TEXT_FIELDS = ("id", "user_id", "key", "value", "normalized", "scope_ref", "system_context")


def _record_row(rec: MemoryRecord) -> list[Any]:
    """Convert (and validate) a record into a row, before any transaction starts."""
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


def _row_record(r: Sequence[Any]) -> MemoryRecord:
    d = dict(zip(_REC_NAMES, r, strict=True))
    d["provenance"] = json.loads(d["provenance"])
    d["metadata"] = json.loads(d["metadata"])
    return MemoryRecord.from_dict(d)


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class _LexDocs:
    """One user's records in one context, tokenized, with a BM25 index per status set."""

    __slots__ = ("_indexes", "ids", "statuses", "tokens")

    def __init__(self, rows: Sequence[tuple[str, str, str]]) -> None:
        self.ids = [r[0] for r in rows]
        self.statuses = [r[1] for r in rows]
        self.tokens = [r[2].split() for r in rows]
        self._indexes: dict[frozenset[str], tuple[list[str], BM25Index]] = {}

    def index(self, statuses: frozenset[str]) -> tuple[list[str], BM25Index]:
        """Record ids and the BM25 index over the records whose status is in ``statuses``."""
        got = self._indexes.get(statuses)
        if got is None:
            keep = [i for i, st in enumerate(self.statuses) if st in statuses]
            got = ([self.ids[i] for i in keep], BM25Index([self.tokens[i] for i in keep]))
            self._indexes[statuses] = got
        return got


class SqliteRecordStore:
    """:class:`~shared_core.storage.protocols.RecordStore` on SQLite.

    Args:
        path: database file or ``":memory:"`` (ignored when ``database`` is given).
        database: share an open :class:`SqliteDatabase` (e.g. with the vector index).
        clock: time source (migrations bookkeeping) when opening ``path``.
        lexical_cache_size: (user, context) corpora kept tokenized in memory.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = ":memory:",
        *,
        database: SqliteDatabase | None = None,
        clock: Clock | None = None,
        lexical_cache_size: int = 1024,
    ) -> None:
        self.db = (database or SqliteDatabase(path, clock=clock)).acquire()
        self._lex_cache: OrderedDict[tuple[str, str], _LexDocs] = OrderedDict()
        self._lex_cache_size = max(1, lexical_cache_size)
        self._closed = False
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
        touched_users = {r.user_id for r in records} | {a.user_id for a in batch.audit}
        touched_users |= {c.user_id for c in batch.conflicts}
        state = batch.user_state
        if state is not None:
            touched_users.add(state.user_id)
        cols = _RECORD_COLS + ", uid, lex"
        marks = ", ".join("?" * (len(_UPDATABLE) + 1))
        sets = ", ".join(f"{c} = excluded.{c}" for c in _UPDATABLE)
        with self.db.transaction() as conn:
            old_slots = self._existing_slots(conn, [r.id for r in records])
            conn.executemany(
                f"INSERT INTO records ({cols}) VALUES ({marks})"
                f" ON CONFLICT(id) DO UPDATE SET {sets}",
                rows,
            )
            conn.executemany(
                "INSERT OR REPLACE INTO audit (id, uid, user_id, action, record_id, key, actor, at,"
                " session_id, turn_id, detail) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
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
            conn.executemany(
                "INSERT OR IGNORE INTO users (uid, user_id) VALUES (?, ?)",
                [(user_hash(u), u) for u in touched_users],
            )
            if state is not None:
                self._upsert_state(conn, state)
        self._invalidate({(r.user_id, r.system_context) for r in records} | old_slots)

    @staticmethod
    def _existing_slots(conn: sqlite3.Connection, ids: Sequence[str]) -> set[tuple[str, str]]:
        out: set[tuple[str, str]] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            q = f"SELECT user_id, system_context FROM records WHERE id IN ({marks})"
            out.update((u, c) for u, c in conn.execute(q, chunk))
        return out

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

    @staticmethod
    def _upsert_state(conn: sqlite3.Connection, s: UserState) -> None:
        conn.execute(
            "INSERT INTO users (uid, user_id, has_state, memory_enabled, sessions, turns,"
            " first_seen, last_seen, last_session_id) VALUES (?,?,1,?,?,?,?,?,?)"
            " ON CONFLICT(uid) DO UPDATE SET has_state = 1,"
            " memory_enabled = excluded.memory_enabled, sessions = excluded.sessions,"
            " turns = excluded.turns, first_seen = excluded.first_seen,"
            " last_seen = excluded.last_seen, last_session_id = excluded.last_session_id",
            (
                user_hash(s.user_id),
                s.user_id,
                int(bool(s.memory_enabled)),
                int(s.sessions),
                int(s.turns),
                format_time(s.first_seen) if s.first_seen else None,
                format_time(s.last_seen) if s.last_seen else None,
                s.last_session_id,
            ),
        )

    # ------------------------------------------------------------------ reads
    def get(self, record_ids: Sequence[str]) -> list[MemoryRecord]:
        """The records with these ids (any status); unknown ids are skipped."""
        ids = list(dict.fromkeys(record_ids))
        out: list[MemoryRecord] = []
        with self.db.read() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                q = f"SELECT {_RECORD_COLS} FROM records WHERE id IN ({','.join('?' * len(chunk))})"
                out.extend(_row_record(r) for r in conn.execute(q, chunk))
        return out

    def find(self, flt: RecordFilter) -> list[MemoryRecord]:
        """Records of one user matching ``flt``, newest ``updated_at`` first."""
        where = ["uid = ?", "user_id = ?"]
        params: list[Any] = [user_hash(flt.user_id), flt.user_id]

        def among(column: str, values: Sequence[str], negate: bool = False) -> None:
            where.append(f"{column} {'NOT ' if negate else ''}IN ({','.join('?' * len(values))})")
            params.extend(values)

        for values in (flt.statuses, flt.kinds, flt.keys, flt.key_prefixes, flt.scope_refs):
            if values is not None and len(values) == 0:
                return []
        if flt.system_context is not None:
            where.append("system_context = ?")
            params.append(flt.system_context)
        try:
            if flt.statuses is not None:
                among("status", [Status(s).value for s in flt.statuses])
            if flt.kinds is not None:
                among("kind", [Kind(k).value for k in flt.kinds])
            if flt.exclude_kinds:
                among("kind", [Kind(k).value for k in flt.exclude_kinds], negate=True)
        except ValueError as exc:
            raise InvalidInputError(f"invalid record filter: {exc}") from exc
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
        sql = (
            f"SELECT {_RECORD_COLS} FROM records WHERE {' AND '.join(where)}"
            " ORDER BY updated_at DESC, version DESC, id DESC"
        )
        if flt.limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, int(flt.limit)))
        with self.db.read() as conn:
            return [_row_record(r) for r in conn.execute(sql, params)]

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
        q_tokens = tokenize(query)
        if not q_tokens or limit <= 0:
            return []
        try:
            wanted = frozenset(Status(s).value for s in statuses)
        except ValueError as exc:
            raise InvalidInputError(f"invalid status filter: {exc}") from exc
        with self.db.lock:
            ids, index = self._lex_docs(user_id, system_context).index(wanted)
        scores = index.scores(q_tokens)
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], ids[kv[0]]))
        return [LexicalHit(ids[i], s) for i, s in ranked[:limit]]

    def _lex_docs(self, user_id: str, system_context: str) -> _LexDocs:
        ck = (user_id, system_context)
        with self.db.lock:
            docs = self._lex_cache.get(ck)
            if docs is not None:
                self._lex_cache.move_to_end(ck)
                return docs
            with self.db.read() as conn:
                rows = conn.execute(
                    "SELECT id, status, lex FROM records WHERE uid = ? AND system_context = ?"
                    " AND user_id = ?",
                    (user_hash(user_id), system_context, user_id),
                ).fetchall()
            docs = _LexDocs(rows)
            self._lex_cache[ck] = docs
            while len(self._lex_cache) > self._lex_cache_size:
                self._lex_cache.popitem(last=False)
            return docs

    def _invalidate(self, keys: set[tuple[str, str]]) -> None:
        with self.db.lock:
            for k in keys:
                self._lex_cache.pop(k, None)

    def _invalidate_user(self, user_id: str) -> None:
        with self.db.lock:
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

    def user_state(self, user_id: str) -> UserState | None:
        """The stored :class:`UserState`, or ``None`` if never set."""
        with self.db.read() as conn:
            r = conn.execute(
                "SELECT user_id, memory_enabled, sessions, turns, first_seen, last_seen,"
                " last_session_id FROM users WHERE uid = ? AND user_id = ? AND has_state = 1",
                (user_hash(user_id), user_id),
            ).fetchone()
        if r is None:
            return None
        return UserState(
            user_id=r[0],
            memory_enabled=bool(r[1]),
            sessions=int(r[2]),
            turns=int(r[3]),
            first_seen=parse_time(r[4]),
            last_seen=parse_time(r[5]),
            last_session_id=r[6],
        )

    def users(self) -> list[str]:
        """Every user id with anything stored, sorted."""
        with self.db.read() as conn:
            return sorted(r[0] for r in conn.execute("SELECT user_id FROM users"))

    def erased_at(self, user_id: str) -> list[datetime]:
        """When this user id was erased (from the tombstones; empty if never)."""
        subject = hashlib.sha256(user_id.encode("utf-8")).hexdigest()
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT erased_at FROM tombstones WHERE subject = ? ORDER BY erased_at", (subject,)
            ).fetchall()
        return [must_time(r[0]) for r in rows]

    # ------------------------------------------------------------------ erase
    def erase_user(self, user_id: str, *, at: datetime) -> dict[str, int]:
        """Delete every row of the user (records, audit, conflicts, state, vectors).

        Writes a tombstone (sha256 of the id and the time, never the raw id), then
        checkpoints and truncates the WAL; with ``secure_delete`` on, the deleted cells are
        zeroed, so neither the id nor any value stays readable in the ``.db``/``-wal`` files.

        Returns:
            Rows deleted per table.
        """
        uid = user_hash(user_id)
        counts: dict[str, int] = {}
        with self.db.transaction() as conn:
            for table in ("records", "audit", "conflicts", "vectors", "users"):
                cur = conn.execute(
                    f"DELETE FROM {table} WHERE uid = ? AND user_id = ?", (uid, user_id)
                )
                counts[table] = cur.rowcount
            conn.execute(
                "INSERT INTO tombstones (subject, erased_at) VALUES (?, ?)",
                (hashlib.sha256(user_id.encode("utf-8")).hexdigest(), format_time(at)),
            )
        self._invalidate_user(user_id)
        self.db.notify_erase(user_id)
        self.db.scrub_files()
        return counts

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
        if ids:
            logger.info("re-tokenized %d records for lexical version %d", len(ids), LEXICAL_VERSION)

    @staticmethod
    def _get_in(conn: sqlite3.Connection, ids: Sequence[str]) -> list[MemoryRecord]:
        q = f"SELECT {_RECORD_COLS} FROM records WHERE id IN ({','.join('?' * len(ids))})"
        return [_row_record(r) for r in conn.execute(q, list(ids))]

    def close(self) -> None:
        """Release the shared database (closed when its last user releases it)."""
        if self._closed:
            return
        self._closed = True
        self._lex_cache.clear()
        self.db.release()

    def __enter__(self) -> SqliteRecordStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
