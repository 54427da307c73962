"""Property-based isolation check: random operations across users, contexts and backends.

A hypothesis state machine drives one ``UserMemory`` per backend with random
``observe`` / ``remember`` / ``forget_key`` / ``forget`` calls of a few users in three
contexts and reads after every step (``profile``, ``recall``, ``context``,
``session_turns``). Every value written carries a unique marker (``mk000123x``); the
model knows which (user, context) owns each marker, which were revoked and which were
erased. A **leak** is a read that returns a marker it must not: another user's or
another context's, an erased user's, or (in ``profile``) a revoked one.

Usage (prints operations, leaks and throughput per backend; exit status 1 on a leak)::

    python benchmarks/isolation.py --ops 10000
    python benchmarks/isolation.py --ops 10000 --backends sqlite,redis_pg \\
        --pg-url postgresql://postgres@127.0.0.1:5432/test --redis-url redis://127.0.0.1:6379/0

``redis_pg`` opens a resilient ``StorageSpec`` (PostgreSQL records, Redis sessions, cache
and events) in a fresh schema
(dropped afterwards) and a random Redis key prefix (its keys are deleted afterwards).
``tests/integration/contract/test_isolation_property.py`` runs the same machine on a
small budget in CI.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder

CONTEXTS = ("default", "health", "support")
USERS = 4
KEYS = ("note.color", "note.city", "note.pet", "pref.drink")
MARKER = re.compile(r"mk\d{6}x")


@dataclass
class Tally:
    """What one run did and found."""

    ops: int = 0
    reads: int = 0
    leaks: list[str] = field(default_factory=list)


def make_machine(mem: UserMemory, tally: Tally) -> type[RuleBasedStateMachine]:
    """A state machine class over ``mem``; each example uses fresh user ids."""

    counter = itertools.count(1)
    owner: dict[str, tuple[str, str]] = {}  # marker -> (user, context), across examples
    erased: set[str] = set()

    class Isolation(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            ns = uuid.uuid4().hex[:8]
            self.users = [f"{ns}-u{i}" for i in range(USERS)]
            self.owner = owner
            self.erased = erased
            self.current: dict[tuple[str, str, str], str] = {}  # (user, ctx, key) -> marker
            self.revoked: set[str] = set()

        def _marker(self, user: str, ctx: str) -> str:
            m = f"mk{next(counter):06d}x"
            self.owner[m] = (user, ctx)
            return m

        def _check(self, what: str, user: str, ctx: str, text: str, *, profile: bool) -> None:
            tally.reads += 1
            for m in set(MARKER.findall(text)):
                owner = self.owner.get(m)
                if owner is None:
                    tally.leaks.append(f"{what}({user}, {ctx}) returned unknown {m}")
                elif m in self.erased:
                    tally.leaks.append(f"{what}({user}, {ctx}) returned erased {m}")
                elif owner != (user, ctx):
                    tally.leaks.append(f"{what}({user}, {ctx}) returned {m} of {owner}")
                elif profile and m in self.revoked:
                    tally.leaks.append(f"{what}({user}, {ctx}) returned revoked {m}")

        def _read_all(self, user: str, ctx: str, query: str) -> None:
            prof = mem.profile(user, system_context=ctx)
            self._check("profile", user, ctx, " ".join(prof.values()), profile=True)
            hits = mem.recall(user, query, system_context=ctx, k=8)
            self._check("recall", user, ctx, " ".join(h.record.value for h in hits), profile=False)
            block = mem.context(user, query, system_context=ctx)
            self._check("context", user, ctx, str(block), profile=False)
            turns = mem.session_turns(user, f"{ctx}-s")
            self._check("session", user, ctx, " ".join(t.text for t in turns), profile=False)

        @rule(u=st.integers(0, USERS - 1), c=st.sampled_from(CONTEXTS), key=st.sampled_from(KEYS))
        def remember(self, u: int, c: str, key: str) -> None:
            user = self.users[u]
            m = self._marker(user, c)
            mem.remember(user, key, f"value {m}", system_context=c)
            self.current[(user, c, key)] = m
            tally.ops += 1

        @rule(u=st.integers(0, USERS - 1), c=st.sampled_from(CONTEXTS))
        def observe(self, u: int, c: str) -> None:
            user = self.users[u]
            m = self._marker(user, c)
            mem.observe(user, f"I named my plant {m} today.", system_context=c,
                        session_id=f"{c}-s")  # fmt: skip
            tally.ops += 1

        @rule(u=st.integers(0, USERS - 1), c=st.sampled_from(CONTEXTS), key=st.sampled_from(KEYS))
        def forget_key(self, u: int, c: str, key: str) -> None:
            user = self.users[u]
            mem.forget_key(user, key, system_context=c)
            m = self.current.pop((user, c, key), None)
            if m is not None:
                self.revoked.add(m)
            tally.ops += 1

        @rule(u=st.integers(0, USERS - 1))
        def forget(self, u: int) -> None:
            user = self.users[u]
            mem.forget(user)
            self.erased |= {m for m, (who, _) in self.owner.items() if who == user}
            self.current = {k: v for k, v in self.current.items() if k[0] != user}
            tally.ops += 1
            for c in CONTEXTS:
                if mem.profile(user, system_context=c):
                    tally.leaks.append(f"profile({user}, {c}) not empty after forget")

        @rule(u=st.integers(0, USERS - 1), c=st.sampled_from(CONTEXTS), q=st.integers(0, 2))
        def read(self, u: int, c: str, q: int) -> None:
            user = self.users[u]
            known = sorted(self.owner)
            # ask for our own markers, for another user's, or something unrelated
            query = {0: "plant", 1: known[-1] if known else "value", 2: "what do you know"}[q]
            self._read_all(user, c, query)
            tally.ops += 1

    return Isolation


def run(mem: UserMemory, *, ops: int, steps: int = 50, seed: int | None = None) -> Tally:
    """Drive ``mem`` with about ``ops`` random operations; return the tally."""
    tally = Tally()
    machine = make_machine(mem, tally)
    rounds = 0
    while tally.ops < ops and rounds < 100:  # hypothesis may stop a sequence early
        rounds += 1
        cfg = settings(
            max_examples=max(1, -(-(ops - tally.ops) // steps)),
            stateful_step_count=steps,
            deadline=None,
            derandomize=rounds == 1 and seed is None,
            database=None,
            suppress_health_check=list(HealthCheck),
            phases=[p for p in settings.default.phases if p.name != "shrink"],
        )
        run_state_machine_as_test(machine, settings=cfg)
    return tally


@contextmanager
def open_backend(name: str, *, pg_url: str | None, redis_url: str | None,
                 workdir: Path) -> Iterator[UserMemory]:  # fmt: skip
    """A fresh ``UserMemory`` on one backend combination, cleaned up afterwards."""
    if name == "sqlite":
        mem = UserMemory.from_url(f"sqlite:///{workdir / 'iso.db'}", embedder=HashingEmbedder())
        try:
            yield mem
        finally:
            mem.close()
        return
    if name != "redis_pg" or not pg_url or not redis_url:
        raise SystemExit(f"backend {name!r} needs --pg-url and --redis-url")
    import psycopg
    import redis
    from psycopg import sql

    from shared_core.storage import StorageSpec

    schema = f"iso_{uuid.uuid4().hex[:10]}"
    prefix = f"iso{uuid.uuid4().hex[:8]}:"
    sep = "&" if "?" in pg_url else "?"
    rsep = "&" if "?" in redis_url else "?"
    redis_ns = f"{redis_url}{rsep}prefix={prefix}"
    spec = StorageSpec(
        records=f"{pg_url}{sep}schema={schema}",
        vectors="sqlite:///:memory:",
        sessions=redis_ns,
        cache=redis_ns,
        events=redis_ns,
        resilient=True,
    )
    mem = UserMemory(spec, embedder=HashingEmbedder())
    try:
        yield mem
    finally:
        mem.close()
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
        client = redis.Redis.from_url(redis_url)
        for key in client.scan_iter(match=f"{prefix}*"):
            client.delete(key)
        client.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--ops", type=int, default=10_000, help="operations per backend")
    p.add_argument("--backends", default="sqlite,redis_pg")
    p.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/test")
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    p.add_argument("--steps", type=int, default=50, help="operations per random sequence")
    args = p.parse_args(argv)
    total_leaks = 0
    print(f"{'backend':<10} {'ops':>7} {'reads':>7} {'leaks':>6} {'seconds':>8} {'ops/s':>7}")
    for name in args.backends.split(","):
        with (
            tempfile.TemporaryDirectory() as tmp,
            open_backend(
                name, pg_url=args.pg_url, redis_url=args.redis_url, workdir=Path(tmp)
            ) as mem,
        ):
            t0 = time.perf_counter()
            tally = run(mem, ops=args.ops, steps=args.steps)
            secs = time.perf_counter() - t0
        total_leaks += len(tally.leaks)
        print(f"{name:<10} {tally.ops:>7} {tally.reads:>7} {len(tally.leaks):>6} "
              f"{secs:>8.1f} {tally.ops / secs:>7.1f}")  # fmt: skip
        for leak in tally.leaks[:10]:
            print("  leak:", leak)
    return 1 if total_leaks else 0


if __name__ == "__main__":
    sys.exit(main())
