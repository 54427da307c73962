"""Vector search latency of the embedded index at 100k and 1M vectors (384-dim).

For each size it builds (once, cached on disk) a SQLite file with ``size`` random unit
vectors spread over ``size / per_user`` users (bulk ``executemany`` in one transaction),
then times :meth:`SqliteVectorIndex.search` for random users:

- cold: the user's matrix is not in memory (one indexed read of ~100 BLOBs + numpy stack);
- warm: the matrix is cached (one small matrix-vector product + top-k).

It also prints the process RSS, to show the LRU keeps memory bounded (the whole 1M x 384
float32 set would be ~1.5 GB). Run: ``python benchmarks/storage_vectors.py``.
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

if importlib.util.find_spec("shared_core") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared_core.entities import Kind
from shared_core.storage.sqlite_base import user_hash
from shared_core.storage.vectors import SqliteVectorIndex

KINDS = ("preference", "fact", "event", "constraint", "episode")


def build(path: Path, size: int, per_user: int, dim: int) -> None:
    rng = np.random.default_rng(0)
    ix = SqliteVectorIndex(path)
    ix.db.conn.execute("PRAGMA cache_size=-500000")  # ~500 MB page cache for the bulk load
    start = time.perf_counter()
    chunk = 20_000
    with ix.db.transaction() as conn:
        for lo in range(0, size, chunk):
            n = min(chunk, size - lo)
            mat = rng.standard_normal((n, dim), dtype=np.float32)
            mat /= np.linalg.norm(mat, axis=1, keepdims=True)
            rows = []
            for j in range(n):
                i = lo + j
                user = f"user-{i // per_user:07d}"
                rows.append(
                    (
                        f"rec-{i:08d}",
                        user_hash(user),
                        user,
                        "default",
                        KINDS[i % len(KINDS)],
                        f"key.{i % 50}",
                        dim,
                        mat[j].tobytes(),
                    )
                )
            conn.executemany(
                "INSERT INTO vectors (record_id, uid, user_id, system_context, kind, key, dim,"
                " vector) VALUES (?,?,?,?,?,?,?,?)",
                rows,
            )
    ix.close()
    print(f"  built {size:,} vectors in {time.perf_counter() - start:.1f}s", flush=True)


def pct(samples: list[float]) -> str:
    us = sorted(s * 1e6 for s in samples)
    p95 = us[min(len(us) - 1, int(len(us) * 0.95))]
    return f"p50 {statistics.median(us):8.1f} us   p95 {p95:8.1f} us   (n={len(us)})"


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(size: int, per_user: int, dim: int, queries: int, workdir: Path) -> None:
    path = workdir / f"vectors_{size}_{per_user}_{dim}.db"
    if not path.exists():
        print(f"building {path}")
        build(path, size, per_user, dim)
    users = size // per_user
    rng = np.random.default_rng(1)
    ix = SqliteVectorIndex(path, max_cached_users=1024, max_cached_vectors=250_000)
    cold: list[float] = []
    warm: list[float] = []
    filtered: list[float] = []
    for _ in range(queries):
        user = f"user-{int(rng.integers(users)):07d}"
        q = rng.standard_normal(dim).astype(np.float32)
        ix.forget_user(user)
        t = time.perf_counter()
        hits = ix.search(user, "default", q, k=10)
        cold.append(time.perf_counter() - t)
        assert len(hits) == 10
        t = time.perf_counter()
        ix.search(user, "default", q, k=10)
        warm.append(time.perf_counter() - t)
        t = time.perf_counter()
        ix.search(user, "default", q, k=5, kinds=(Kind.FACT, Kind.EPISODE))
        filtered.append(time.perf_counter() - t)
    # touch many users to exercise the LRU bound
    for u in range(min(users, 3000)):
        ix.search(f"user-{u:07d}", "default", rng.standard_normal(dim).astype(np.float32), k=3)
    print(f"{size:>9,} vectors, {users:,} users x {per_user}, dim {dim}")
    print(f"  search cold (load user)    {pct(cold)}")
    print(f"  search warm (cached)       {pct(warm)}")
    print(f"  search warm, kinds filter  {pct(filtered)}")
    held = sum(b.matrix.nbytes for blocks in ix._cache.values() for b in blocks.values())
    print(
        f"  LRU holds {ix.cached_users} users (max 1024), {held / 2**20:.0f} MB of vectors;"
        f" process peak RSS {rss_mb():.0f} MB"
    )
    ix.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--per-user", type=int, default=100)
    ap.add_argument("--dim", type=int, default=384)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/usermemory-bench"))
    args = ap.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    for size in args.sizes:
        run(size, args.per_user, args.dim, args.queries, args.dir)


if __name__ == "__main__":
    main()
