"""Per-call speed of the pure helpers whose targets used to be asserted in unit tests.

Unit tests check behaviour (and, for regex-heavy code, that time grows linearly); the
targets themselves are numbers to print and compare on a quiet machine, not assertions
that fail under load. Prints one line per measurement (median of ``--repeat`` runs).

Usage::

    python benchmarks/unit_speed.py [--repeat 5]

Targets: rule extraction of a normal turn under 2 ms; jieba tokenisation of a short
Chinese sentence under 5 ms once loaded; ``count_tokens`` of a 400-token block under
0.2 ms cached and 5 ms uncached; PII redaction of 1 MB under 6 s.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime

from shared_core import Turn, count_tokens
from shared_core.ingest.extract import RuleExtractor
from shared_core.privacy import redact
from shared_core.storage.lexical import tokenize

__all__ = ["main", "measure"]


def measure(fn: Callable[[], object], *, calls: int, repeat: int) -> float:
    """Median seconds per call of ``fn`` over ``repeat`` runs of ``calls`` calls."""
    fn()  # warm up (lazy loads, caches)
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        runs.append((time.perf_counter() - start) / calls)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    rules = RuleExtractor()
    turn = Turn(
        user_id="u1",
        text="I only accept SMS notifications, never call me. My budget is 5000 and I live in "
        "Berlin.",
        session_id="s1",
        turn_id="t1",
        at=datetime(2026, 4, 1, tzinfo=UTC),
    )
    en = "remember that I prefer vegetarian restaurants near the office and text me " * 12
    fresh = iter(range(10**9))
    para = "User said: mail me at u{i}@example.com or call 138{i:08d}. Budget 20000. "
    megabyte = "".join(para.format(i=i) for i in range(12_000))
    r = args.repeat
    rows = [
        (
            "extract a normal turn (ms)",
            measure(lambda: rules.extract(turn), calls=200, repeat=r),
            2.0,
        ),
        (
            "jieba tokenize a short sentence (ms)",
            measure(lambda: tokenize("我喜欢在周末喝乌龙茶"), calls=200, repeat=r),
            5.0,
        ),
        (
            "count_tokens 400-token block, cached (ms)",
            measure(lambda: count_tokens(en), calls=200, repeat=r),
            0.2,
        ),
        (
            "count_tokens 400-token block, uncached (ms)",
            measure(lambda: count_tokens(f"{next(fresh)} {en}"), calls=20, repeat=r),
            5.0,
        ),
        (
            "redact 1 MB of text (ms)",
            measure(lambda: redact(megabyte), calls=1, repeat=max(1, r // 2)),
            6000.0,
        ),
    ]
    for name, seconds, target in rows:
        ms = seconds * 1000
        print(f"{name:45s} {ms:10.3f}   target < {target:g}   {'ok' if ms < target else 'SLOW'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
