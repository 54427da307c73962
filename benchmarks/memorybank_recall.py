"""Long-horizon recall on public conversations (MemoryBank, English and Chinese).

Every turn of the 15 + 15 MemoryBank users is observed through the public API (one
session per date, the date as the turn's time, the user's words as ``role="user"`` and the
reply as ``role="assistant"``, ``end_session`` after each day). Each of the 200 probing
questions is then asked the day after the last dialogue, and the ranked turns are compared
with hand-made evidence labels (``memorybank_labels.jsonl``: which turn(s) answer each
probe, and whether the user's words or the assistant's reply hold the answer).

Systems compared on the same turns:

* ``bm25``    - plain Okapi BM25 (``bm25s``) over the raw turns; English: lowercased words,
  English stopwords, Snowball stemmer; Chinese: ``jieba.lcut`` words.
* ``dense``   - cosine similarity of the project's ONNX MiniLM embeddings over the turns.
* ``recall``  - ``UserMemory.recall(user, question, k=10)``.
* ``context`` - ``UserMemory.context(user, question)`` (default 400-token budget): an
  evidence turn counts when its text appears in the block.

A turn is one speaker's utterance (the user's words and the assistant's reply are separate
items, as UserMemory stores them). A returned item *contains* a labelled turn when it is
that turn's episode, a memory extracted from that turn, or a session summary quoting it;
evidence labelled ``both`` is found by either half of the exchange.

Metrics per probe: recall@k = share of the probe's evidence turns found in the top k;
nDCG@10 with binary gains. Averages are per language and per question type
(what-I-said / what-you-said / when / preference). Probes labelled unanswerable are left
out and counted. The labelled probes are split by user (seed 11) into a dev half (for
tuning) and a test half (reported separately).

The generated long-horizon set (``evalset.py``) adds its episodic probes: a probe whose key
was stated in earlier sessions; the evidence is the user turns of those sessions that the
generator wrote for the probed key (each such turn carries ``"key"`` in the generated data),
not the other statements that happen to share the session; the same systems answer over
the turns seen so far.

The merged history (on unless ``--no-merged``) observes every MemoryBank user's dialogues of
a language as one user's, ~150 sessions and ~1,100 turns, and asks every probe of it: the
evidence must be found among fifteen times as many turns on similar topics (a stress test
of long histories on public text; see :func:`run_merged`).

Usage::

    python benchmarks/memorybank_recall.py [--data ../shared/data/memorybank]

prints markdown and writes ``benchmarks/results/memorybank_recall.{md,json}``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared_core import MemoryConfig, UserMemory  # noqa: E402
from shared_core.clock import FakeClock  # noqa: E402
from shared_core.entities import Kind, MemoryRecord  # noqa: E402

LANGS = {"en": "en", "zh": "cn"}  # our language code -> the dataset's file suffix
TYPES = ("what-I-said", "what-you-said", "when", "preference")
SYSTEMS = ("bm25", "dense", "recall", "context")
KS = (1, 3, 5, 10)
SPLIT_SEED = 11
PROBE_AT = datetime(2023, 5, 7, 10, 0, tzinfo=UTC)  # the day after the last dialogue

TurnKey = tuple[str, int, str]  # (session, turn index, "user" | "assistant")


@dataclass(frozen=True, slots=True)
class Turn:
    date: str
    index: int
    role: str
    text: str
    who: str = ""  # whose dialogue, in the merged history ("" = one user's own history)

    @property
    def session(self) -> str:
        """The session id: the date, or ``<who>_<date>`` in the merged history."""
        return f"{self.who}_{self.date}" if self.who else self.date

    @property
    def key(self) -> TurnKey:
        return (self.session, self.index, self.role)

    @property
    def turn_id(self) -> str:
        return f"{self.session}-{self.index}-{self.role[0]}"


@dataclass(slots=True)
class Probe:
    lang: str
    user: str
    index: int
    question: str
    type: str
    evidence: list[tuple[str, int, str]]  # (date, turn index, user | assistant | both)
    split: str = "all"
    ranks: dict[str, list[int | None]] = field(default_factory=dict)  # system -> rank per ev


# -- data ------------------------------------------------------------------------------------
def load_dialogues(data: Path, lang: str) -> dict[str, list[Turn]]:
    raw = json.loads((data / f"memory_bank_{LANGS[lang]}.json").read_text("utf-8"))
    out: dict[str, list[Turn]] = {}
    for name, user in raw.items():
        turns: list[Turn] = []
        for date, pairs in sorted(user["history"].items()):
            for i, pair in enumerate(pairs):
                turns.append(Turn(date, i, "user", pair["query"]))
                turns.append(Turn(date, i, "assistant", pair["response"]))
        out[name.strip()] = turns
    return out


def load_questions(data: Path, lang: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    path = data / f"probing_questions_{LANGS[lang]}.jsonl"
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            out.update({k.strip(): v for k, v in json.loads(line).items()})
    return out


def load_probes(data: Path, labels: Path) -> tuple[list[Probe], int]:
    """Labelled, answerable probes (with their dev/test split) and the unanswerable count."""
    questions = {lang: load_questions(data, lang) for lang in LANGS}
    probes, unanswerable = [], 0
    for line in labels.read_text("utf-8").splitlines():
        row = json.loads(line)
        if not row["answerable"]:
            unanswerable += 1
            continue
        probes.append(
            Probe(
                lang=row["lang"],
                user=row["user"],
                index=row["probe"],
                question=questions[row["lang"]][row["user"]][row["probe"]],
                type=row["type"],
                evidence=[(e["date"], e["turn"], e["role"]) for e in row["evidence"]],
            )
        )
    for lang in LANGS:
        users = sorted({p.user for p in probes if p.lang == lang})
        random.Random(SPLIT_SEED).shuffle(users)
        dev = set(users[: len(users) // 2])
        for p in probes:
            if p.lang == lang:
                p.split = "dev" if p.user in dev else "test"
    return probes, unanswerable


# -- baselines over turns ----------------------------------------------------------------------
_WORDISH = re.compile(r"[\w\u4e00-\u9fff]", re.UNICODE)


class Bm25Turns:
    """Plain Okapi BM25 over one user's turns (bm25s)."""

    def __init__(self, texts: Sequence[str], lang: str) -> None:
        import bm25s

        self._lang = lang
        self._stemmer = None
        if lang == "en":
            import Stemmer

            self._stemmer = Stemmer.Stemmer("english")
        self._bm25 = bm25s.BM25()
        self._bm25.index(self._tok(texts), show_progress=False)
        self._n = len(texts)

    def _tok(self, texts: Sequence[str]) -> Any:
        import bm25s

        if self._lang == "en":
            return bm25s.tokenize(
                list(texts), stopwords="en", stemmer=self._stemmer, show_progress=False
            )
        import jieba

        return [[w for w in jieba.lcut(t.lower()) if _WORDISH.search(w)] or ["∅"] for t in texts]

    def rank(self, query: str, k: int = 10) -> list[int]:
        q = self._tok([query])
        if self._lang == "zh":
            vocab = self._bm25.vocab_dict
            q = [[w for w in q[0] if w in vocab]]
            if not q[0]:
                return []
        elif not len(q.ids[0]):
            return []
        docs, scores = self._bm25.retrieve(q, k=min(k, self._n), show_progress=False)
        return [int(d) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]


class DenseTurns:
    """Cosine similarity over one user's turns with the project's embedder."""

    def __init__(self, texts: Sequence[str], embed: Callable[[list[str]], Any]) -> None:
        self._embed = embed
        m = np.asarray(embed(list(texts)), dtype=np.float32)
        self._m = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)

    def rank(self, query: str, k: int = 10) -> list[int]:
        q = np.asarray(self._embed([query])[0], dtype=np.float32)
        q = q / max(float(np.linalg.norm(q)), 1e-9)
        sims = self._m @ q
        return [int(i) for i in np.argsort(-sims)[:k]]


# -- matching --------------------------------------------------------------------------------
def _norm(text: str) -> str:
    return re.sub(r"[\s\"'`\\“”‘’]+", "", text).casefold()


def item_turns(
    rec: MemoryRecord, by_id: dict[str, Turn], by_session: dict[str, list[Turn]]
) -> set[TurnKey]:
    """The labelled turns a returned record contains."""
    tid = rec.provenance.turn_id
    if tid and tid in by_id:  # the turn's episode, or a memory extracted from it
        return {by_id[tid].key}
    if rec.kind is Kind.EPISODE and rec.key.startswith("session:"):  # a session summary
        body = _norm(rec.value)
        sid = rec.key.split(":", 1)[1]
        return {
            t.key
            for t in by_session.get(sid, [])
            if len(_norm(t.text)) > 8 and _norm(t.text)[:60] in body
        }
    return set()


def matches(ev: tuple[str, int, str], got: set[TurnKey]) -> bool:
    date, idx, role = ev
    if role == "both":
        return (date, idx, "user") in got or (date, idx, "assistant") in got
    return (date, idx, role) in got


def ranks_of(
    evidence: Sequence[tuple[str, int, str]], ranked: Sequence[set[TurnKey]]
) -> list[int | None]:
    """1-based rank at which each evidence turn is first found (None: not in the list)."""
    out: list[int | None] = []
    for ev in evidence:
        out.append(next((i for i, got in enumerate(ranked, 1) if matches(ev, got)), None))
    return out


def ndcg10(evidence: Sequence[Any], ranked: Sequence[set[TurnKey]]) -> float:
    credited: set[int] = set()
    dcg = 0.0
    for i, got in enumerate(ranked[:10], 1):
        new = [j for j, ev in enumerate(evidence) if j not in credited and matches(ev, got)]
        if new:
            credited.update(new)
            dcg += 1.0 / math.log2(i + 1)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(len(evidence), 10) + 1))
    return dcg / ideal if ideal else 0.0


# -- the run ---------------------------------------------------------------------------------
def _turn_time(date: str, index: int, role: str) -> datetime:
    day = datetime.fromisoformat(date).replace(hour=20, tzinfo=UTC)
    return day + timedelta(minutes=2 * index + (1 if role == "assistant" else 0))


def observe_all(mem: UserMemory, clock: FakeClock, user: str, turns: Sequence[Turn]) -> float:
    """Observe a user's dialogues, one session per date; returns seconds spent in observe."""
    spent = 0.0
    by_date: dict[str, list[Turn]] = defaultdict(list)
    for t in turns:
        by_date[t.date].append(t)
    for date, day in sorted(by_date.items()):
        for t in day:
            at = _turn_time(t.date, t.index, t.role)
            clock.set(at)
            started = time.perf_counter()
            mem.observe(user, t.text, role=t.role, session_id=date, turn_id=t.turn_id, at=at)
            spent += time.perf_counter() - started
        end = _turn_time(date, 99, "assistant")
        clock.set(end)
        mem.end_session(user, date, at=end)
    return spent


@dataclass(slots=True)
class Row:
    """One probe's outcome: evidence ranks per system, nDCG, and context() hits."""

    group: str  # "memorybank" | "generated"
    lang: str
    type: str
    split: str
    ranks: dict[str, list[int | None]]
    ndcg: dict[str, float]
    ident: str
    context_tokens: int = 0


def run_memorybank(
    data: Path, labels: Path, mem: UserMemory, clock: FakeClock, embed: Any, token_budget: int
) -> tuple[list[Row], int, float, int]:
    probes, unanswerable = load_probes(data, labels)
    rows: list[Row] = []
    observe_s, n_turns = 0.0, 0
    for lang in LANGS:
        dialogues = load_dialogues(data, lang)
        for user, turns in dialogues.items():
            uid = f"{lang}-{user}".replace(" ", "_")
            observe_s += observe_all(mem, clock, uid, turns)
            n_turns += len(turns)
            asker = _Asker(mem, uid, turns, lang, embed, token_budget)
            clock.set(PROBE_AT)
            for p in (p for p in probes if p.lang == lang and p.user == user):
                rows.append(asker.row("memorybank", p, p.evidence))
    return rows, unanswerable, observe_s, n_turns


class _Asker:
    """Asks probes of one memory user and scores every system over the same turns."""

    def __init__(
        self,
        mem: UserMemory,
        uid: str,
        turns: Sequence[Turn],
        lang: str,
        embed: Callable[[list[str]], Any],
        token_budget: int,
    ) -> None:
        self.mem, self.uid, self.turns, self.lang = mem, uid, list(turns), lang
        self.token_budget = token_budget
        texts = [t.text for t in turns]
        self.bm25 = Bm25Turns(texts, lang)
        self.dense = DenseTurns(texts, embed)
        self.by_id = {t.turn_id: t for t in turns}
        self.by_session: dict[str, list[Turn]] = defaultdict(list)
        for t in turns:
            self.by_session[t.session].append(t)

    def row(self, group: str, p: Probe, evidence: Sequence[tuple[str, int, str]]) -> Row:
        from shared_core.tokens import count_tokens

        turns, mem, uid = self.turns, self.mem, self.uid
        ranked: dict[str, list[set[TurnKey]]] = {
            "bm25": [{turns[i].key} for i in self.bm25.rank(p.question)],
            "dense": [{turns[i].key} for i in self.dense.rank(p.question)],
            "recall": [
                item_turns(s.record, self.by_id, self.by_session)
                for s in mem.recall(uid, p.question, k=10, at=PROBE_AT)
            ],
        }
        block = mem.context(uid, p.question, token_budget=self.token_budget, at=PROBE_AT)
        nb = _norm(block)
        in_block = {t.key for t in turns if _norm(t.text)[:60] in nb}
        ranks = {name: ranks_of(evidence, r) for name, r in ranked.items()}
        ranks["context"] = [1 if matches(ev, in_block) else None for ev in evidence]
        return Row(
            group=group,
            lang=self.lang,
            type=p.type,
            split=p.split,
            ranks=ranks,
            ndcg={name: ndcg10(evidence, r) for name, r in ranked.items()},
            ident=f"{self.lang}/{p.user}/{p.index}",
            context_tokens=count_tokens(block),
        )


def run_merged(
    data: Path, labels: Path, mem: UserMemory, clock: FakeClock, embed: Any, token_budget: int
) -> list[Row]:
    """Every user's dialogues of a language as one user's history, each probe asked of it.

    Fifteen people's ten days become one history of ~150 sessions and ~1,100 turns per
    language (the sessions of a day interleaved, an hour and a half apart), so each probe's
    evidence must be found among fifteen times as many turns, most of them about
    similar topics. A stress test of long histories on public text: the questions say
    "I" and "you" for fifteen different people, which makes some of them ambiguous for
    every system alike.
    """
    probes, _ = load_probes(data, labels)
    rows: list[Row] = []
    for lang in LANGS:
        dialogues = load_dialogues(data, lang)
        who = {name: f"u{i:02d}" for i, name in enumerate(sorted(dialogues))}
        turns = [
            Turn(t.date, t.index, t.role, t.text, who[name])
            for name, ts in dialogues.items()
            for t in ts
        ]
        turns.sort(key=lambda t: (t.date, t.who, t.index, t.role != "user"))
        uid = f"merged-{lang}"
        sessions: dict[str, list[Turn]] = defaultdict(list)
        for t in turns:
            sessions[t.session].append(t)
        for sid, sess in sessions.items():
            t0 = sess[0]
            base = datetime.fromisoformat(t0.date).replace(tzinfo=UTC) + timedelta(
                minutes=90 * int(t0.who[1:])
            )
            for t in sess:
                at = base + timedelta(minutes=2 * t.index + (1 if t.role == "assistant" else 0))
                clock.set(at)
                mem.observe(uid, t.text, role=t.role, session_id=sid, turn_id=t.turn_id, at=at)
            end = base + timedelta(minutes=85)
            clock.set(end)
            mem.end_session(uid, sid, at=end)
        asker = _Asker(mem, uid, turns, lang, embed, token_budget)
        clock.set(PROBE_AT)
        for p in (p for p in probes if p.lang == lang):
            evidence = [(f"{who[p.user]}_{d}", i, r) for d, i, r in p.evidence]
            rows.append(asker.row("merged", p, evidence))
    return rows


def run_generated(
    mem: UserMemory, clock: FakeClock, embed: Any, users_en: int, users_zh: int, token_budget: int
) -> list[Row]:
    """Episodic probes of the generated long-horizon set, asked as the story unfolds."""
    import evalset

    data = evalset.generate(seed=7, users_en=users_en, users_zh=users_zh, sessions=(50,))
    rows: list[Row] = []
    for lang, users in data.items():
        for user in users:
            uid = f"gen-{user['user_id']}"
            probes = defaultdict(list)
            for p in user["probes"]:
                if p["expected"]["source_sessions"]:
                    probes[p["after_session"]].append(p)
            seen: list[Turn] = []
            ctx_of: list[str] = []
            stated: dict[TurnKey, str] = {}  # user turn -> the key it states
            for s in user["sessions"]:
                for j, t in enumerate(s["turns"]):
                    at = datetime.fromisoformat(t["at"])
                    clock.set(at)
                    turn = Turn(s["session_id"], j, t["role"], t["text"])
                    mem.observe(
                        uid,
                        t["text"],
                        role=t["role"],
                        session_id=s["session_id"],
                        turn_id=f"{s['session_id']}-{j}",
                        system_context=s["system_context"],
                        at=at,
                    )
                    seen.append(turn)
                    ctx_of.append(s["system_context"])
                    if t.get("key"):
                        stated[turn.key] = t["key"]
                end = datetime.fromisoformat(s["turns"][-1]["at"])
                mem.end_session(uid, s["session_id"], at=end)
                for p in probes.get(s["n"], []):
                    rows.append(
                        _generated_row(
                            mem, clock, embed, uid, lang, p, seen, ctx_of, stated, token_budget
                        )
                    )
    return rows


def _generated_row(
    mem: UserMemory,
    clock: FakeClock,
    embed: Any,
    uid: str,
    lang: str,
    p: dict[str, Any],
    seen: list[Turn],
    ctx_of: list[str],
    stated: dict[TurnKey, str],
    token_budget: int,
) -> Row:
    from shared_core.tokens import count_tokens

    ctx = p["system_context"]
    at = datetime.fromisoformat(p["at"])
    clock.set(at)
    turns = [t for t, c in zip(seen, ctx_of, strict=True) if c == ctx]
    sources = set(p["expected"]["source_sessions"])
    evidence = [t.key for t in turns if t.date in sources and stated.get(t.key) == p["key"]]
    by_id = {f"{t.date}-{t.index}": t for t in turns}
    by_session: dict[str, list[Turn]] = defaultdict(list)
    for t in turns:
        by_session[t.session].append(t)
    texts = [t.text for t in turns]
    ranked = {
        "bm25": [{turns[i].key} for i in Bm25Turns(texts, lang).rank(p["query"])],
        "dense": [{turns[i].key} for i in DenseTurns(texts, embed).rank(p["query"])],
        "recall": [
            item_turns(s.record, by_id, by_session)
            for s in mem.recall(uid, p["query"], k=10, system_context=ctx, at=at)
        ],
    }
    block = mem.context(uid, p["query"], token_budget=token_budget, system_context=ctx, at=at)
    nb = _norm(block)
    in_block = {t.key for t in turns if _norm(t.text)[:60] in nb}
    ranks = {name: ranks_of(evidence, r) for name, r in ranked.items()}
    ranks["context"] = [1 if matches(ev, in_block) else None for ev in evidence]
    return Row(
        group="generated",
        lang=lang,
        type="generated",
        split="all",
        ranks=ranks,
        ndcg={name: ndcg10(evidence, r) for name, r in ranked.items()},
        ident=p["id"],
        context_tokens=count_tokens(block),
    )


# -- summary ---------------------------------------------------------------------------------
def summarize(rows: Iterable[Row]) -> dict[str, Any]:
    rows = list(rows)
    out: dict[str, Any] = {"n": len(rows)}
    for name in SYSTEMS:
        per: dict[str, float] = {}
        for k in KS:
            vals = [
                sum(r is not None and r <= k for r in x.ranks[name]) / len(x.ranks[name])
                for x in rows
                if x.ranks[name]
            ]
            per[f"r@{k}"] = float(np.mean(vals)) if vals else float("nan")
        if name in ("bm25", "dense", "recall"):
            per["ndcg@10"] = float(np.mean([x.ndcg[name] for x in rows])) if rows else float("nan")
        else:
            per = {"in_block": per["r@1"]}
        out[name] = per
    out["context_tokens_mean"] = float(np.mean([x.context_tokens for x in rows])) if rows else 0.0
    return out


def _groups(rows: Sequence[Row]) -> dict[str, dict[str, Any]]:
    g: dict[str, dict[str, Any]] = {}
    for group, prefix in (("memorybank", ""), ("merged", "merged/")):
        picked = [r for r in rows if r.group == group]
        for split in ("all", "dev", "test"):
            for lang in LANGS:
                lr = [r for r in picked if r.lang == lang and split in ("all", r.split)]
                g[f"{prefix}{split}/{lang}/all"] = summarize(lr)
                for t in TYPES:
                    g[f"{prefix}{split}/{lang}/{t}"] = summarize([r for r in lr if r.type == t])
    gen = [r for r in rows if r.group == "generated"]
    for lang in LANGS:
        g[f"generated/{lang}"] = summarize([r for r in gen if r.lang == lang])
    return g


def _f(x: float) -> str:
    return "–" if x != x else f"{x:.3f}"


def _row(split: str, lang: str, kind: str, s: dict[str, Any]) -> str:
    b, d, r = s["bm25"], s["dense"], s["recall"]
    return (
        f"| {split} | {lang} | {kind} | {s['n']} | "
        + "/".join(_f(b[f"r@{k}"]) for k in KS)
        + f" | {_f(b['ndcg@10'])} | {_f(d['r@5'])} | {_f(d['ndcg@10'])} | "
        + "/".join(_f(r[f"r@{k}"]) for k in KS)
        + f" | {_f(r['ndcg@10'])} | {_f(s['context']['in_block'])} | "
        f"{s['context_tokens_mean']:.0f} |"
    )


def _type_rows(g: dict[str, Any], prefix: str) -> list[str]:
    """Table rows per split (all, test), language and question type of one group."""
    return [
        _row(split, lang, t, g[f"{prefix}{split}/{lang}/{t}"])
        for split in ("all", "test")
        for lang in LANGS
        for t in ("all", *TYPES)
        if g[f"{prefix}{split}/{lang}/{t}"]["n"]
    ]


def render(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    g = summary["groups"]
    lines = [
        "# Long-horizon recall on MemoryBank (public conversations)",
        "",
        f"Command: `{meta['command']}`  ",
        f"Machine: {meta['machine']}; embedder {meta['embedder']}; {meta['when']}  ",
        f"Labelled probes: {meta['answerable']} answerable, {meta['unanswerable']} unanswerable "
        "(left out); turns are single utterances (user and assistant separately).",
        "",
        "recall@k = share of a probe's evidence turns in the top k, averaged over probes; "
        "context = share of evidence turns whose text is in the `context()` block.",
        "",
    ]
    head = (
        "| split | lang | type | n | BM25 r@1/3/5/10 | BM25 nDCG | dense r@5 | dense nDCG "
        "| recall() r@1/3/5/10 | recall() nDCG | context() | ctx tokens |"
    )
    lines += [head, "|" + "---|" * 12, *_type_rows(g, "")]
    if any(g.get(f"merged/all/{lang}/all", {}).get("n") for lang in LANGS):
        lines += [
            "",
            "One merged history per language (skipped with `--no-merged`): every user's "
            "dialogues observed as one user's (~150 sessions), each probe asked of it:",
            "",
            head,
            "|" + "---|" * 12,
            *_type_rows(g, "merged/"),
        ]
    lines += [
        "",
        "Generated long-horizon set, episodic probes (evidence: the user turns, in the "
        "sessions that stated the value, that the generator wrote for the probed key):",
        "",
    ]
    lines += [head, "|" + "---|" * 12]
    for lang in LANGS:
        s = g[f"generated/{lang}"]
        if s["n"]:
            lines.append(_row("all", lang, "generated", s))
    for lang in LANGS:
        s = g[f"test/{lang}/all"]
        ratio = s["recall"]["r@5"] / s["bm25"]["r@5"] if s["bm25"]["r@5"] else float("nan")
        lines.append("")
        lines.append(
            f"Test half, {lang}: recall() r@5 {_f(s['recall']['r@5'])} vs BM25 "
            f"{_f(s['bm25']['r@5'])} = {ratio:.2f}x (target >= 1.15x)."
        )
    lines.append("")
    lines.append(
        f"Observe: {meta['observe_ms_per_turn']:.1f} ms per turn over {meta['turns']} turns."
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "memorybank")
    ap.add_argument(
        "--labels", type=Path, default=Path(__file__).parent / "memorybank_labels.jsonl"
    )
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    ap.add_argument("--embedder", choices=("onnx", "hashing"), default="onnx")
    ap.add_argument("--token-budget", type=int, default=400)
    ap.add_argument("--gen-users-en", type=int, default=4)
    ap.add_argument("--gen-users-zh", type=int, default=2)
    ap.add_argument(
        "--no-merged",
        action="store_true",
        help="skip the merged history (every user's dialogues as one user's)",
    )
    args = ap.parse_args(argv)
    if not (args.data / "memory_bank_en.json").is_file():
        raise SystemExit(f"MemoryBank data not found in {args.data} (pass --data)")

    from evaluate import make_embedder

    embedder = make_embedder(args.embedder)
    clock = FakeClock(datetime(2023, 4, 27, tzinfo=UTC))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="usermemory-mb-") as tmp:
        mem = UserMemory(
            f"sqlite:///{tmp}/mb.db", clock=clock, embedder=embedder, config=MemoryConfig()
        )
        try:
            rows, unanswerable, observe_s, n_turns = run_memorybank(
                args.data, args.labels, mem, clock, embedder.embed, args.token_budget
            )
            if not args.no_merged:
                rows += run_merged(
                    args.data, args.labels, mem, clock, embedder.embed, args.token_budget
                )
            rows += run_generated(
                mem, clock, embedder.embed, args.gen_users_en, args.gen_users_zh, args.token_budget
            )
        finally:
            mem.close()
    meta = {
        "command": "python benchmarks/memorybank_recall.py"
        + (" " + " ".join(argv) if argv else ""),
        "machine": f"{platform.machine()} {platform.processor() or ''} {platform.system()}".strip(),
        "embedder": args.embedder,
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "answerable": sum(r.group == "memorybank" for r in rows),
        "unanswerable": unanswerable,
        "turns": n_turns,
        "observe_ms_per_turn": 1000 * observe_s / max(n_turns, 1),
        "seconds": time.perf_counter() - started,
    }
    summary = {"meta": meta, "groups": _groups(rows)}
    text = render(summary, meta)
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "memorybank_recall.md").write_text(text, "utf-8")
    (args.out / "memorybank_recall.json").write_text(
        json.dumps(
            {
                **summary,
                "rows": [
                    {
                        "id": r.ident,
                        "lang": r.lang,
                        "type": r.type,
                        "split": r.split,
                        "group": r.group,
                        "ranks": r.ranks,
                    }
                    for r in rows
                ],
            },
            ensure_ascii=False,
            indent=1,
        ),
        "utf-8",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
