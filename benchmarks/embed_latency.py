"""Single-query embedding latency: p50 / p95 per embedder.

Run::

    python benchmarks/embed_latency.py            # MiniLM (torch, 1 thread), ONNX, hashing
    python benchmarks/embed_latency.py --n 500 --threads 2 --no-onnx

The text -> vector cache is disabled so every call reaches the model. The ONNX model is
exported on first use into ``--onnx-cache`` (default: the user cache dir) and reused.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared_core.embed import (
    HashingEmbedder,
    OnnxEmbedder,
    SentenceTransformerEmbedder,
)

QUERIES = [
    "how should I contact the user",
    "what does the user like to drink",
    "用户喜欢喝什么",
    "dietary restrictions for dinner",
    "preferred notification channel",
    "where does the user live",
    "用户的预算是多少",
    "favourite programming language",
]


def _percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p50 = ordered[len(ordered) // 2]
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return p50 * 1e3, p95 * 1e3, statistics.fmean(samples) * 1e3


def _bench(embed: Callable[[list[str]], object], n: int, warmup: int) -> list[float]:
    for i in range(warmup):
        embed([f"warm up {i}"])
    samples = []
    for i in range(n):
        text = f"{QUERIES[i % len(QUERIES)]} #{i}"  # unique text: never a cache hit
        start = time.perf_counter()
        embed([text])
        samples.append(time.perf_counter() - start)
    return samples


def main(argv: list[str] | None = None) -> int:
    """Measure and print a latency table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="timed queries per embedder")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1, help="torch / onnxruntime threads")
    parser.add_argument("--no-onnx", action="store_true", help="skip the ONNX embedder")
    parser.add_argument("--onnx-cache", type=Path, default=None, help="ONNX export directory")
    args = parser.parse_args(argv)

    rows: list[tuple[str, str, float, float, float, float]] = []

    start = time.perf_counter()
    st = SentenceTransformerEmbedder(threads=args.threads, cache_size=0)
    st.embed(["load"])
    rows.append(
        (
            "SentenceTransformerEmbedder",
            f"torch, {args.threads} thread(s)",
            time.perf_counter() - start,
            *_percentiles(_bench(st.embed, args.n, args.warmup)),
        )
    )

    if not args.no_onnx:
        start = time.perf_counter()
        onnx = OnnxEmbedder(cache_dir=args.onnx_cache, threads=args.threads, cache_size=0)
        onnx.embed(["load"])
        rows.append(
            (
                "OnnxEmbedder",
                f"onnxruntime, {args.threads} thread(s)",
                time.perf_counter() - start,
                *_percentiles(_bench(onnx.embed, args.n, args.warmup)),
            )
        )

    hashing = HashingEmbedder()
    rows.append(
        (
            "HashingEmbedder",
            "numpy, lexical only",
            0.0,
            *_percentiles(_bench(hashing.embed, args.n, args.warmup)),
        )
    )

    header = (
        f"{'embedder':<28} {'runtime':<26} {'load s':>7} {'p50 ms':>8} {'p95 ms':>8} {'mean':>8}"
    )
    print(header)
    print("-" * len(header))
    for name, runtime, load, p50, p95, mean in rows:
        print(f"{name:<28} {runtime:<26} {load:>7.2f} {p50:>8.2f} {p95:>8.2f} {mean:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
