"""What the per-user write fence costs: observe/remember latency with and without it.

Three variants of the same pipeline, on SQLite (a temp file) and PostgreSQL (a fresh
schema, dropped afterwards):

- ``fence``: as shipped. Each write reads the user's fence (one primary-key lookup),
  commits with ``WriteBatch.expect`` (checked and bumped in the write transaction), and
  sessions / cached profiles go through the fenced wrappers.
- ``no-check``: the record store is hidden behind a proxy that is not a ``FencedStore``,
  so the pipeline reads no fence, sends no ``expect`` and does not wrap sessions (in-process
  per-user locks only); the store still bumps the generation row in each transaction.
- ``no-fence``: ``no-check`` and the generation bump removed too (no fence at all).

Each variant runs ``--calls`` ``observe`` turns and as many ``remember`` calls, cycling
over ``--users`` users, after ``--warmup`` calls of each, the three variants interleaved
call by call (the machine may be shared: load drift hits them alike); it prints p50 /
p95 / mean in milliseconds per call and the load average. Usage::

    python benchmarks/fence_cost.py --calls 300
    python benchmarks/fence_cost.py --backends sqlite,postgres \\
        --pg-url postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.storage import StorageSpec

TEXTS = (
    "I live in Berlin.",
    "My budget is 5000 euros.",
    "Never call me after 8pm.",
    "I'm allergic to penicillin.",
    "I prefer email over phone.",
    "Actually I live in Paris now.",
    "I love jazz and old films.",
    "My daughter's name is Mia.",
)
VARIANTS = ("fence", "no-check", "no-fence")
OPS = ("observe", "remember")
FENCE_METHODS = ("fence", "queue_erasure", "pending_erasures", "confirm_erasure")


class Unfenced:
    """A record store seen without its fence (not a ``FencedStore``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        if name in FENCE_METHODS:
            raise AttributeError(name)
        return getattr(self.inner, name)


def _open_store(backend: str, where: str) -> Any:
    if backend == "sqlite":
        from shared_core.storage.sqlite import SqliteRecordStore

        return SqliteRecordStore(where)
    from shared_core.storage.postgres import open_postgres

    return open_postgres(where)


def _variant_store(backend: str, where: str, variant: str) -> Any:
    store = _open_store(backend, where)
    if variant == "fence":
        return store
    if variant == "no-fence":
        store._move_fences = lambda *a, **kw: None  # no generation bump either
    return Unfenced(store)


def _percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, statistics.fmean(ordered)


def _timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def run(backend: str, where: Callable[[str], str], args: argparse.Namespace) -> dict[str, Any]:
    """Latencies per (variant, op). The variants' calls are interleaved one by one, so a
    change of machine load (it is shared) hits all three alike."""
    mems = {
        v: UserMemory(
            StorageSpec(records=_variant_store(backend, where(v), v), vectors="sqlite:///:memory:"),
            embedder=HashingEmbedder(),
        )
        for v in VARIANTS
    }
    samples: dict[tuple[str, str], list[float]] = {(v, op): [] for v in VARIANTS for op in OPS}
    try:
        for i in range(args.warmup + args.calls):
            user = f"u{i % args.users}"
            for op in OPS:
                for variant, mem in mems.items():
                    if op == "observe":
                        call = functools.partial(
                            mem.observe, user, TEXTS[i % len(TEXTS)], session_id=f"s{i % 3}"
                        )
                    else:
                        call = functools.partial(mem.remember, user, f"note.k{i % 5}", f"v{i}")
                    ms = _timed(call)
                    if i >= args.warmup:
                        samples[(variant, op)].append(ms)
    finally:
        for mem in mems.values():
            mem.close()
    return {key: _percentiles(vals) for key, vals in samples.items()}


@contextmanager
def locations(backend: str, args: argparse.Namespace) -> Iterator[Callable[[str], str]]:
    """A fresh store location per variant (file or schema); cleaned up afterwards."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield lambda variant: str(Path(tmp) / f"{variant}.db")
        return
    import psycopg
    from psycopg import sql

    schemas: list[str] = []

    def url(variant: str) -> str:
        schema = f"fence_bench_{variant.replace('-', '_')}_{uuid.uuid4().hex[:8]}"
        schemas.append(schema)
        return f"{args.pg_url}{'&' if '?' in args.pg_url else '?'}schema={schema}"

    try:
        yield url
    finally:
        with psycopg.connect(args.pg_url, autocommit=True) as conn:
            for schema in schemas:
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument(
        "--pg-url",
        default=os.environ.get(
            "USERMEMORY_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test"
        ),
    )
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    print(f"{'backend':<9} {'variant':<9} {'op':<9} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
    for backend in args.backends.split(","):
        with locations(backend, args) as where:
            result = run(backend, where, args)
        for op in OPS:
            for variant in VARIANTS:
                p50, p95, mean = result[(variant, op)]
                print(f"{backend:<9} {variant:<9} {op:<9} {p50:>8.2f} {p95:>8.2f} {mean:>8.2f}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
