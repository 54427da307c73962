"""PostgreSQL backend latency: lexical (tsvector) and pgvector search at 100k records.

Bulk-loads ``--records`` synthetic memories over ``--users`` users with COPY into a
throwaway schema, then times per-user searches through the real store classes:

- ``PostgresRecordStore.lexical_search`` (GIN tsvector, ts_rank_cd) on the PostgreSQL at
  ``--pg-url`` (default: the local PostgreSQL 15);
- ``PgVectorIndex.search`` (exact per-user cosine via the btree) on PostgreSQL 16 +
  pgvector started from ``pgserver``;
- ``PostgresRecordStore.find`` (one user's active records, the profile read path).

Usage::

    .venv/bin/python benchmarks/backend_postgres.py            # 100k records / 1k users
    .venv/bin/python benchmarks/backend_postgres.py --records 20000 --users 200
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import psycopg
from psycopg import sql

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared_core.clock import FakeClock
from shared_core.entities import Kind, MemoryRecord, Provenance, Status
from shared_core.storage.pgvector import PgVectorIndex
from shared_core.storage.postgres import PostgresRecordStore
from shared_core.storage.postgres_sql import COLUMNS, record_params
from shared_core.storage.protocols import RecordFilter

_VOCAB = (
    "coffee tea morning evening call text email meeting doctor allergy penicillin peanut "
    "vegan vegetarian gym running yoga swimming hiking mountain beach city apartment office "
    "project deadline manager sister brother mother father daughter son birthday anniversary "
    "music jazz rock piano guitar movie novel podcast travel flight hotel train bus car bike "
    "budget salary invoice tax bank card password phone laptop tablet window garden cat dog "
    "spicy sweet sour noodles rice bread cheese wine beer water juice medicine headache sleep"
)
WORDS = _VOCAB.split()
ZH = ["青霉素过敏", "喜欢喝咖啡", "周末去爬山", "不要打电话", "住在北京", "每天跑步", "素食主义者"]
KINDS = [Kind.PREFERENCE, Kind.FACT, Kind.CONSTRAINT, Kind.EVENT, Kind.EPISODE]
DIM = 384


def synth_records(n: int, users: int, seed: int = 0) -> Iterator[MemoryRecord]:
    rng = random.Random(seed)
    t0 = datetime(2025, 6, 1, tzinfo=UTC)
    for i in range(n):
        words = rng.sample(WORDS, rng.randint(4, 10))
        if rng.random() < 0.2:
            words.append(rng.choice(ZH))
        at = t0 + timedelta(minutes=i)
        yield MemoryRecord(
            user_id=f"user-{i % users:05d}",
            kind=KINDS[i % len(KINDS)],
            key=f"{words[0]}.{words[1]}.{i}",
            value=" ".join(words),
            created_at=at,
            updated_at=at,
            provenance=Provenance(span=" ".join(words[:3]), at=at),
            status=Status.ACTIVE if rng.random() < 0.8 else Status.SUPERSEDED,
        )


def copy_records(store: PostgresRecordStore, records: Iterator[MemoryRecord]) -> int:
    cols = sql.SQL(", ").join(sql.Identifier(c) for c in (*COLUMNS, "search"))
    n = 0
    with (
        store.transaction() as conn,
        conn.cursor() as cur,
        cur.copy(sql.SQL("COPY records ({}) FROM STDIN").format(cols)) as copy,
    ):
        for r in records:
            p = record_params(r)
            copy.write_row([p[c] for c in (*COLUMNS, "search")])
            n += 1
    with store.transaction() as conn:
        conn.execute("ANALYZE records")
    return n


def copy_vectors(url: str, schema: str, n: int, users: int, seed: int = 0) -> None:
    from pgvector.psycopg import register_vector

    rng = np.random.default_rng(seed)
    with psycopg.connect(url) as conn:
        conn.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(schema)))
        register_vector(conn)
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY embeddings (record_id, user_id, system_context, kind, key, embedding)"
                " FROM STDIN WITH (FORMAT BINARY)"
            ) as copy,
        ):
            copy.set_types(["text", "text", "text", "text", "text", "vector"])
            for start in range(0, n, 10_000):
                block = rng.standard_normal((min(10_000, n - start), DIM)).astype(np.float32)
                for j, v in enumerate(block):
                    i = start + j
                    copy.write_row(
                        [f"r{i}", f"user-{i % users:05d}", "default", "fact", f"k{i}", v]
                    )
        conn.execute("ANALYZE embeddings")


def timed(fn: Callable[[], object], n: int) -> tuple[float, float]:
    for _ in range(min(20, n)):  # warm up
        fn()
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


@contextmanager
def pgserver_url() -> Iterator[str]:
    root = tempfile.mkdtemp(prefix="um_bench_pg_", dir="/tmp")
    os.chmod(root, 0o777)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver

        server = pgserver.get_server(os.path.join(root, "data"), cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(root, ignore_errors=True)


def drop_schema(url: str, schema: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--users", type=int, default=1_000)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument(
        "--pg-url",
        default=os.environ.get(
            "USERMEMORY_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test"
        ),
    )
    ap.add_argument("--skip-vectors", action="store_true")
    args = ap.parse_args()
    rng = random.Random(1)
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    print(f"records={args.records} users={args.users} queries={args.queries}")

    store = PostgresRecordStore(args.pg_url, schema=schema, clock=FakeClock(), max_size=2)
    try:
        t = time.perf_counter()
        n = copy_records(store, synth_records(args.records, args.users))
        print(f"COPY {n} records (tokenize + tsvector): {time.perf_counter() - t:.1f} s")

        def lexical() -> object:
            u = f"user-{rng.randrange(args.users):05d}"
            q = " ".join(rng.sample(WORDS, 3)) + (" 青霉素" if rng.random() < 0.2 else "")
            return store.lexical_search(u, "default", q, limit=30)

        def find() -> object:
            u = f"user-{rng.randrange(args.users):05d}"
            return store.find(RecordFilter(user_id=u, exclude_kinds=(Kind.EPISODE,)))

        p50, p95 = timed(lexical, args.queries)
        print(
            f"lexical_search (tsvector/GIN, ts_rank_cd, k=30): p50 {p50:.2f} ms  p95 {p95:.2f} ms"
        )
        p50, p95 = timed(find, args.queries)
        print(f"find (one user's active records):              p50 {p50:.2f} ms  p95 {p95:.2f} ms")
    finally:
        store.close()
        drop_schema(args.pg_url, schema)

    if args.skip_vectors:
        return
    with pgserver_url() as vurl:
        index = PgVectorIndex(vurl, schema=schema, dimension=DIM, max_size=2)
        try:
            t = time.perf_counter()
            copy_vectors(vurl, schema, args.records, args.users)
            print(f"COPY {args.records} x {DIM}-d vectors: {time.perf_counter() - t:.1f} s")
            qrng = np.random.default_rng(2)

            def vector() -> object:
                u = f"user-{rng.randrange(args.users):05d}"
                v = qrng.standard_normal(DIM).astype(np.float32)
                return index.search(u, "default", v, k=30)

            p50, p95 = timed(vector, args.queries)
            print(
                f"pgvector exact per-user search (k=30):         p50 {p50:.2f} ms  p95 {p95:.2f} ms"
            )
        finally:
            index.close()


if __name__ == "__main__":
    main()
