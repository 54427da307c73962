"""PostgreSQL: does the JSONB profile document pay for itself?

``PostgresRecordStore`` can keep a per-user JSONB document ``{context: {scope: {key:
value}}}`` up to date inside every write transaction. This command measures, on one
throwaway schema:

- **read**: ``UserMemory.profile(user)`` computed from the records (one indexed ``find``
  plus the expiry/decay/recallability filters, no profile cache) versus reading the
  user's JSONB document (``SELECT profile FROM profiles``), per call;
- **write**: a one-record write batch (a new version of a key: supersede + insert) with
  the document maintained versus without it (``_refresh_profile`` skipped), per batch.

Usage::

    python benchmarks/pg_profile.py                 # 100 users x 60 keys
    python benchmarks/pg_profile.py --users 20 --keys 300
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared_core import UserMemory
from shared_core.entities import Kind, MemoryRecord, Status
from shared_core.storage import StorageSpec
from shared_core.storage.postgres import PostgresRecordStore
from shared_core.storage.protocols import WriteBatch


def _timed(fn: Callable[[], Any], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _row(name: str, ms: list[float]) -> dict[str, Any]:
    ordered = sorted(ms)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    row = {"name": name, "calls": len(ms), "mean_ms": statistics.fmean(ms), "p50_ms":
           statistics.median(ms), "p95_ms": p95}  # fmt: skip
    print(
        f"{name:<34} {row['calls']:>6} {row['mean_ms']:>8.3f} {row['p50_ms']:>8.3f}"
        f" {row['p95_ms']:>8.3f}"
    )
    return row


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--users", type=int, default=100)
    ap.add_argument("--keys", type=int, default=60, help="active keys per user")
    ap.add_argument("--reads", type=int, default=400)
    ap.add_argument("--writes", type=int, default=300)
    args = ap.parse_args(argv)
    schema = f"bench_profile_{uuid.uuid4().hex[:10]}"
    store = PostgresRecordStore(args.pg_url, schema=schema, max_size=4)
    mem = UserMemory(StorageSpec(records=store, vectors="sqlite:///:memory:"))
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python"
        f" {platform.python_version()}; {args.users} users x {args.keys} keys"
    )
    rows: list[dict[str, Any]] = []
    try:
        now = store.clock.now()
        users = [f"user-{i}" for i in range(args.users)]
        latest: dict[tuple[str, int], MemoryRecord] = {}
        for u in users:
            recs = [
                MemoryRecord(user_id=u, kind=Kind.PREFERENCE, key=f"topic{k}.pref",
                             value=f"value {k} of {u}", created_at=now, updated_at=now)
                for k in range(args.keys)
            ]  # fmt: skip
            store.apply(WriteBatch(records=recs))
            latest.update({(u, k): r for k, r in enumerate(recs)})
        # both paths agree before anything is timed
        assert mem.profile(users[0]) == store.profile(users[0])
        print(f"{'':<34} {'calls':>6} {'mean ms':>8} {'p50 ms':>8} {'p95 ms':>8}")
        it = iter(range(10**9))
        rows.append(_row("read: from records", _timed(
            lambda: mem.profile(users[next(it) % len(users)]), args.reads)))  # fmt: skip
        rows.append(_row("read: JSONB document", _timed(
            lambda: store.profile(users[next(it) % len(users)]), args.reads)))  # fmt: skip

        def new_version() -> None:
            i = next(it)
            slot = (users[i % len(users)], (i // len(users)) % args.keys)
            old = latest[slot]
            new = old.replace(id=uuid.uuid4().hex, value=f"{old.value}+", version=old.version + 1,
                              supersedes=old.id)  # fmt: skip
            store.apply(WriteBatch(records=[old.replace(status=Status.SUPERSEDED), new]))
            latest[slot] = new

        rows.append(_row("write: with JSONB maintained", _timed(new_version, args.writes)))
        maintain = store._refresh_profile
        store._refresh_profile = lambda conn, slots: None  # type: ignore[method-assign]
        try:
            rows.append(_row("write: without JSONB", _timed(new_version, args.writes)))
        finally:
            store._refresh_profile = maintain  # type: ignore[method-assign]
    finally:
        mem.close()
        import psycopg
        from psycopg import sql

        with psycopg.connect(args.pg_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    return {"users": args.users, "keys": args.keys, "rows": rows}


if __name__ == "__main__":
    main()
    sys.exit(0)
