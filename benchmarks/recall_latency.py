"""Recall and observe latency of the embedded SQLite memory at 10k / 100k / 1M memories.

For each size the script bulk-loads ``size`` realistic memories spread over ``--users``
users (10k by default, so ~1 / 10 / 100 per user) into a SQLite *file*: per user a
mix of preferences, facts, events and hard constraints (some with a superseded older
version) plus episode turns, written through the record store's ``apply(WriteBatch)``
and the vector index's ``upsert`` in large batches (loading 1M memories through
``observe`` would take hours). Stored vectors are the 384-d hashing embedding of each
record's text (``--vectors hashing``, so hashing query vectors find related memories and
recall returns hits and writes its read audit like in real use) or random unit vectors
(``--vectors random``). Then it measures, for users drawn at random without replacement:

- ``UserMemory.recall`` *excluding* the query embedding (the query vector is
  precomputed: :class:`PrecomputedEmbedder`) and *including* it with MiniLM through
  ONNX Runtime (1 thread) and through sentence-transformers/torch (1 thread);
  "cold" is the first recall for a user in the process (their vectors and lexical
  corpus are not cached yet), "warm" a second recall right after;
- where recall time goes: every store/embedder call timed per stage (lexical search,
  embed, vector search, the one records read, the hard-constraint read when an inference
  is a candidate, the "read" audit write; the rest is rewrite/fuse/score/validation),
  plus a cProfile of warm recalls;
- ``UserMemory.observe`` p50/p95 and single-thread throughput with the rule extractor
  (episode and memory vectors from the hashing embedder, ONNX MiniLM or torch MiniLM).

Every latency is reported as wall-clock time and as the calling thread's CPU time, with
the load average, and a "noise floor" (a fixed ~0.3 ms CPU loop timed the same way)
shows how much contention from other processes inflates wall-clock p95s.
Targets (the core issue, 1M memories, 2 cores): recall p95 < 5 ms without the query
embedding, < 15 ms with it; observe p95 < 20 ms.

Run::

    python benchmarks/recall_latency.py                       # 10k, 100k, 1M
    python benchmarks/recall_latency.py --sizes 10000,100000 --embedders hashing,onnx
    python benchmarks/recall_latency.py --out benchmarks/results/recall_latency

sentence-transformers/torch are imported only if ``torch`` is in ``--embedders``.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import json
import os
import platform
import pstats
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

if importlib.util.find_spec("shared_core") is None:  # run from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.entities import Kind, MemoryRecord, Provenance, Source, Status
from shared_core.recall.retrieve import record_text
from shared_core.recall.rewrite import rewrite
from shared_core.storage.lexical import tokenize
from shared_core.storage.protocols import RecordFilter, VectorItem, WriteBatch
from shared_core.storage.registry import Backends, open_sqlite

__all__ = [
    "PrecomputedEmbedder",
    "build",
    "main",
    "measure_observe",
    "measure_recall",
    "percentiles",
]

DIM = 384
BASE_TIME = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
TARGETS_MS = {"recall_no_embed_p95": 5.0, "recall_embed_p95": 15.0, "observe_p95": 20.0}

Vector = npt.NDArray[np.float32]


# --------------------------------------------------------------------------- helpers
def percentiles(samples: Sequence[float]) -> dict[str, float]:
    """p50 / p95 / p99 / mean of ``samples`` (seconds) in milliseconds."""
    if not samples:
        return {"n": 0, "p50": float("nan"), "p95": float("nan"), "p99": float("nan")}
    ms = sorted(s * 1e3 for s in samples)

    def pick(q: float) -> float:
        return ms[min(len(ms) - 1, int(len(ms) * q))]

    return {
        "n": len(ms),
        "p50": statistics.median(ms),
        "p95": pick(0.95),
        "p99": pick(0.99),
        "mean": statistics.fmean(ms),
    }


def loadavg() -> tuple[float, float, float]:
    """``os.getloadavg()`` rounded (1, 5, 15 minutes)."""
    a, b, c = os.getloadavg()
    return round(a, 2), round(b, 2), round(c, 2)


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


class PrecomputedEmbedder:
    """An embedder that returns vectors computed before timing started.

    Used for "recall excluding the query embedding": ``prime`` embeds the (rewritten)
    queries with ``inner`` up front; ``embed`` is then a dict lookup. A text that was not
    primed is embedded by ``inner`` and counted in ``misses``.

    Args:
        inner: the embedder that computes the vectors.
    """

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.name = f"precomputed:{inner.name}"
        self.dimension = int(inner.dimension)
        self._vectors: dict[str, Vector] = {}
        self.misses = 0

    def prime(self, texts: Sequence[str]) -> None:
        """Embed ``texts`` now so later ``embed`` calls are lookups."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if todo:
            for text, vec in zip(todo, self._inner.embed(todo), strict=True):
                self._vectors[text] = np.asarray(vec, dtype=np.float32)

    def embed(self, texts: Sequence[str]) -> Vector:
        """The primed vectors of ``texts`` (shape ``(len(texts), dimension)``)."""
        missing = [t for t in texts if t not in self._vectors]
        if missing:
            self.misses += len(missing)
            self.prime(missing)
        return np.stack([self._vectors[t] for t in texts]).astype(np.float32, copy=False)


def make_embedder(name: str, *, onnx_cache: Path | None = None) -> Any:
    """``hashing`` (384-d), ``onnx`` (MiniLM, onnxruntime 1 thread) or ``torch`` (1 thread).

    The model embedders are created with the text cache off so every query is encoded.
    """
    if name == "hashing":
        return HashingEmbedder(DIM)
    if name == "onnx":
        from shared_core.embed import OnnxEmbedder

        return OnnxEmbedder(threads=1, cache_size=0, cache_dir=onnx_cache)
    if name == "torch":
        import torch

        torch.set_num_threads(1)
        from shared_core.embed import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(threads=1, cache_size=0)
    raise SystemExit(f"unknown embedder {name!r} (hashing, onnx, torch)")


# --------------------------------------------------------------------------- data
# "kind key [hard]: value = source span | value = span ..." (an indented "| ..." line
# continues the one above); one option is picked per user.
_ENTITY_SPEC = """
preference contact.channel: sms = please text me, I prefer SMS
    | email = email is the best way to reach me | wechat = 用微信联系我
preference contact.quiet_hours: after 21:00 = don't call me after 9pm
    | before 08:00 = no calls before 8 in the morning
preference language: english = please reply in English | 中文 = 请用中文回复我
    | german = antworte bitte auf Deutsch
preference diet.style: vegetarian = I'm vegetarian | vegan = I eat vegan | 素食 = 我吃素
preference taste.coffee: oat flat white = I like oat milk flat whites
    | black = just black coffee for me
preference interest.hiking: hiking = I love hiking on weekends
preference interest.jazz: jazz = I've been into jazz lately
preference recommend.books: science fiction = recommend me sci-fi
preference budget.hotel: under 150 eur = keep hotels under 150 euros | 500元以内 = 酒店预算500元以内
preference notification.frequency: weekly = a weekly digest is enough
preference seat: aisle = I always take the aisle seat
preference music.genre: classical = I listen to classical music
fact name: Alex = my name is Alex | Wei = 我叫伟 | Sam = call me Sam
fact location.city: berlin = I live in Berlin | shanghai = 我住在上海
    | lisbon = I moved to Lisbon
fact location.address: 12 Linden Street = ship to 12 Linden Street
fact job.title: nurse = I work as a nurse | engineer = I'm a software engineer
    | teacher = 我是老师
fact industry: healthcare = I work in healthcare
fact family.daughter: Mia = my daughter Mia is seven
fact pet.dog: Biscuit = our dog Biscuit needs walks
fact health.condition: asthma = I have asthma
fact device.phone: pixel 8 = I use a Pixel 8
fact birthday: march 3 = my birthday is March 3rd
fact car: electric = we drive an electric car
event event.trip: lisbon in may = we're going to Lisbon in May
event event.move: moving in june = we're moving house in June
event event.surgery: knee surgery = I have knee surgery next month
constraint allergy.medication hard: penicillin = I'm allergic to penicillin
    | 青霉素 = 我对青霉素过敏
constraint allergy.food hard: peanuts = never give me anything with peanuts
    | shellfish = I'm allergic to shellfish
constraint contact.call hard: never call = never call me, text only
constraint diet.alcohol hard: no alcohol = I don't drink alcohol at all
"""


def _parse_entities(spec: str) -> list[tuple[Kind, str, bool, list[tuple[str, str]]]]:
    out = []
    for line in spec.strip().replace("\n    | ", " | ").splitlines():
        head, _, options = line.partition(": ")
        kind, key, *flags = head.split()
        pairs = [tuple(x.strip() for x in o.split(" = ", 1)) for o in options.split(" | ")]
        out.append((Kind(kind), key, "hard" in flags, [(v, sp) for v, sp in pairs]))
    return out


_ENTITIES = _parse_entities(_ENTITY_SPEC)

EPISODE_TEXTS: list[str] = [
    "can you help me plan a trip to Lisbon in May",
    "sure, do you prefer hotels near the centre or by the beach",
    "what's a good vegetarian restaurant near the office",
    "I need to reschedule my dentist appointment to next week",
    "remind me to call my mother on Sunday",
    "how much should I budget for a week in Japan",
    "the meeting with the design team moved to Thursday",
    "I tried the pasta recipe you suggested, it was great",
    "which laptop would you recommend for travel",
    "my daughter has a school concert on Friday evening",
    "帮我订一张去北京的高铁票",
    "上次你推荐的那本书我很喜欢",
    "can you summarise the article about battery recycling",
    "I'm feeling tired today, maybe a short run instead",
    "let's look for flights after 10am, I hate early mornings",
    "what did we decide about the birthday party",
    "the package still hasn't arrived at my address",
    "please draft a polite reply to the landlord",
    "明天下午三点提醒我开会",
    "I switched to a new phone plan last month",
]

QUERIES: list[str] = [
    "how should I contact the user",
    "what can I recommend for dinner",
    "does the user have any allergies",
    "which medication should I avoid prescribing",
    "where does the user live",
    "what is the user's budget for hotels",
    "what did we talk about last time",
    "when is the trip to Lisbon",
    "what language should I reply in",
    "用户对什么药物过敏",
    "用户住在哪里",
    "what music does the user like",
    "any upcoming events I should know about",
    "what is the user's job",
    "can I call the user in the evening",
    "recommend a book",
]

OBSERVE_TURNS: list[tuple[str, str]] = [
    ("Hi, I'm planning a trip to Lisbon in May", "user"),
    ("Great! Do you have any preferences for the hotel?", "assistant"),
    ("I prefer SMS over email for updates", "user"),
    ("I'm allergic to penicillin", "user"),
    ("Noted. Anything else I should keep in mind?", "assistant"),
    ("Keep hotels under 150 euros a night", "user"),
    ("I live in Berlin and work as a nurse", "user"),
    ("我对花生过敏，请不要推荐含花生的菜", "user"),
    ("what's the weather going to be like there", "user"),
    ("Actually, email is fine too", "user"),
]


def entity_records(
    user: str, count: int, rng: np.random.Generator, base: datetime
) -> list[MemoryRecord]:
    """``count`` entity rows of one user; with ``count >= 2`` the first key has 2 versions."""
    versioned = count >= 2
    n_keys = min(count - versioned, len(_ENTITIES))
    picks = rng.choice(len(_ENTITIES), size=n_keys, replace=False)
    out: list[MemoryRecord] = []
    for n, i in enumerate(picks):
        kind, key, hard, options = _ENTITIES[int(i)]
        value, span = options[int(rng.integers(len(options)))]
        at = base + timedelta(days=int(rng.integers(0, 300)), minutes=int(rng.integers(0, 1440)))
        rec = MemoryRecord(
            user_id=user,
            kind=kind,
            key=key,
            value=value,
            normalized=value.lower(),
            source=Source.USER_DECLARE,
            confidence=0.95 if hard else float(rng.uniform(0.6, 0.95)),
            created_at=at,
            updated_at=at,
            hard=hard,
            permanent=hard,
            provenance=Provenance(session_id=f"s{n:03d}", turn_id="t0", at=at, span=span),
        )
        if n == 0 and versioned:  # a superseded older version of the first key
            old = rec.replace(
                id=f"{rec.id}-v1",
                value=f"not {value}",
                normalized=f"not {value.lower()}",
                status=Status.SUPERSEDED,
                created_at=at - timedelta(days=30),
                updated_at=at,
            )
            rec = rec.replace(version=2, supersedes=old.id)
            out.append(old)
        out.append(rec)
    return out


# --------------------------------------------------------------------------- bulk load
def user_name(i: int) -> str:
    """The id of bulk-loaded user ``i``."""
    return f"user-{i:06d}"


def _user_records(user_idx: int, count: int, rng: np.random.Generator) -> list[MemoryRecord]:
    """``count`` records for one user: ~30% entity rows (with versions), the rest episodes."""
    user = user_name(user_idx)
    n_ent = min(count, max(1, int(count * 0.3 + 0.5)))
    out = entity_records(user, n_ent, rng, BASE_TIME)[:count]
    session, turn = 0, 0
    start = BASE_TIME + timedelta(days=int(rng.integers(0, 300)))
    while len(out) < count:
        if turn >= 8:
            session, turn = session + 1, 0
        at = start + timedelta(days=session * 3, minutes=turn)
        role = "user" if turn % 2 == 0 else "assistant"
        sid = f"s{session:03d}"
        out.append(
            MemoryRecord(
                user_id=user,
                kind=Kind.EPISODE,
                key=f"turn:{sid}:t{turn}",
                value=EPISODE_TEXTS[int(rng.integers(len(EPISODE_TEXTS)))],
                source=Source.USER_DECLARE if role == "user" else Source.INFERRED,
                confidence=1.0,
                created_at=at,
                updated_at=at,
                provenance=Provenance(
                    session_id=sid, turn_id=f"t{turn}", turn_index=turn, at=at, role=role
                ),
                metadata={"role": role},
            )
        )
        turn += 1
    return out


def build(
    path: Path,
    size: int,
    users: int,
    *,
    vectors_from: str = "hashing",
    chunk: int = 20_000,
    seed: int = 0,
) -> float:
    """Bulk-load ``size`` memories over ``users`` users into the SQLite file ``path``.

    Args:
        path: the SQLite file to create.
        size: memories (rows in ``records``) to write.
        users: users they are spread over.
        vectors_from: ``"hashing"`` (the 384-d hashing embedding of each record's text,
            so the precomputed hashing query vectors find related memories) or
            ``"random"`` (random unit vectors: dense search never matches).
        chunk: records per ``apply`` / ``upsert`` batch.
        seed: random seed.

    Returns:
        Seconds taken.
    """
    rng = np.random.default_rng(seed)
    hasher = HashingEmbedder(DIM)
    memo: dict[str, Vector] = {}

    def text_vector(rec: MemoryRecord) -> Vector:
        text = record_text(rec)
        vec = memo.get(text)
        if vec is None:
            vec = memo[text] = hasher.embed([text])[0]
        return vec

    backends = open_sqlite(f"sqlite:///{path}")
    records, vectors = backends.records, backends.vectors
    db: Any = getattr(records, "db", None)
    if db is not None:  # a big page cache for the bulk load only (this connection)
        with db.read() as conn:
            conn.execute("PRAGMA cache_size=-400000")
    started = time.perf_counter()
    per_user, extra = divmod(size, users)
    pending: list[MemoryRecord] = []
    loaded = 0

    def flush() -> None:
        nonlocal loaded
        records.apply(WriteBatch(records=list(pending)))
        active = [r for r in pending if r.status is Status.ACTIVE]
        if vectors_from == "random":
            mat = rng.standard_normal((len(active), DIM), dtype=np.float32)
            mat /= np.linalg.norm(mat, axis=1, keepdims=True)
        else:
            mat = (
                np.stack([text_vector(r) for r in active])
                if active
                else np.zeros((0, DIM), dtype=np.float32)
            )
        vectors.upsert(
            [
                VectorItem(
                    record_id=r.id,
                    user_id=r.user_id,
                    system_context=r.system_context,
                    kind=r.kind,
                    key=r.key,
                    vector=mat[i],
                )
                for i, r in enumerate(active)
            ]
        )
        loaded += len(pending)
        pending.clear()

    for u in range(users):
        pending.extend(_user_records(u, per_user + (1 if u < extra else 0), rng))
        if len(pending) >= chunk:
            flush()
            if loaded % 200_000 < chunk:
                _log(f"  loaded {loaded:,}/{size:,} ({time.perf_counter() - started:.0f}s)")
    if pending:
        flush()
    records.close()
    vectors.close()
    backends.sessions.close()
    return time.perf_counter() - started


# --------------------------------------------------------------------------- stage timing
@dataclass
class StageSink:
    """Wall time per stage of the current operation."""

    current: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def reset(self) -> dict[str, float]:
        """Return the stages of the finished operation and start a new one."""
        done, self.current = dict(self.current), defaultdict(float)
        return done


def _find_label(flt: Any) -> str:
    if getattr(flt, "also_ids", None) or getattr(flt, "statuses", None) == ():
        return "records.find (the one read: hits + structured records)"
    if getattr(flt, "kinds", None) == (Kind.CONSTRAINT,):
        return "records.find (hard constraints, when an inference is a candidate)"
    return "records.find (other)"


class Timed:
    """A transparent proxy that times calls to ``methods`` of ``inner`` into ``sink``.

    Args:
        inner: the store / index / embedder to wrap.
        prefix: stage label prefix ("records", "vectors", "embedder").
        sink: where the times go.
        methods: method names to time; other attributes pass through untimed.
    """

    def __init__(self, inner: Any, prefix: str, sink: StageSink, methods: Sequence[str]) -> None:
        self._inner, self._prefix, self._sink, self._methods = inner, prefix, sink, set(methods)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name not in self._methods:
            return attr

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return attr(*args, **kwargs)
            finally:
                label = f"{self._prefix}.{name}"
                if name == "find" and args and isinstance(args[0], RecordFilter):
                    label = _find_label(args[0])
                elif name == "apply":
                    label = "records.apply (read audit write)"
                self._sink.current[label] += time.perf_counter() - started

        return timed


# --------------------------------------------------------------------------- measurements
@contextmanager
def open_memory(path: Path, embedder: Any, sink: StageSink | None = None) -> Iterator[Any]:
    """A ``UserMemory`` over the file (fresh caches), optionally with timed stores."""
    backends = open_sqlite(f"sqlite:///{path}")
    records: Any = backends.records
    vectors: Any = backends.vectors
    emb = embedder
    if sink is not None:
        records = Timed(records, "records", sink, ["find", "lexical_search", "get", "apply"])
        vectors = Timed(vectors, "vectors", sink, ["search"])
        emb = Timed(embedder, "embedder", sink, ["embed"])
    mem = UserMemory(
        Backends(records=records, vectors=vectors, sessions=backends.sessions), embedder=emb
    )
    try:
        yield mem
    finally:
        mem.close()


def measure_recall(
    path: Path, embedder: Any, users: Sequence[str], *, rng: np.random.Generator, k: int = 5
) -> dict[str, Any]:
    """Cold (first) and warm (second) recall latency for each of ``users``."""
    wall: dict[str, list[float]] = {"cold": [], "warm": []}
    cpu: dict[str, list[float]] = {"cold": [], "warm": []}
    hits = 0
    with open_memory(path, embedder) as mem:
        mem.recall(user_name(0), "warm up the code path", k=k)
        for user in users:
            q1, q2 = (QUERIES[int(i)] for i in rng.choice(len(QUERIES), 2, replace=False))
            for phase, q in (("cold", q1), ("warm", q2)):
                t, c = time.perf_counter(), time.thread_time()
                got = mem.recall(user, q, k=k)
                cpu[phase].append(time.thread_time() - c)
                wall[phase].append(time.perf_counter() - t)
                hits += bool(got)
    return {
        "cold": percentiles(wall["cold"]),
        "warm": percentiles(wall["warm"]),
        "cold_cpu": percentiles(cpu["cold"]),
        "warm_cpu": percentiles(cpu["warm"]),
        "hit_rate": hits / max(1, 2 * len(users)),
    }


def measure_breakdown(
    path: Path, embedder: Any, users: Sequence[str], *, rng: np.random.Generator, k: int = 5
) -> dict[str, Any]:
    """Per-stage wall time of cold and warm recalls, and a cProfile of warm recalls."""
    sink = StageSink()
    out: dict[str, Any] = {}
    with open_memory(path, embedder, sink) as mem:
        mem.recall(user_name(0), "warm up the code path", k=k)
        sink.reset()
        per: dict[str, list[dict[str, float]]] = {"cold": [], "warm": []}
        for user in users:
            for phase in ("cold", "warm"):
                q = QUERIES[int(rng.integers(len(QUERIES)))]
                t = time.perf_counter()
                mem.recall(user, q, k=k)
                total = time.perf_counter() - t
                stages = sink.reset()
                stages["other (rewrite, fuse, score, checks)"] = total - sum(stages.values())
                stages["total"] = total
                per[phase].append(stages)
        for phase, rows in per.items():
            labels = sorted({lbl for r in rows for lbl in r})
            out[phase] = {
                lbl: {
                    "mean_ms": statistics.fmean(r.get(lbl, 0.0) for r in rows) * 1e3,
                    "p50_ms": statistics.median(r.get(lbl, 0.0) for r in rows) * 1e3,
                    "p95_ms": percentiles([r.get(lbl, 0.0) for r in rows])["p95"],
                }
                for lbl in labels
            }
        prof = cProfile.Profile()
        prof.enable()
        for user in users:  # all warm now
            for q in QUERIES[:4]:
                mem.recall(user, q, k=k)
        prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(14)
    out["cprofile_tottime"] = _trim_pstats(buf.getvalue())
    return out


def measure_embed(embedder: Any, n: int) -> dict[str, Any]:
    """Single-query ``embed`` latency alone (distinct texts), wall and thread CPU."""
    wall: list[float] = []
    cpu: list[float] = []
    for i in range(n):
        text = f"{rewrite(QUERIES[i % len(QUERIES)]).text} {i}"
        t, c = time.perf_counter(), time.thread_time()
        embedder.embed([text])
        cpu.append(time.thread_time() - c)
        wall.append(time.perf_counter() - t)
    return {"wall": percentiles(wall), "cpu": percentiles(cpu), "loadavg": loadavg()}


def noise_floor(n: int = 200, work: int = 4000) -> dict[str, Any]:
    """Wall vs CPU time of a fixed pure-Python loop: the machine's scheduling noise.

    On an idle machine wall ~= CPU; the gap is what contention from other processes adds
    to any measurement taken at the same time (``work=4000`` is ~0.2 ms, ``120_000`` ~5 ms:
    work longer than a scheduler slice is preempted more often on a busy machine).
    """
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(n):
        t, c = time.perf_counter(), time.thread_time()
        acc = 0
        for i in range(work):
            acc += i * i
        cpu.append(time.thread_time() - c)
        wall.append(time.perf_counter() - t)
    return {"wall": percentiles(wall), "cpu": percentiles(cpu), "loadavg": loadavg()}


def _trim_pstats(text: str) -> str:
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
    keep = [line.replace(str(Path(sys.prefix)), "<venv>") for line in lines[start:]]
    root = str(Path(__file__).resolve().parents[1])
    return "\n".join(line.replace(root + "/", "") for line in keep if line.strip())


def measure_observe(path: Path, embedder: Any, *, turns: int, tag: str) -> dict[str, Any]:
    """Observe ``turns`` turns (10 per new user) through the rule extractor."""
    samples: list[float] = []
    cpu: list[float] = []
    changes = 0
    with open_memory(path, embedder) as mem:
        mem.observe(f"obs-warmup-{tag}", "I prefer tea in the morning")
        started = time.perf_counter()
        for i in range(turns):
            user = f"obs-{tag}-{i // 10:05d}"
            text, role = OBSERVE_TURNS[i % len(OBSERVE_TURNS)]
            t, c = time.perf_counter(), time.thread_time()
            got = mem.observe(user, text, role=role, session_id=f"{user}-s0")
            cpu.append(time.thread_time() - c)
            samples.append(time.perf_counter() - t)
            changes += len(got)
        wall = time.perf_counter() - started
    return {
        "latency": percentiles(samples),
        "cpu": percentiles(cpu),
        "throughput_per_s": turns / wall,
        "changes": changes,
    }


# --------------------------------------------------------------------------- report
def _fmt(p: dict[str, float]) -> str:
    return f"{p['p50']:.2f} / {p['p95']:.2f}"


def render(report: dict[str, Any]) -> str:
    """The markdown tables of a finished run."""
    env = report["environment"]
    lines = [
        "# Recall / observe latency (embedded SQLite file)",
        "",
        f"Machine: {env['cpus']} CPUs, Python {env['python']}, SQLite {env['sqlite']}, "
        f"{env['platform']}; run {env['started']}; users {report['users']}, "
        f"{report['queries']} sampled users per mode, k={report['k']}; stored vectors: "
        f"{report.get('vectors', 'random')}; first CJK tokenize (jieba init, once per "
        f"process, excluded by a warm-up): {env.get('first_cjk_tokenize_s', '?')} s.",
        "Times are milliseconds, p50 / p95: wall clock, and the CPU time of the calling "
        "thread (what the code costs, without waiting for a core on a loaded machine). "
        "`cold` = the user's first recall in the process (vectors + lexical corpus loaded "
        "from SQLite), `warm` = the next one. Hit rate = recalls that returned something.",
        "",
        "## Recall",
        "",
        "| memories | per user | build s | query embedding | cold wall | cold CPU "
        "| warm wall | warm CPU | hit rate | load avg (1m) |",
        "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in report["sizes"]:
        for mode, r in s["recall"].items():
            lines.append(
                f"| {s['size']:,} | {s['per_user']} | {s['build_s']:.0f} | {mode} | "
                f"{_fmt(r['cold'])} | {_fmt(r['cold_cpu'])} | {_fmt(r['warm'])} | "
                f"{_fmt(r['warm_cpu'])} | {r['hit_rate']:.2f} | {r['loadavg'][0]} |"
            )
    lines += [
        "",
        "## Observe (rule extractor, one thread)",
        "",
        "| memories in file | embedder | wall p50 / p95 | CPU p50 / p95 | turns/s "
        "| load avg (1m) |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for s in report["sizes"]:
        for name, o in s["observe"].items():
            lines.append(
                f"| {s['size']:,} | {name} | {_fmt(o['latency'])} | {_fmt(o['cpu'])} | "
                f"{o['throughput_per_s']:.0f} | {o['loadavg'][0]} |"
            )
    for size in (s for s in report["sizes"] if s.get("breakdown")):
        bd = size["breakdown"]
        lines += [
            "",
            f"## Where recall time goes ({size['size']:,} memories, precomputed query vector)",
            "",
            "Wall ms per recall, each store/embedder call timed through a proxy.",
            "",
            "| stage | cold mean | cold p95 | warm mean | warm p95 |",
            "|---|---:|---:|---:|---:|",
        ]
        for lbl in sorted(bd["cold"], key=lambda lbl: -bd["cold"][lbl]["mean_ms"]):
            c, w = bd["cold"][lbl], bd["warm"].get(lbl, {"mean_ms": 0.0, "p95_ms": 0.0})
            lines.append(
                f"| {lbl} | {c['mean_ms']:.3f} | {c['p95_ms']:.3f} | "
                f"{w['mean_ms']:.3f} | {w['p95_ms']:.3f} |"
            )
    if report["sizes"] and report["sizes"][-1].get("breakdown"):
        lines += [
            "",
            f"cProfile of warm recalls at {report['sizes'][-1]['size']:,} memories "
            "(top functions by own time):",
            "",
            "```",
            report["sizes"][-1]["breakdown"]["cprofile_tottime"],
            "```",
        ]
    lines += [
        "",
        "## Query embedding alone (one text per call, text cache off)",
        "",
        "| embedder | wall p50 / p95 | CPU p50 / p95 | load avg (1m) |",
        "|---|---:|---:|---:|",
    ]
    for name, e in report.get("embed_only", {}).items():
        lines.append(f"| {name} | {_fmt(e['wall'])} | {_fmt(e['cpu'])} | {e['loadavg'][0]} |")
    for when in ("start", "end"):
        for nf in report.get(f"noise_floor_{when}", []):
            lines.append(
                f"| noise floor at {when}: a fixed {nf['cpu']['p50']:.2f} ms CPU loop | "
                f"{_fmt(nf['wall'])} | {_fmt(nf['cpu'])} | {nf['loadavg'][0]} |"
            )
    lines += ["", "## Targets (largest size)", ""]
    lines += [f"- {t}" for t in report.get("verdicts", [])]
    return "\n".join(lines) + "\n"


def verdicts(report: dict[str, Any]) -> list[str]:
    """Met / missed lines for the issue's targets at the largest size measured."""
    if not report["sizes"]:
        return []
    s = report["sizes"][-1]
    out = []

    def judge(name: str, wall: dict[str, float], cpu: dict[str, float], target: float) -> None:
        ok = "MET" if wall["p95"] < target else "MISSED"
        ok_cpu = "MET" if cpu["p95"] < target else "MISSED"
        out.append(
            f"{name}: wall p95 {wall['p95']:.2f} ms -> {ok}; CPU p95 {cpu['p95']:.2f} ms"
            f" -> {ok_cpu} (target < {target:.0f} ms)"
        )

    rec = s["recall"]
    if "precomputed" in rec:
        for phase in ("cold", "warm"):
            judge(
                f"recall excl. embedding, {phase}, {s['size']:,}",
                rec["precomputed"][phase],
                rec["precomputed"][f"{phase}_cpu"],
                TARGETS_MS["recall_no_embed_p95"],
            )
    for mode in (m for m in rec if m != "precomputed"):
        for phase in ("cold", "warm"):
            judge(
                f"recall incl. {mode} embedding, {phase}, {s['size']:,}",
                rec[mode][phase],
                rec[mode][f"{phase}_cpu"],
                TARGETS_MS["recall_embed_p95"],
            )
    for name, o in s["observe"].items():
        judge(f"observe ({name}), {s['size']:,}", o["latency"], o["cpu"], TARGETS_MS["observe_p95"])
    return out


# --------------------------------------------------------------------------- main
def run_size(
    size: int, args: argparse.Namespace, workdir: Path, embedders: dict[str, Any]
) -> dict[str, Any]:
    """Build (or reuse) one file and run every measurement on it."""
    path = workdir / f"recall_{size}_{args.users}_{args.vectors}.db"
    done = path.with_suffix(".built")
    build_s = float(done.read_text()) if args.reuse and done.exists() else -1.0
    if build_s < 0:
        for p in workdir.glob(path.name + "*"):
            p.unlink()
        _log(f"building {size:,} memories over {args.users:,} users -> {path}")
        build_s = build(path, size, args.users, vectors_from=args.vectors)
        done.write_text(f"{build_s:.1f}")
    _log(f"  built in {build_s:.1f}s; file {path.stat().st_size / 2**20:.0f} MB")
    rng = np.random.default_rng(args.seed + size)
    n_modes = 1 + len([m for m in embedders if m != "hashing"]) + 1
    # user 0 warms the code path up, so it is never sampled (it would not be cold)
    pool = np.arange(1, args.users)
    sample = rng.choice(pool, size=min(pool.size, args.queries * n_modes), replace=False)
    groups = [
        [user_name(int(u)) for u in sample[i::n_modes]] for i in range(n_modes)
    ]  # disjoint user sets: every mode sees cold users
    result: dict[str, Any] = {
        "size": size,
        "per_user": round(size / args.users, 1),
        "build_s": build_s,
        "recall": {},
        "observe": {},
    }
    pre = PrecomputedEmbedder(embedders["hashing"])
    pre.prime([rewrite(q).text for q in [*QUERIES, "warm up the code path"]])
    modes: list[tuple[str, Any]] = [("precomputed", pre)]
    modes += [(name, e) for name, e in embedders.items() if name != "hashing"]
    for (mode, emb), users in zip(modes, groups, strict=False):
        r = measure_recall(path, emb, users, rng=rng, k=args.k)
        r["loadavg"] = loadavg()
        result["recall"][mode] = r
        _log(
            f"  recall {mode:<12} cold {_fmt(r['cold'])}  warm {_fmt(r['warm'])} ms"
            f"  load {r['loadavg']}"
        )
    if pre.misses:
        _log(f"  warning: {pre.misses} query vectors were not precomputed")
    if args.breakdown:
        result["breakdown"] = measure_breakdown(path, pre, groups[-1], rng=rng, k=args.k)
    for name, emb in embedders.items():
        o = measure_observe(path, emb, turns=args.observe_turns, tag=f"{name}-{size}")
        o["loadavg"] = loadavg()
        result["observe"][name] = o
        _log(
            f"  observe {name:<8} {_fmt(o['latency'])} ms, {o['throughput_per_s']:.0f} turns/s"
            f"  load {o['loadavg']}"
        )
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse arguments, run every size, print the markdown report; return it as a dict."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000,1000000", help="comma-separated")
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--vectors", choices=("hashing", "random"), default="hashing")
    ap.add_argument("--queries", type=int, default=300, help="sampled users per recall mode")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--observe-turns", type=int, default=300)
    ap.add_argument(
        "--embedders",
        default="hashing,onnx,torch",
        help="comma-separated; hashing is always added (it backs the precomputed query vectors)",
    )
    ap.add_argument("--onnx-cache", type=Path, default=None, help="ONNX export directory")
    ap.add_argument("--dir", type=Path, default=None, help="keep the files here (else a tmp dir)")
    ap.add_argument("--reuse", action="store_true", help="reuse files already built in --dir")
    ap.add_argument("--no-breakdown", dest="breakdown", action="store_false")
    ap.add_argument("--out", type=Path, default=None, help="write OUT.md and OUT.json")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    names = [x.strip() for x in args.embedders.split(",") if x.strip()]
    if "hashing" not in names:
        names.insert(0, "hashing")
    if "torch" in names:
        import torch

        torch.set_num_threads(1)
    embedders = {n: make_embedder(n, onnx_cache=args.onnx_cache) for n in names}
    for name, emb in embedders.items():
        t = time.perf_counter()
        emb.embed(["load the model"])
        _log(f"embedder {name}: ready in {time.perf_counter() - t:.1f}s")
    t = time.perf_counter()
    tokenize("用户喜欢喝什么")  # jieba's one-off dictionary load (lazy, on the first CJK text)
    jieba_s = time.perf_counter() - t
    _log(f"first CJK tokenize (jieba init): {jieba_s:.1f}s")
    workdir = args.dir or Path(tempfile.mkdtemp(prefix="usermemory-recall-"))
    workdir.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {
        "environment": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "platform": platform.platform(),
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "loadavg_start": loadavg(),
            "first_cjk_tokenize_s": round(jieba_s, 2),
        },
        "users": args.users,
        "vectors": args.vectors,
        "queries": args.queries,
        "k": args.k,
        "embed_only": {n: measure_embed(e, args.queries) for n, e in embedders.items()},
        "noise_floor_start": [noise_floor(), noise_floor(40, 120_000)],
        "sizes": [],
    }
    try:
        for size in sizes:
            report["sizes"].append(run_size(size, args, workdir, embedders))
    finally:
        if args.dir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    report["environment"]["loadavg_end"] = loadavg()
    report["noise_floor_end"] = [noise_floor(), noise_floor(40, 120_000)]
    report["verdicts"] = verdicts(report)
    text = render(report)
    text += f"\nLoad average at start {report['environment']['loadavg_start']}, "
    text += f"at end {report['environment']['loadavg_end']}.\n"
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.with_suffix(".md").write_text(text, encoding="utf-8")
        args.out.with_suffix(".json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    return report


def _entry() -> None:
    main()


if __name__ == "__main__":
    _entry()
