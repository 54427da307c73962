"""AsyncUserMemory under many coroutines on Redis + PostgreSQL: throughput and latency.

:class:`shared_core.AsyncUserMemory` runs the sync pipeline on the sync stores (psycopg
pool, redis-py) in ``asyncio.to_thread`` workers. That strategy was chosen by this command:
at commit 7cd7247 it also had a ``native`` arm that ran the same pipeline on the event
loop's thread with every store call awaited on native async stores (psycopg
``AsyncConnectionPool``, ``redis.asyncio``) through a greenlet bridge. The thread offload
won on throughput and p95 (numbers in the README, "Async"), so the async stores were
deleted; ``git show 7cd7247:benchmarks/async_strategy.py`` re-runs the comparison.

Workload: ``--coroutines`` concurrent coroutines, each its own user, each doing
``--rounds`` x (one ``observe`` of a sentence that writes a memory, then one ``recall``).
Records in a throwaway PostgreSQL schema, sessions + profile cache + change feed in Redis
under a throwaway key prefix (both removed afterwards), vectors in process, a hashing
embedder unless ``--embedder default``. Prints throughput (calls/s over the whole run) and
p50/p95/p99 per call.

Usage::

    python benchmarks/async_strategy.py                       # 200 coroutines x 3 rounds
    python benchmarks/async_strategy.py --coroutines 400 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared_core import AsyncUserMemory
from shared_core.config import MemoryConfig
from shared_core.storage import StorageSpec

SENTENCES = (
    "I'm allergic to penicillin.",
    "Never call me, text me instead.",
    "I live in Berlin now.",
    "My budget is 800 euros.",
    "I prefer tea over coffee.",
    "I'm vegetarian.",
)
QUERIES = ("what am I allergic to", "how should you contact me", "where do I live", "my budget")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def _workload(
    call: Callable[..., Awaitable[Any]], coroutines: int, rounds: int, tag: str
) -> tuple[float, list[float], list[BaseException]]:
    """Run the workload; return wall seconds, per-call latencies and the calls' errors."""
    latencies: list[float] = []
    errors: list[BaseException] = []

    async def timed(method: str, *args: Any, **kwargs: Any) -> None:
        t0 = time.perf_counter()
        try:
            await call(method, *args, **kwargs)
        except Exception as exc:  # counted and reported: one failure must not hide the rest
            errors.append(exc)
        latencies.append(time.perf_counter() - t0)

    async def user(i: int) -> None:
        uid = f"{tag}-u{i}"
        for r in range(rounds):
            await timed("observe", uid, SENTENCES[(i + r) % len(SENTENCES)], session_id="s1")
            await timed("recall", uid, QUERIES[(i + r) % len(QUERIES)], k=3)

    started = time.perf_counter()
    await asyncio.gather(*(user(i) for i in range(coroutines)))
    return time.perf_counter() - started, latencies, errors


def _embedder(name: str) -> Any:
    if name == "default":
        return None
    from shared_core.embed import HashingEmbedder

    return HashingEmbedder()


async def run_thread(
    args: argparse.Namespace, pg: str, redis: str
) -> tuple[float, list[float], list[BaseException]]:
    mem = AsyncUserMemory(
        StorageSpec(records=pg, sessions=redis, cache=redis, events=redis),
        config=MemoryConfig(),
        embedder=_embedder(args.embedder),
    )
    try:
        await mem.observe("warm-up", "I like jazz.")  # pools, scripts, model
        return await _workload(
            lambda m, *a, **kw: getattr(mem, m)(*a, **kw), args.coroutines, args.rounds, "thr"
        )
    finally:
        await mem.aclose()


# ----------------------------------------------------------------------- scaffolding
def _cleanup(pg_admin: str, schema: str, redis_url: str, prefix: str) -> None:
    import psycopg
    import redis
    from psycopg import sql

    with psycopg.connect(pg_admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for i in range(0, len(keys), 500):
            client.delete(*keys[i : i + 500])
    finally:
        client.close()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark, print its table and return it as a report.

    The report: ``machine`` and ``workload`` (what ran) and ``rows``, one per strategy with
    ``strategy``, the throwaway ``pg_schema`` and ``redis_prefix`` it used (removed
    afterwards), ``calls``, ``errors`` (calls that raised; the first one's repr in
    ``first_error``), ``wall_s``, ``calls_per_s`` and ``p50_ms``/``p95_ms``/``p99_ms``.
    """
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--coroutines", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3, help="observe+recall pairs per coroutine")
    ap.add_argument("--embedder", choices=("hashing", "default"), default="hashing")
    ap.add_argument("--pool-max", type=int, default=10, help="PostgreSQL pool size")
    args = ap.parse_args(argv)

    report: dict[str, Any] = {
        "machine": {
            "arch": platform.machine(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
        },
        "workload": {
            "coroutines": args.coroutines,
            "rounds": args.rounds,
            "embedder": args.embedder,
            "pool_max": args.pool_max,
        },
        "rows": [],
    }
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()};"
        f" {args.coroutines} coroutines x {args.rounds} x (observe + recall),"
        f" embedder={args.embedder}, pool_max={args.pool_max}"
    )
    arms = ("thread",)
    print(
        f"{'strategy':<8} {'calls':>6} {'errors':>6} {'wall s':>7} {'calls/s':>8} {'p50 ms':>7} "
        f"{'p95 ms':>7} {'p99 ms':>7}"
    )
    for arm in arms:
        tag = uuid.uuid4().hex[:10]
        schema, prefix = f"bench_async_{tag}", f"bench-async-{tag}:"
        sep = "&" if "?" in args.pg_url else "?"
        pg = f"{args.pg_url}{sep}schema={schema}&pool_max={args.pool_max}"
        rsep = "&" if "?" in args.redis_url else "?"
        redis_url = f"{args.redis_url}{rsep}prefix={prefix}"
        runner = run_thread
        try:
            wall, lat, errors = asyncio.run(runner(args, pg, redis_url))
        finally:
            _cleanup(args.pg_url, schema, args.redis_url, prefix)
        ms = [x * 1000 for x in lat]
        row = {
            "strategy": arm,
            "pg_schema": schema,
            "redis_prefix": prefix,
            "calls": len(lat),
            "errors": len(errors),
            "first_error": repr(errors[0]) if errors else None,
            "wall_s": wall,
            "calls_per_s": len(lat) / wall,
            "p50_ms": statistics.median(ms),
            "p95_ms": _percentile(ms, 95),
            "p99_ms": _percentile(ms, 99),
        }
        report["rows"].append(row)
        print(
            f"{arm:<8} {row['calls']:>6} {row['errors']:>6} {wall:>7.2f}"
            f" {row['calls_per_s']:>8.1f} {row['p50_ms']:>7.1f} {row['p95_ms']:>7.1f}"
            f" {row['p99_ms']:>7.1f}"
        )
        if errors:
            print(f"first error: {row['first_error']}")
    return report


if __name__ == "__main__":
    sys.exit(1 if any(row["errors"] for row in main()["rows"]) else 0)
