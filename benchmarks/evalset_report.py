"""Aggregation and markdown rendering of an evaluation run (used by ``evaluate.py``)."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from evalset import CHECKPOINTS as _CHECKPOINTS

__all__ = ["ABLATIONS", "Evaluation", "render_markdown", "summarize"]

ABLATIONS: dict[str, tuple[str, ...]] = {
    "bm25_only": ("lexical",),
    "dense_only": ("dense",),
    "key_only": ("key",),
    "hybrid_channels": ("key", "lexical", "dense"),
}


@dataclass
class Evaluation:
    """Per-probe outcomes plus run-level counters."""

    embedder: str
    k: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    turns: int = 0
    observe_seconds: float = 0.0
    probe_seconds: float = 0.0
    leaks: Counter[str] = field(default_factory=Counter)
    leak_examples: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------------------
def _rate(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def summarize(ev: Evaluation) -> dict[str, Any]:
    """Aggregate the per-probe rows into the report (per language and overall)."""
    out: dict[str, Any] = {
        "embedder": ev.embedder,
        "k": ev.k,
        "turns": ev.turns,
        "probes": len(ev.rows),
        "observe_ms_mean": round(1000 * ev.observe_seconds / max(ev.turns, 1), 2),
        "probe_ms_mean": round(1000 * ev.probe_seconds / max(len(ev.rows), 1), 2),
        "leakage": {"total": sum(ev.leaks.values()), **dict(ev.leaks)},
        "leak_examples": ev.leak_examples[:20],
        "langs": {},
    }
    for lang in sorted({r["lang"] for r in ev.rows}):
        out["langs"][lang] = _summarize_rows([r for r in ev.rows if r["lang"] == lang])
    out["all"] = _summarize_rows(ev.rows)
    return out


def _failed(r: dict[str, Any]) -> bool:
    return bool(
        (r["value_probe"] and not r["correct"])
        or r["stale"]
        or r["false"]
        or (not r["value_probe"] and not r["abstained"])
    )


def _summarize_rows(rows: list[dict[str, Any]]) -> dict[str, Any]:
    vp = [r for r in rows if r["value_probe"]]
    ab = [r for r in rows if not r["value_probe"]]
    correct = [r for r in vp if r["correct"]]
    with_stale = [
        r
        for r in vp
        if r["category"] in ("changed", "contradicted", "corrected", "retracted", "additive")
    ]
    due = [r for r in rows if r["confirm_due"]]
    lat = sorted(r["recall_ms"] for r in rows)
    s: dict[str, Any] = {
        "value_probes": len(vp),
        "abstention_probes": len(ab),
        "accuracy": _rate(len(correct), len(vp)),
        "recall_at_k_accuracy": _rate(sum(r["recall_correct"] for r in vp), len(vp)),
        "context_accuracy": _rate(sum(r["context_correct"] for r in vp), len(vp)),
        "stale_rate": _rate(sum(r["stale"] for r in rows), len(rows)),
        "stale_rate_changed_keys": _rate(sum(r["stale"] for r in with_stale), len(with_stale)),
        "false_memory_rate": _rate(sum(r["false"] for r in rows), len(rows)),
        "provenance_accuracy": _rate(
            sum(r["provenance_ok"] for r in correct if r.get("cited", True)),
            sum(1 for r in correct if r.get("cited", True)),
        ),
        "abstention_rate": _rate(sum(r["abstained"] for r in ab), len(ab)),
        "confirm_question_recall": _rate(sum(r["question_open"] for r in due), len(due)),
        "confirm_due_probes": len(due),
        "recall_ms_p50": round(statistics.median(lat), 2) if lat else None,
        "recall_ms_p95": round(lat[int(0.95 * (len(lat) - 1))], 2) if lat else None,
        "tokens": {},
        "categories": {},
        "ablation": {},
        "failures": {},
    }
    for cp in _CHECKPOINTS:
        toks = [r["tokens"] for r in rows if r["after_session"] == cp]
        if toks:
            s["tokens"][str(cp)] = {
                "mean": round(statistics.mean(toks), 1),
                "max": max(toks),
                "probes": len(toks),
            }
    for cat in sorted({r["category"] for r in rows}):
        cr = [r for r in rows if r["category"] == cat]
        cv = [r for r in cr if r["value_probe"]]
        ca = [r for r in cr if not r["value_probe"]]
        s["categories"][cat] = {
            "probes": len(cr),
            "accuracy": _rate(sum(r["correct"] for r in cv), len(cv)),
            "abstention": _rate(sum(r["abstained"] for r in ca), len(ca)),
            "stale": _rate(sum(r["stale"] for r in cr), len(cr)),
            "false": _rate(sum(r["false"] for r in cr), len(cr)),
        }
        bad = [r for r in cr if _failed(r)]
        s["failures"][cat] = [
            {k: r[k] for k in ("id", "key", "query", "expected", "got", "returned", "stored_ok")}
            for r in bad[:6]
        ]
        s["categories"][cat]["failed"] = len(bad)
        s["categories"][cat]["write_path"] = sum(not r["stored_ok"] for r in bad)
        s["categories"][cat]["read_path"] = sum(r["stored_ok"] for r in bad)
    s["stored_ok_rate"] = _rate(sum(r["stored_ok"] for r in rows), len(rows))
    missed = Counter((r["key"], r["query"]) for r in rows if _failed(r) and r["stored_ok"])
    s["read_path_failures_by_query"] = [
        {
            "key": kq[0],
            "query": kq[1],
            "failed": n,
            "of": sum(1 for r in rows if (r["key"], r["query"]) == kq),
        }
        for kq, n in missed.most_common(25)
    ]
    wrong = Counter((r["key"], r["category"]) for r in rows if _failed(r) and not r["stored_ok"])
    s["write_path_failures_by_key"] = [
        {"key": kc[0], "category": kc[1], "failed": n} for kc, n in wrong.most_common(25)
    ]
    if rows and "abl_bm25_only" in rows[0]:
        for name in ["hybrid_pipeline", *ABLATIONS]:
            if name == "hybrid_pipeline":
                acc = sum(r["recall_correct"] for r in vp)
                absn = sum(r["abstained"] for r in ab)
                stale = sum(r["stale"] for r in rows)
            else:
                acc = sum(r[f"abl_{name}"]["correct"] for r in vp)
                absn = sum(r[f"abl_{name}"]["abstained"] for r in ab)
                stale = sum(r[f"abl_{name}"]["stale"] for r in rows)
            s["ablation"][name] = {
                "recall_at_k_accuracy": _rate(acc, len(vp)),
                "abstention_rate": _rate(absn, len(ab)),
                "stale_rate": _rate(stale, len(rows)),
            }
    return s


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}%"


def _machine_line(m: dict[str, Any]) -> str:
    if not m:
        return "Machine: not recorded."
    return (
        f"Run {m.get('run_at')} on {m.get('platform')}, {m.get('cpus')} CPUs (load average "
        f"{m.get('load_average')} at the end: latencies are wall-clock under that load), "
        f"Python {m.get('python')}, git HEAD {m.get('git_head')} plus uncommitted work."
    )


def render_markdown(summary: dict[str, Any]) -> str:
    """The report as markdown tables."""
    langs = summary["langs"]
    cols = list(langs)
    lines = [
        f"## Long-horizon evaluation (embedder: {summary['embedder']}, k={summary['k']})",
        "",
        f"{summary['probes']} probes over {summary['turns']} turns; observe "
        f"{summary['observe_ms_mean']} ms/turn, probe (recall+context+ablation) "
        f"{summary['probe_ms_mean']} ms.",
        "",
        _machine_line(summary.get("machine") or {}),
        "",
        "| metric | " + " | ".join(cols) + " |",
        "|---|" + "---|" * len(cols),
    ]
    for label, key in [
        ("accuracy of current value", "accuracy"),
        ("  via recall top-k", "recall_at_k_accuracy"),
        ("  via context()", "context_accuracy"),
        ("stale-value rate (all probes)", "stale_rate"),
        ("stale-value rate (changed keys)", "stale_rate_changed_keys"),
        ("false-memory rate (jokes, hypotheticals, others)", "false_memory_rate"),
        ("provenance accuracy", "provenance_accuracy"),
        ("abstention when nothing was said", "abstention_rate"),
        ("confirmation question open when due", "confirm_question_recall"),
    ]:
        lines.append(f"| {label} | " + " | ".join(_pct(langs[c][key]) for c in cols) + " |")
    lines.append(
        "| recall p50 / p95 (ms) | "
        + " | ".join(f"{langs[c]['recall_ms_p50']} / {langs[c]['recall_ms_p95']}" for c in cols)
        + " |"
    )
    for cp in _CHECKPOINTS:
        cells = [langs[c]["tokens"].get(str(cp)) for c in cols]
        lines.append(
            f"| context tokens after session {cp} (mean / max) | "
            + " | ".join(f"{t['mean']} / {t['max']}" if t else "n/a" for t in cells)
            + " |"
        )
    lines.append(
        f"| leakage (users + contexts) | {summary['leakage']['total']} |" + " |" * (len(cols) - 1)
    )
    lines += [
        "",
        "### Ablation: retrieval channels (recall top-k only)",
        "",
        "| channels | " + " | ".join(f"{c} accuracy | {c} abstention" for c in cols) + " |",
        "|---|" + "---|---|" * len(cols),
    ]
    for name in langs[cols[0]]["ablation"]:
        lines.append(
            f"| {name} | "
            + " | ".join(
                f"{_pct(langs[c]['ablation'][name]['recall_at_k_accuracy'])} | "
                f"{_pct(langs[c]['ablation'][name]['abstention_rate'])}"
                for c in cols
            )
            + " |"
        )
    lines += [
        "",
        "``dense_only`` with an English-only model (MiniLM): the dense channel is left out for"
        " mostly-Chinese queries (its cosines there are noise), so the Chinese row is 0 by"
        " design; the hashing embedder is lexical, not semantic.",
        "",
        "### By category",
        "",
        "Failures are split into write path (``profile()`` already holds the wrong value)"
        " and read path (the right value is stored, recall/context missed it).",
        "",
        "| lang | category | probes | accuracy | abstention | stale | false | failed |"
        " write path | read path |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in cols:
        for cat, v in langs[c]["categories"].items():
            lines.append(
                f"| {c} | {cat} | {v['probes']} | {_pct(v['accuracy'])} | "
                f"{_pct(v['abstention'])} | {_pct(v['stale'])} | {_pct(v['false'])} | "
                f"{v['failed']} | {v['write_path']} | {v['read_path']} |"
            )
    for c in cols:
        lines += [
            "",
            f"### Read-path misses by probe wording ({c})",
            "",
            "| key | query | failed / asked |",
            "|---|---|---|",
        ]
        lines += [
            f"| {m['key']} | {m['query']} | {m['failed']} / {m['of']} |"
            for m in langs[c]["read_path_failures_by_query"][:12]
        ]
    return "\n".join(lines) + "\n"
