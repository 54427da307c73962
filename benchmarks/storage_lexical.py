"""Lexical search latency on a large embedded SQLite store (one user per query).

Builds (once, cached on disk) a synthetic database of ``--records`` memory records spread
over ``--users`` users, with Zipf-distributed English words so that common words occur
in a large share of all records. Then it times, for random users and 1-4 word queries:

- ``store``: :meth:`SqliteRecordStore.lexical_search` as shipped (in-process BM25 over
  the user's own records, loaded through the ``(uid, system_context, ...)`` index),
  cold (user not cached) and warm (cached);
- ``fts5-owner``: an FTS5 table over the same tokens with a per-user owner token,
  queried as ``owner:"u<hash>" AND ("t1" OR "t2")``;
- ``fts5-global``: a plain FTS5 ``MATCH`` over all users filtered to the user afterwards.

Run: ``python benchmarks/storage_lexical.py [--records 1000000 --users 10000]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

if importlib.util.find_spec("shared_core") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared_core.entities import Kind, MemoryRecord, Provenance
from shared_core.storage.lexical import tokenize
from shared_core.storage.protocols import WriteBatch
from shared_core.storage.sqlite import SqliteRecordStore
from shared_core.storage.sqlite_base import user_hash

COMMON = [
    "coffee",
    "tea",
    "morning",
    "evening",
    "call",
    "phone",
    "email",
    "meeting",
    "work",
    "home",
    "city",
    "food",
    "allergy",
    "music",
    "movie",
    "book",
    "sport",
    "weekend",
    "travel",
    "family",
    "friend",
    "dog",
    "cat",
    "medicine",
    "doctor",
]
KEYS = [
    f"{a}.{b}"
    for a in ("contact", "food", "health", "home", "work", "hobby")
    for b in ("main", "time", "place", "note", "pref")
]
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def vocabulary(size: int, rng: random.Random) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = set(COMMON)
    while len(words) < size:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(4, 9))))
    ordered = list(COMMON) + sorted(words - set(COMMON))
    return ordered


def zipf_sampler(vocab: list[str], rng: random.Random) -> Callable[[int], list[str]]:
    weights = [1.0 / (rank + 1) for rank in range(len(vocab))]
    cum = list(__import__("itertools").accumulate(weights))

    def sample(n: int) -> list[str]:
        return rng.choices(vocab, cum_weights=cum, k=n)

    return sample


def build(path: Path, records: int, users: int) -> None:
    rng = random.Random(42)
    sample = zipf_sampler(vocabulary(5000, rng), rng)
    per_user = records // users
    store = SqliteRecordStore(path)
    store.db.conn.execute("PRAGMA cache_size=-500000")  # ~500 MB page cache for the bulk load
    start = time.perf_counter()
    batch: list[MemoryRecord] = []
    for u in range(users):
        uid = f"user-{u:06d}"
        for i in range(per_user):
            at = T0 + timedelta(minutes=i)
            value = " ".join(sample(rng.randint(4, 10)))
            batch.append(
                MemoryRecord(
                    user_id=uid,
                    kind=Kind.FACT,
                    key=f"{KEYS[i % len(KEYS)]}.{i}",
                    value=value,
                    created_at=at,
                    updated_at=at,
                    provenance=Provenance(span=" ".join(sample(6))),
                )
            )
        if len(batch) >= 20_000:
            store.apply(WriteBatch(records=batch))
            batch.clear()
            done = (u + 1) * per_user
            print(f"  {done:>9,} records  {time.perf_counter() - start:6.1f}s", flush=True)
    if batch:
        store.apply(WriteBatch(records=batch))
    conn = store.db.conn
    print("  building fts5 comparison table ...", flush=True)
    conn.execute(
        "CREATE VIRTUAL TABLE bench_fts USING fts5(owner, body, rid UNINDEXED,"
        " tokenize='unicode61 remove_diacritics 2')"
    )
    conn.execute("BEGIN")
    conn.execute(
        "INSERT INTO bench_fts (owner, body, rid) SELECT 'u' || hex(uid), lex, id FROM records"
    )
    conn.execute("COMMIT")
    conn.execute("INSERT INTO bench_fts (bench_fts) VALUES ('optimize')")
    store.close()
    print(f"  built in {time.perf_counter() - start:.1f}s", flush=True)


# (stored memory text, a later query about it) - plural/singular variation is the norm
PAIRS = [
    ("I'm allergic to peanuts", "peanut allergy?"),
    ("I have two cats", "do I have a cat"),
    ("I love strawberries", "strawberry dessert ideas"),
    ("Team meetings are on Mondays", "when is the monday meeting"),
    ("Call me on weekends", "good weekend to call?"),
    ("My kids are Tom and Ann", "what are my kid's names"),
    ("I collect vintage watches", "buy a watch"),
    ("No onions in my food please", "does the onion bother them"),
    ("I take vitamins every morning", "vitamin routine"),
    ("I run marathons", "marathon training plan"),
    ("allergies: penicillin", "any allergy to medicine"),
    ("I hate horror movies", "recommend a movie"),
    ("My favourite cities are Lyon and Porto", "favourite city"),
    ("I drink green tea", "what tea do I drink"),
    ("Send invoices by email", "where to send the invoice"),
    ("I play the guitar", "guitar lessons"),
]


def tokenizer_report() -> None:
    """Plural folding on/off: how many (memory, query) pairs share a token, and speed."""
    for stem in (False, True):
        hits = sum(
            bool(set(tokenize(d, stem=stem)) & set(tokenize(q, stem=stem))) for d, q in PAIRS
        )
        text = " ".join(d for d, _ in PAIRS) * 20
        t = time.perf_counter()
        for _ in range(50):
            tokenize(text, stem=stem)
        per_kb = (time.perf_counter() - t) / 50 / (len(text) / 1024) * 1e6
        print(f"tokenizer stem={stem!s:5}  pairs matched {hits}/{len(PAIRS)}  {per_kb:6.1f} us/KB")


def pct(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"p50 {statistics.median(ms):7.3f} ms   p95 {p95:7.3f} ms   (n={len(ms)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/usermemory-bench"))
    args = ap.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    path = args.dir / f"lexical_{args.records}_{args.users}.db"
    if not path.exists():
        print(f"building {path} ({args.records:,} records, {args.users:,} users)")
        build(path, args.records, args.users)
    rng = random.Random(7)
    sample = zipf_sampler(vocabulary(5000, random.Random(42)), rng)
    queries = [
        (f"user-{rng.randrange(args.users):06d}", " ".join(sample(rng.randint(1, 4))))
        for _ in range(args.queries)
    ]
    tokenizer_report()
    store = SqliteRecordStore(path, lexical_cache_size=1024)
    conn = store.db.conn
    n_records = conn.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    print(f"sqlite {sqlite3.sqlite_version}; {n_records:,} records; {args.users:,} users")

    cold: list[float] = []
    warm: list[float] = []
    hits = 0
    for u, q in queries:
        store._lex_cache.clear()
        t = time.perf_counter()
        res = store.lexical_search(u, "default", q, limit=30)
        cold.append(time.perf_counter() - t)
        t = time.perf_counter()
        store.lexical_search(u, "default", q, limit=30)
        warm.append(time.perf_counter() - t)
        hits += len(res)
    print(f"store (in-process BM25), cold  {pct(cold)}")
    print(f"store (in-process BM25), warm  {pct(warm)}   avg hits {hits / len(queries):.1f}")

    owner: list[float] = []
    agree = 0
    for u, q in queries:
        toks = list(dict.fromkeys(tokenize(q)))
        if not toks:
            continue
        match = (
            f'owner:"u{user_hash(u).hex().upper()}" AND ('
            + " OR ".join(f'"{t}"' for t in toks)
            + ")"
        )
        t = time.perf_counter()
        rows = conn.execute(
            "SELECT rid FROM bench_fts WHERE bench_fts MATCH ? ORDER BY bm25(bench_fts, 0.0, 1.0)"
            " LIMIT 30",
            (match,),
        ).fetchall()
        owner.append(time.perf_counter() - t)
        ours = {h.record_id for h in store.lexical_search(u, "default", q, limit=1000)}
        agree += {r[0] for r in rows} <= ours
    print(f"fts5 with owner token          {pct(owner)}   same-set {agree}/{len(owner)}")

    glob: list[float] = []
    for u, q in queries[:20]:  # seconds per query at 1M records: keep it short
        toks = list(dict.fromkeys(tokenize(q)))
        if not toks:
            continue
        match = " OR ".join(f'"{t}"' for t in toks)
        t = time.perf_counter()
        conn.execute(
            "SELECT rid FROM bench_fts WHERE bench_fts MATCH ? AND owner = ?"
            " ORDER BY rank LIMIT 30",
            (match, f"u{user_hash(u).hex().upper()}"),
        ).fetchall()
        glob.append(time.perf_counter() - t)
    print(f"fts5 global MATCH then filter  {pct(glob)}")
    store.close()


if __name__ == "__main__":
    main()
