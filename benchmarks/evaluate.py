"""Run the long-horizon evaluation set through UserMemory and report the metrics.

All users' turns are replayed in time order (users interleave, so isolation is tested
while every user is live) into one embedded SQLite database, with a ``FakeClock``.
Each probe asks ``recall`` and ``context`` at its moment and is judged against its
ground truth:

* accuracy - the expected value(s) of the probed key are among the top-k recall results
  (right key) or on the key's line in ``context()``;
* stale rate - a superseded or retracted value returned as current (recall or context);
  false-memory rate - a joked / hypothetical / someone else's value returned;
* provenance - a correct record cites a session (and date) the value was stated in;
* abstention - nothing was ever said (or it was taken back, or it lives in the other
  system_context): no record of that key is returned;
* leakage - any returned or loaded record of another user / system_context, and any
  other user's distinctive strings (names, order / prescription numbers) or the user's
  own other-context strings in ``context()`` text;
* tokens - ``context()`` tokens at probes after sessions 10, 50, 100 and 200;
* ablation - the same probes with one retrieval channel at a time (BM25 lexical, dense,
  key lookup) and all of them, through the public API: ``UserMemory.gather`` with a
  ``RetrievalConfig`` naming the channels (the others are not queried), then
  ``UserMemory.rank``.

Usage::

    python benchmarks/evaluate.py --embedder hashing
    python benchmarks/evaluate.py --embedder minilm --users-en 40 --users-zh 20

Results go to ``benchmarks/results/evalset_<embedder>.{json,md}``.
"""

from __future__ import annotations

import argparse
import dataclasses
import heapq
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shared_core import (
    Embedder,
    FakeClock,
    Kind,
    MemoryConfig,
    ScoredMemory,
    UserMemory,
    canonical_value,
    count_tokens,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalset
from evalset_report import ABLATIONS, Evaluation, render_markdown, summarize

__all__ = [
    "ABLATIONS",
    "Evaluation",
    "channel_recall",
    "evaluate",
    "load_users",
    "main",
    "make_embedder",
    "render_markdown",
]

_IDENTITY_NAME = re.compile(r'^User: ".*?" \(name: (".*?")\)', re.MULTILINE)
_LINE = re.compile(
    r'^\s*-\s+(?:exception:\s+)?(?P<key>\S+) = (?P<val>".*?")(?: \[.*?\])? \((?P<cite>.*)\)$'
)


def make_embedder(name: str) -> Embedder:
    """``hashing`` (offline, lexical), ``onnx`` (MiniLM through onnxruntime, the default
    embedder) or ``minilm`` (the same model through sentence-transformers, 1 torch thread)."""
    from shared_core.embed import HashingEmbedder, OnnxEmbedder, SentenceTransformerEmbedder

    if name == "hashing":
        return HashingEmbedder()
    if name == "onnx":
        return OnnxEmbedder(threads=1)
    if name == "minilm":
        import torch

        torch.set_num_threads(1)
        return SentenceTransformerEmbedder(threads=1)
    raise SystemExit(f"unknown embedder {name!r} (hashing | onnx | minilm)")


def load_users(data_dir: Path, langs: Sequence[str] = ("en", "zh")) -> list[dict[str, Any]]:
    """Read ``evalset_<lang>.jsonl`` files."""
    users: list[dict[str, Any]] = []
    for lang in langs:
        path = data_dir / f"evalset_{lang}.jsonl"
        users += [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    return users


def channel_recall(
    mem: UserMemory,
    user_id: str,
    query: str,
    *,
    channels: tuple[str, ...],
    k: int,
    system_context: str,
    at: datetime,
) -> tuple[list[ScoredMemory], int]:
    """Recall through a subset of the retrieval channels ("key", "lexical", "dense").

    Public API only: ``gather`` with a :class:`RetrievalConfig` naming the channels (the
    others are not queried), then ``rank``. Returns the top-k results and how many records
    the read returned that belonged to another user or context (store-level leakage;
    must be 0).
    """
    cand = mem.gather(
        user_id,
        query,
        k=k,
        system_context=system_context,
        at=at,
        retrieval=dataclasses.replace(mem.config.retrieval, channels=channels),
    )
    leaks = sum(
        1
        for r in cand.records.values()
        if r.user_id != user_id or r.system_context != system_context
    )
    return mem.rank(cand), leaks


# ---------------------------------------------------------------------------------------
# judging one probe
# ---------------------------------------------------------------------------------------
def _canon(key: str, value: str) -> set[str]:
    return {p.strip() for p in canonical_value(key, value).lower().split(",") if p.strip()}


@dataclass
class Found:
    """What a recall list / context block says about one key."""

    values: set[str] = field(default_factory=set)
    provenance_ok: bool = False
    any_key: bool = False
    cited: bool = False  # a correct value came with a citation (session, date)


def _same_slot(found: str, key: str) -> bool:
    """Allergies are multi-valued: ``allergy.medication.<substance>`` sits beside the key."""
    return found == key or (key.startswith("allergy") and found.startswith(key + "."))


def _from_recall(
    results: Sequence[ScoredMemory], key: str, exp: dict[str, Any], expected: set[str]
) -> Found:
    f = Found()
    for r in results:
        rec = r.record
        if rec.kind is Kind.EPISODE or not _same_slot(rec.key, key):
            continue
        f.any_key = True
        vals = _canon(key, rec.normalized or rec.value) | _canon(key, rec.value)
        f.values |= vals
        if vals & expected:
            f.cited = True
            day = (rec.provenance.at or rec.created_at).date().isoformat()
            if rec.provenance.session_id in exp["source_sessions"] and day in exp["source_dates"]:
                f.provenance_ok = True
    return f


def _from_context(text: str, key: str, exp: dict[str, Any], expected: set[str]) -> Found:
    f = Found()
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m or not _same_slot(m.group("key"), key):
            continue
        f.any_key = True
        try:
            value = json.loads(m.group("val"))
        except json.JSONDecodeError:
            value = m.group("val").strip('"')
        vals = _canon(key, value)
        f.values |= vals
        cite = m.group("cite")
        f.cited = f.cited or bool(vals & expected)
        if (
            vals & expected
            and any(f"session {s}" in cite for s in exp["source_sessions"])
            and any(d in cite for d in exp["source_dates"])
        ):
            f.provenance_ok = True
    if key == "name" and (m := _IDENTITY_NAME.search(text)):  # the identity line, uncited
        f.any_key = True
        f.values |= _canon(key, json.loads(m.group(1)))
    return f


def _stored_ok(profile: dict[str, str], probe: dict[str, Any]) -> bool:
    """Whether the write path holds the right current value (``profile()``, no retrieval)."""
    key, exp = probe["key"], probe["expected"]
    if not exp["values"]:
        return not any(_same_slot(k, key) for k in profile)
    have = {s for k, v in profile.items() if _same_slot(k, key) for s in _canon(key, v)}
    want = {s for v in exp["values"] for s in _canon(key, v)}
    alt = {s for v in exp.get("also_acceptable", []) for s in _canon(key, v)}
    return want <= have or bool(alt and alt <= have)


def judge(
    probe: dict[str, Any], recall: Sequence[ScoredMemory], context: str | None
) -> dict[str, Any]:
    """Flags of one probe: correct / stale / false / provenance / abstained."""
    key, exp = probe["key"], probe["expected"]
    expected: set[str] = set()
    for v in exp["values"]:
        expected |= _canon(key, v)
    stale = {s for v in exp["stale"] for s in _canon(key, v)} - expected
    false = {s for v in exp["false"] for s in _canon(key, v)} - expected - stale
    alt = {s for v in exp.get("also_acceptable", []) for s in _canon(key, v)}
    false -= alt
    stale -= alt
    fr = _from_recall(recall, key, exp, expected | alt)
    fc = _from_context(context, key, exp, expected | alt) if context is not None else Found()
    got = fr.values | fc.values

    def ok(found: set[str]) -> bool:
        return bool(expected) and (expected <= found or bool(alt and alt <= found))

    out: dict[str, Any] = {
        "value_probe": bool(expected),
        "recall_correct": ok(fr.values),
        "context_correct": ok(fc.values),
        "stale": bool(got & stale),
        "false": bool(got & false),
        "got": sorted(got),
        "abstained": not (fr.any_key or fc.any_key),
    }
    out["correct"] = out["recall_correct"] or out["context_correct"]
    out["provenance_ok"] = fr.provenance_ok or fc.provenance_ok
    out["cited"] = fr.cited or fc.cited
    return out


# ---------------------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------------------
def _stream(user: dict[str, Any], idx: int) -> Iterator[tuple[datetime, int, int, str, Any]]:
    """(time, order, user index, kind, payload) events of one user, in time order."""
    probes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for p in user["probes"]:
        probes[p["after_session"]].append(p)
    order = 0
    for s in user["sessions"]:
        for t in s["turns"]:
            order += 1
            yield datetime.fromisoformat(t["at"]), order, idx, "turn", (s, t)
        order += 1
        last = datetime.fromisoformat(s["turns"][-1]["at"])
        yield last, order, idx, "end", s
        for p in probes.get(s["n"], []):
            order += 1
            yield datetime.fromisoformat(p["at"]), order, idx, "probe", p


def evaluate(
    users: Sequence[dict[str, Any]],
    *,
    embedder: Embedder,
    embedder_name: str,
    k: int = 3,
    token_budget: int = 400,
    ablation: bool = True,
    db_path: Path | None = None,
) -> Evaluation:
    """Replay every user's sessions, ask every probe, return the outcomes."""
    ev = Evaluation(embedder=embedder_name, k=k)
    tmp = None
    if db_path is None:
        shm = Path("/dev/shm")  # a RAM disk where there is one: fsync is not what we measure
        tmp = tempfile.TemporaryDirectory(
            prefix="usermemory-eval-", dir=shm if shm.is_dir() else None
        )
        db_path = Path(tmp.name) / "eval.db"
    clock = FakeClock(datetime(2025, 1, 1, tzinfo=UTC))
    canaries = _canaries(users)
    mem = UserMemory(f"sqlite:///{db_path}", clock=clock, embedder=embedder, config=MemoryConfig())
    try:
        for at, _o, idx, kind, payload in heapq.merge(
            *(_stream(u, i) for i, u in enumerate(users))
        ):
            user = users[idx]
            clock.set(at)
            if kind == "turn":
                s, t = payload
                started = time.perf_counter()
                mem.observe(
                    user["user_id"],
                    t["text"],
                    role=t["role"],
                    session_id=s["session_id"],
                    system_context=s["system_context"],
                    at=at,
                )
                ev.observe_seconds += time.perf_counter() - started
                ev.turns += 1
            elif kind == "end":
                mem.end_session(user["user_id"], payload["session_id"], at=at)
            else:
                started = time.perf_counter()
                ev.rows.append(
                    _ask(
                        mem,
                        user,
                        payload,
                        at,
                        canaries,
                        ev,
                        k=k,
                        token_budget=token_budget,
                        ablation=ablation,
                    )
                )
                ev.probe_seconds += time.perf_counter() - started
    finally:
        mem.close()
        if tmp is not None:
            tmp.cleanup()
    return ev


def _canaries(users: Sequence[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """(string, owner user_id, context or "*") of every user's distinctive strings."""
    out = []
    for u in users:
        out.append((u["name"], u["user_id"], "*"))
        for ctx, items in u["canaries"].items():
            out += [(c, u["user_id"], ctx) for c in items]
    return out


def _ask(
    mem: UserMemory,
    user: dict[str, Any],
    probe: dict[str, Any],
    at: datetime,
    canaries: list[tuple[str, str, str]],
    ev: Evaluation,
    *,
    k: int,
    token_budget: int,
    ablation: bool,
) -> dict[str, Any]:
    uid, ctx, query = user["user_id"], probe["system_context"], probe["query"]
    t0 = time.perf_counter()
    results = mem.recall(uid, query, k=k, system_context=ctx, at=at)
    recall_ms = (time.perf_counter() - t0) * 1000
    text = mem.context(uid, query, system_context=ctx, at=at, token_budget=token_budget)
    for r in results:
        if r.record.user_id != uid or r.record.system_context != ctx:
            ev.leaks["recall_record"] += 1
            ev.leak_examples.append(
                f"{probe['id']}: record {r.record.id} of "
                f"{r.record.user_id}/{r.record.system_context}"
            )
    low = text.lower()
    for needle, owner, nctx in canaries:
        other_user = owner != uid
        other_ctx = owner == uid and nctx not in ("*", ctx)
        if (other_user or other_ctx) and needle.lower() in low:
            ev.leaks["context_text_user" if other_user else "context_text_context"] += 1
            ev.leak_examples.append(f"{probe['id']}: context contains {needle!r} of {owner}/{nctx}")
    row = {
        "id": probe["id"],
        "user_id": uid,
        "lang": user["lang"],
        "key": probe["key"],
        "context": ctx,
        "category": probe["category"],
        "after_session": probe["after_session"],
        "query": query,
        "expected": probe["expected"]["values"],
        "tokens": count_tokens(text),
        "recall_ms": recall_ms,
        "returned": [
            f"{r.record.key}={r.record.value}" for r in results if r.record.kind is not Kind.EPISODE
        ],
        "recall_records": [
            {
                "key": r.record.key,
                "value": r.record.value,
                "normalized": r.record.normalized,
                "session_id": r.record.provenance.session_id,
                "at": (r.record.provenance.at or r.record.created_at).isoformat(),
                "score": round(r.score, 4),
                "matched_by": list(r.matched_by),
            }
            for r in results
            if r.record.kind is not Kind.EPISODE
        ],
        "context_text": text,
        **judge(probe, results, text),
    }
    row["stored_ok"] = _stored_ok(mem.profile(uid, system_context=ctx), probe)
    conflicts = [c for c in mem.records.conflicts(uid, ctx) if c.question]
    row["question_open"] = any(
        c.key == probe["key"] or c.key.startswith(probe["key"] + ".") for c in conflicts
    )
    row["confirm_due"] = probe["expected"]["confirm_due"]
    if ablation:
        for name, channels in ABLATIONS.items():
            got, leaks = channel_recall(
                mem, uid, query, channels=channels, k=k, system_context=ctx, at=at
            )
            if leaks:
                ev.leaks["store_loaded_record"] += leaks
            j = judge(probe, got, None)
            row[f"abl_{name}"] = {
                "correct": j["recall_correct"],
                "stale": j["stale"],
                "abstained": j["abstained"],
            }
    return row


def _machine(meta: dict[str, Any]) -> dict[str, Any]:
    """Where and when the run happened (stored with the rows, so re-summaries keep it)."""
    import platform
    import subprocess

    if "machine" not in meta:
        try:
            commit = subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"],
                capture_output=True,
                text=True,
                check=False,
                cwd=Path(__file__).parent,
            ).stdout
        except OSError:
            commit = ""
        meta["machine"] = {
            "run_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "git_head": commit.strip() or None,
            "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        }
    return dict(meta["machine"])


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description="Evaluate UserMemory on the long-horizon set.")
    ap.add_argument("--embedder", choices=("hashing", "onnx", "minilm"), default="hashing")
    ap.add_argument("--data", type=Path, default=Path(__file__).parent / "data")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    ap.add_argument("--generate", action="store_true", help="(re)generate the set first")
    ap.add_argument("--users-en", type=int, default=40)
    ap.add_argument("--users-zh", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--no-ablation", action="store_true")
    ap.add_argument("--from-rows", type=Path, help="re-summarize a saved *_rows.jsonl run")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.out / f"evalset_{args.embedder}"
    started = time.perf_counter()
    if args.from_rows:
        saved = [json.loads(x) for x in args.from_rows.read_text("utf-8").splitlines() if x]
        meta = saved[0]
        ev = Evaluation(
            embedder=meta["embedder"],
            k=meta["k"],
            rows=saved[1:],
            turns=meta["turns"],
            observe_seconds=meta["observe_seconds"],
            probe_seconds=meta["probe_seconds"],
            leaks=Counter(meta["leaks"]),
            leak_examples=meta["leak_examples"],
        )
    else:
        if args.generate or not (args.data / "evalset_en.jsonl").exists():
            evalset.write_jsonl(
                evalset.generate(args.seed, args.users_en, args.users_zh), args.data
            )
        users = load_users(args.data)
        machine = _machine({})  # when and on what commit the run started
        ev = evaluate(
            users,
            embedder=make_embedder(args.embedder),
            embedder_name=args.embedder,
            k=args.k,
            ablation=not args.no_ablation,
        )
        meta = {
            "embedder": ev.embedder,
            "k": ev.k,
            "turns": ev.turns,
            "observe_seconds": ev.observe_seconds,
            "probe_seconds": ev.probe_seconds,
            "leaks": dict(ev.leaks),
            "leak_examples": ev.leak_examples,
        }
        if hasattr(os, "getloadavg"):
            machine["load_average"] = round(os.getloadavg()[0], 2)
        meta["machine"] = machine
        with (args.out / f"evalset_{args.embedder}_rows.jsonl").open("w", encoding="utf-8") as fh:
            for item in [meta, *ev.rows]:
                fh.write(json.dumps(item, ensure_ascii=False) + "\n")
    summary = summarize(ev)
    summary["wall_seconds"] = None if args.from_rows else round(time.perf_counter() - started, 1)
    summary["machine"] = _machine(meta)
    stem.with_suffix(".json").write_text(json.dumps(summary, indent=2, ensure_ascii=False), "utf-8")
    md = render_markdown(summary)
    stem.with_suffix(".md").write_text(md, "utf-8")
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
