"""Backend benchmark: recall p50/p95 and observe throughput per backend combination.

Combinations (all through ``UserMemory``, the public API):

- ``embedded``          SQLite file (records + vectors), sessions in process
- ``redis_pg``          PostgreSQL 15 records + Redis sessions/cache/stream; vectors in the
                        in-process index ``postgresql://`` falls back to (no pgvector on 15)
- ``redis_pg_pgvector`` PostgreSQL 16 + pgvector (pgserver) records and vectors + Redis

Each is bulk-loaded with ``--records`` synthetic memories over ``--users`` users through
the stores' own ``apply()`` (records, in batches) and ``upsert()`` (vectors; 384-d
vectors from ``HashingEmbedder(384)``, so no model is loaded and the embedder costs
microseconds), then times ``recall(k=3)`` for random users and sustained ``observe``.

Usage::

    .venv/bin/python benchmarks/backend_bench.py                 # 100k / 1k users
    .venv/bin/python benchmarks/backend_bench.py --records 10000 --users 100 --only embedded
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from backend_postgres import WORDS, drop_schema, pgserver_url, synth_records, timed

from shared_core import FakeClock, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.recall.retrieve import record_text
from shared_core.storage import StorageSpec, open_backend
from shared_core.storage.protocols import VectorItem, WriteBatch

DIM = 384
BATCH = 1000
OBSERVE_TEXTS = [
    "I live in Berlin.",
    "My budget is 5000.",
    "I only accept SMS notifications, never call me.",
    "I love jazz.",
    "I'm allergic to penicillin.",
    "Can you text me the code this time?",
]


def bulk_load(mem: UserMemory, records: int, users: int) -> float:
    """Load through ``records.apply`` and ``vectors.upsert``; return seconds."""
    emb = HashingEmbedder(DIM)
    started = time.perf_counter()
    batch = []
    for rec in synth_records(records, users):
        batch.append(rec)
        if len(batch) == BATCH:
            _flush(mem, emb, batch)
            batch = []
    if batch:
        _flush(mem, emb, batch)
    return time.perf_counter() - started


def _flush(mem: UserMemory, emb: HashingEmbedder, batch: list[Any]) -> None:
    mem.records.apply(WriteBatch(records=batch))
    active = [r for r in batch if r.status.value == "active"]
    vecs = emb.embed([record_text(r) for r in active])
    mem.vectors.upsert(
        [
            VectorItem(
                record_id=r.id,
                user_id=r.user_id,
                system_context=r.system_context,
                kind=r.kind,
                key=r.key,
                vector=np.asarray(v, dtype=np.float32),
            )
            for r, v in zip(active, vecs, strict=True)
        ]
    )


def measure(mem: UserMemory, users: int, queries: int, observes: int) -> dict[str, float]:
    rng = random.Random(1)

    def recall() -> object:
        user = f"user-{rng.randrange(users):05d}"
        return mem.recall(user, " ".join(rng.sample(WORDS, 3)), k=3)

    p50, p95 = timed(recall, queries)
    started = time.perf_counter()
    for i in range(observes):
        user = f"user-{rng.randrange(users):05d}"
        mem.observe(user, OBSERVE_TEXTS[i % len(OBSERVE_TEXTS)], session_id=f"bench-{i % 50}")
    throughput = observes / (time.perf_counter() - started)

    def profile() -> object:
        return mem.profile(f"user-{rng.randrange(50):05d}")

    prof50, prof95 = timed(profile, queries)
    return {
        "recall_p50_ms": p50,
        "recall_p95_ms": p95,
        "observe_per_s": throughput,
        "profile_p50_ms": prof50,
        "profile_p95_ms": prof95,
    }


def run(name: str, opener: Callable[[], UserMemory], args: argparse.Namespace) -> dict[str, float]:
    mem = opener()
    try:
        load = bulk_load(mem, args.records, args.users)
        out = measure(mem, args.users, args.queries, args.observes)
        out["load_s"] = load
    finally:
        mem.close()
    print(
        f"{name:<18} load {out['load_s']:6.1f}s  recall p50 {out['recall_p50_ms']:6.2f} ms"
        f"  p95 {out['recall_p95_ms']:6.2f} ms  observe {out['observe_per_s']:6.1f}/s"
        f"  profile p50 {out['profile_p50_ms']:5.2f} ms p95 {out['profile_p95_ms']:5.2f} ms",
        flush=True,
    )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--users", type=int, default=1_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--observes", type=int, default=300)
    ap.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--only", choices=["embedded", "redis_pg", "redis_pg_pgvector"])
    args = ap.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}; {args.records} memories over {args.users} "
        f"users; {args.queries} recalls, {args.observes} observes; single process, "
        "client and servers on the same host",
        flush=True,
    )
    clock = FakeClock()
    emb = HashingEmbedder(DIM)
    tmp = tempfile.mkdtemp(prefix="um_backend_bench_")
    prefix = f"bench:{uuid.uuid4().hex[:8]}:"
    redis_url = f"{args.redis_url}?prefix={prefix}"

    def embedded() -> UserMemory:
        return UserMemory.from_url(f"sqlite:///{tmp}/bench.db", clock=clock, embedder=emb)

    def production(pg: str) -> Callable[[], UserMemory]:
        def open_() -> UserMemory:
            spec = StorageSpec(
                records=pg, sessions=redis_url, cache=redis_url, events=redis_url,
                resilient=True, outbox=f"{tmp}/outbox-{uuid.uuid4().hex[:6]}.db",
            )  # fmt: skip
            return UserMemory(open_backend(spec, clock=clock), clock=clock, embedder=emb)

        return open_

    try:
        if args.only in (None, "embedded"):
            run("embedded", embedded, args)
        if args.only in (None, "redis_pg"):
            schema = f"bench_{uuid.uuid4().hex[:8]}"
            try:
                run("redis_pg", production(f"{args.pg_url}?schema={schema}"), args)
            finally:
                drop_schema(args.pg_url, schema)
        if args.only in (None, "redis_pg_pgvector"):
            with pgserver_url() as url:
                schema = f"bench_{uuid.uuid4().hex[:8]}"
                sep = "&" if "?" in url else "?"
                run("redis_pg_pgvector", production(f"{url}{sep}schema={schema}"), args)
    finally:
        import redis

        c = redis.Redis.from_url(args.redis_url)
        for key in c.scan_iter(match=prefix + "*", count=1000):
            c.delete(key)
        c.close()


if __name__ == "__main__":
    main()
