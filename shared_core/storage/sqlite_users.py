"""The SQLite record store's per-user tables: user state, the write fence, the durable
erase queue and the erase itself (:class:`SqliteUserTables`, mixed into
:class:`~shared_core.storage.sqlite.SqliteRecordStore`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime

from ..entities import UserState
from ..ids import user_digest
from .protocols import Fence, UserTouch, check_fence
from .sqlite_base import SqliteDatabase, format_time, must_time, parse_time, user_hash

__all__ = ["SqliteUserTables"]


class SqliteUserTables:
    """State, fence, erase queue and erase of one user, on ``self.db``."""

    db: SqliteDatabase

    @staticmethod
    def _move_fences(
        conn: sqlite3.Connection, users: set[str], expected: Mapping[str, Fence]
    ) -> None:
        """Bump the write generation of every written user; check the expected fences first.

        Runs inside the write transaction (``BEGIN IMMEDIATE`` holds the file's write
        lock), so the check and the bump are atomic with the batch.
        """
        for user in sorted(users):
            row = conn.execute(
                "INSERT INTO user_fence (uid, gen) VALUES (?, 1) ON CONFLICT(uid) DO UPDATE"
                " SET gen = gen + 1 RETURNING epoch, gen",
                (user_hash(user),),
            ).fetchone()
            check_fence(expected, user, row)

    @staticmethod
    def _erasures(conn: sqlite3.Connection, user_ids: set[str]) -> dict[str, str]:
        """When each of ``user_ids`` was last erased (the stored text), in one query per 500
        users (a read-audit flush holds entries of up to ``audit_read_batch`` users);
        users never erased are left out."""
        by_uid = {user_hash(u): u for u in user_ids}
        uids = list(by_uid)
        out: dict[str, str] = {}
        for start in range(0, len(uids), 500):
            chunk = uids[start : start + 500]
            q = (
                "SELECT uid, erased_at FROM user_fence WHERE erased_at IS NOT NULL"
                f" AND uid IN ({','.join('?' * len(chunk))})"
            )
            out.update((by_uid[uid], at) for uid, at in conn.execute(q, chunk))
        return out

    @staticmethod
    def _touch_state(conn: sqlite3.Connection, t: UserTouch) -> None:
        at = format_time(t.at)
        conn.execute(
            "INSERT INTO users (uid, user_id, has_state, memory_enabled, sessions, turns,"
            " first_seen, last_seen, last_session_id) VALUES (?,?,1,1,?,?,?,?,?)"
            " ON CONFLICT(uid) DO UPDATE SET has_state = 1,"
            " sessions = users.sessions + excluded.sessions,"
            " turns = users.turns + excluded.turns,"
            " first_seen = COALESCE(users.first_seen, excluded.first_seen),"
            " last_seen = excluded.last_seen,"
            " last_session_id = COALESCE(excluded.last_session_id, users.last_session_id)",
            (user_hash(t.user_id), t.user_id, int(t.sessions), int(t.turns), at, at, t.session_id),
        )

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
        subject = user_digest(user_id).hex()
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT erased_at FROM tombstones WHERE subject = ? ORDER BY erased_at", (subject,)
            ).fetchall()
        return [must_time(r[0]) for r in rows]

    # ------------------------------------------------------------------ fence
    def fence(self, user_id: str) -> Fence:
        """The user's write fence (erasure epoch, write generation)."""
        with self.db.read() as conn:
            row = conn.execute(
                "SELECT epoch, gen FROM user_fence WHERE uid = ?", (user_hash(user_id),)
            ).fetchone()
        return Fence(user_id) if row is None else Fence(user_id, int(row[0]), int(row[1]))

    def queue_erasure(self, user_id: str, stores: Sequence[str], *, at: datetime) -> None:
        """Durably note that ``stores`` still owe the erasure of ``user_id``.

        The raw id is kept (other stores need it to find the user's data) only until
        :meth:`confirm_erasure`; ``secure_delete`` then zeroes it.
        """
        with self.db.transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO erase_queue (uid, store, subject, queued_at)"
                " VALUES (?,?,?,?)",
                [(user_hash(user_id), st, user_id, format_time(at)) for st in stores],
            )

    def pending_erasures(self, *, limit: int = 100) -> list[tuple[str, str]]:
        """Queued ``(user_id, store)`` erasures, oldest first."""
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT subject, store FROM erase_queue ORDER BY queued_at, store LIMIT ?",
                (max(0, int(limit)),),
            ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def confirm_erasure(self, user_id: str, store: str) -> None:
        """Drop one queued erasure."""
        with self.db.transaction() as conn:
            conn.execute(
                "DELETE FROM erase_queue WHERE uid = ? AND store = ? AND subject = ?",
                (user_hash(user_id), store, user_id),
            )

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
        with self.db.lock:  # commit and cache drop together
            with self.db.transaction() as conn:
                for table in ("records", "audit", "conflicts", "vectors", "users"):
                    cur = conn.execute(
                        f"DELETE FROM {table} WHERE uid = ? AND user_id = ?", (uid, user_id)
                    )
                    counts[table] = cur.rowcount
                conn.execute(
                    "INSERT INTO tombstones (subject, erased_at) VALUES (?, ?)",
                    (user_digest(user_id).hex(), format_time(at)),
                )
                # the fence: a write that read the user before this erase cannot commit
                conn.execute(
                    "INSERT INTO user_fence (uid, epoch, gen, erased_at) VALUES (?, 1, 1, ?)"
                    " ON CONFLICT(uid) DO UPDATE SET epoch = epoch + 1, gen = gen + 1,"
                    " erased_at = MAX(COALESCE(erased_at, ''), excluded.erased_at)",
                    (uid, format_time(at)),
                )
            self.db.notify_erase(user_id)
        self.db.scrub_files()
        return counts
