"""Aggregation and markdown of ``benchmarks/compare.py`` runs."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["ratios", "render_markdown", "summarize_system"]

_CHANGED = ("changed", "contradicted", "corrected", "retracted", "additive")


def _rate(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def _pct(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(q * len(s)))], 3)


def _rows_summary(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    judged = [r for r in rows if r["judged"]]
    vp = [r for r in judged if r["value_probe"]]
    ab = [r for r in judged if not r["value_probe"]]
    changed = [r for r in vp if r["category"] in _CHANGED]
    out: dict[str, Any] = {
        "probes": len(rows),
        "judged": len(judged),
        "accuracy": _rate(sum(r["correct"] for r in vp), len(vp)),
        "stale_rate": _rate(sum(r["stale"] for r in judged), len(judged)),
        "stale_rate_changed_keys": _rate(sum(r["stale"] for r in changed), len(changed)),
        "false_memory_rate": _rate(sum(r["false"] for r in judged), len(judged)),
        "abstention": _rate(sum(r["abstained"] for r in ab), len(ab)),
    }
    native = [r["native"] for r in rows if "native" in r]
    if native:
        nvp = [n for n in native if n["value_probe"]]
        nab = [n for n in native if not n["value_probe"]]
        out["native"] = {
            "probes": len(native),
            "accuracy": _rate(sum(n["correct"] for n in nvp), len(nvp)),
            "stale_rate": _rate(sum(n["stale"] for n in native), len(native)),
            "abstention": _rate(sum(n["abstained"] for n in nab), len(nab)),
        }
    return out


def summarize_system(res: Mapping[str, Any]) -> dict[str, Any]:
    """Summary of one system's replay (see ``compare.replay``)."""
    rows = res["rows"]
    lat = [r["recall_ms"] for r in rows]
    lat_cpu = [r["recall_cpu_ms"] for r in rows]
    obs = [s * 1000 for s in res["observe_s"]]
    obs_cpu = [s * 1000 for s in res["observe_cpu_s"]]
    toks = [r["tokens"] for r in rows]
    by_cp: dict[str, Any] = {}
    for cp in (10, 50, 100, 200):
        t = [r["tokens"] for r in rows if r["after_session"] == cp]
        if t:
            by_cp[str(cp)] = {"mean": round(statistics.mean(t), 1), "max": max(t), "n": len(t)}
    growth = {
        n: {
            "tokens_mean": round(statistics.mean(x[0] for x in pts), 1),
            "tokens_max": max(x[0] for x in pts),
            "ms_mean": round(statistics.mean(x[1] for x in pts), 2),
            "users": len(pts),
        }
        for n, pts in sorted(res["growth"].items(), key=lambda kv: int(kv[0]))
    }
    return {
        "langs": {
            lang: _rows_summary([r for r in rows if r["lang"] == lang])
            for lang in sorted({r["lang"] for r in rows})
        },
        "all": _rows_summary(rows),
        "leakage": len(res["leaks"]),
        "leak_examples": res["leaks"][:10],
        "recall_ms_p50": _pct(lat, 0.5),
        "recall_ms_p95": _pct(lat, 0.95),
        "recall_cpu_ms_p50": _pct(lat_cpu, 0.5),
        "recall_cpu_ms_p95": _pct(lat_cpu, 0.95),
        "observe_ms_mean": round(statistics.mean(obs), 3) if obs else None,
        "observe_cpu_ms_mean": round(statistics.mean(obs_cpu), 3) if obs_cpu else None,
        "observe_ms_p50": _pct(obs, 0.5),
        "observe_ms_p95": _pct(obs, 0.95),
        "turns": len(obs),
        "tokens_mean": round(statistics.mean(toks), 1) if toks else None,
        "tokens_max": max(toks) if toks else None,
        "tokens_by_session": by_cp,
        "growth": growth,
        "rss_delta_mb": round(res["rss_mb"], 1),
        "ingest_s": round(res["ingest_s"], 1),
    }


def _ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or not b:
        return None
    return round(a / b, 3)


def ratios(report: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """UserMemory / peer for the headline numbers of every peer that ran."""
    um = report["systems"].get("usermemory", {})
    if "all" not in um:
        return {}
    out = {}
    for key, s in report["systems"].items():
        if key == "usermemory" or "all" not in s:
            continue
        out[key] = {
            "accuracy": _ratio(um["all"]["accuracy"], s["all"]["accuracy"]),
            "stale_rate": _ratio(um["all"]["stale_rate"], s["all"]["stale_rate"]),
            "recall_ms_p50": _ratio(um["recall_ms_p50"], s["recall_ms_p50"]),
            "recall_ms_p95": _ratio(um["recall_ms_p95"], s["recall_ms_p95"]),
            "recall_cpu_ms_p95": _ratio(um["recall_cpu_ms_p95"], s["recall_cpu_ms_p95"]),
            "observe_ms_mean": _ratio(um["observe_ms_mean"], s["observe_ms_mean"]),
            "tokens_mean": _ratio(um["tokens_mean"], s["tokens_mean"]),
            "rss_delta_mb": _ratio(um["rss_delta_mb"], s["rss_delta_mb"]),
        }
    return out


def _f(x: Any, nd: int = 3) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{nd}f}".rstrip("0").rstrip(".") if nd else f"{x:.0f}"
    return str(x)


def _lang(s: Mapping[str, Any], lang: str, field: str) -> Any:
    return s.get("langs", {}).get(lang, {}).get(field)


def render_markdown(report: dict[str, Any]) -> str:
    """The report as markdown (tables, then what could not run, then definitions)."""
    report.setdefault("ratios", ratios(report))
    m = report["machine"]
    lines = [
        "# UserMemory vs alternatives (benchmarks/compare.py)",
        "",
        f"Run {m['date_utc']} UTC on {m['cores']} cores ({m['cpu']}), Python {m['python']}, "
        f"torch {m['torch']} ({m['torch_threads']} thread); load average "
        f"{m.get('load_avg_1m_at_start', '-')} at start, {m.get('load_avg_1m_at_end', '-')} at "
        "end (other work shared the machine; latencies include that). "
        "Embedder for every system: "
        f"**{report['embedder']}**. Evaluation set: {report['users']['en']} English + "
        f"{report['users']['zh']} Chinese users, {report['turns']} turns, "
        f"{report['probes']} probes, k={report['k']}.",
        "",
        "| system | acc en | acc zh | stale en | stale zh | leakage | recall p50 / p95 ms "
        "| recall CPU p50 / p95 ms | observe mean / p95 ms | observe CPU mean ms "
        "| tokens/turn mean (max) | RSS Δ MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    errors = []
    for s in report["systems"].values():
        if "error" in s:
            errors.append(f"- **{s['name']}** did not run: `{' '.join(s['error'].split())}`")
            lines.append(f"| {s['name']} | did not run (see below) |||||||||||")
            continue
        lines.append(
            f"| {s['name']} | {_f(_lang(s, 'en', 'accuracy'))} | {_f(_lang(s, 'zh', 'accuracy'))}"
            f" | {_f(_lang(s, 'en', 'stale_rate'))} | {_f(_lang(s, 'zh', 'stale_rate'))}"
            f" | {s['leakage']} | {_f(s['recall_ms_p50'], 2)} / {_f(s['recall_ms_p95'], 2)}"
            f" | {_f(s['recall_cpu_ms_p50'], 2)} / {_f(s['recall_cpu_ms_p95'], 2)}"
            f" | {_f(s['observe_ms_mean'], 2)} / {_f(s['observe_ms_p95'], 2)}"
            f" | {_f(s['observe_cpu_ms_mean'], 2)}"
            f" | {_f(s['tokens_mean'], 0)} ({s['tokens_max']}) | {_f(s['rss_delta_mb'], 1)} |"
        )
    um = report["systems"].get("usermemory", {})
    if "all" in um and "native" in um["all"]:
        nat = {lang: _lang(um, lang, "native") or {} for lang in ("en", "zh")}
        lines += [
            "",
            "UserMemory judged natively (structured recall + context lines, all keys, "
            "stale = a superseded value returned at all): accuracy en "
            f"{_f(nat['en'].get('accuracy'))}, zh {_f(nat['zh'].get('accuracy'))}; stale en "
            f"{_f(nat['en'].get('stale_rate'))}, zh {_f(nat['zh'].get('stale_rate'))}; "
            f"abstention en {_f(nat['en'].get('abstention'))}, zh "
            f"{_f(nat['zh'].get('abstention'))}.",
        ]
    if report["ratios"]:
        lines += [
            "",
            "## Ratios UserMemory / peer",
            "",
            "| peer | accuracy | stale rate | recall p50 | recall p95 | recall CPU p95 "
            "| observe mean | tokens | RSS Δ |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for key, r in report["ratios"].items():
            lines.append(
                f"| {report['systems'][key]['name']} | " + " | ".join(_f(r[c]) for c in r) + " |"
            )
    growth = [str(n) for n in report.get("growth_at", (1, 10, 50, 200))]
    lines += ["", "## Prompt tokens and latency as sessions grow", ""]
    lines += [
        'Fixed query ("How should we contact you?") after session N, users with '
        f"{growth[-1]}+ "
        "sessions; tokens injected (mean) and retrieval latency (mean ms).",
        "",
        "| system | " + " | ".join(f"session {n}" for n in growth) + " |",
        "|---" * (len(growth) + 1) + "|",
    ]
    for s in report["systems"].values():
        if "growth" not in s:
            continue
        g = s["growth"]
        cells = [
            f"{_f(g[n]['tokens_mean'], 0)} tok, {_f(g[n]['ms_mean'], 2)} ms" if n in g else "-"
            for n in growth
        ]
        lines.append(f"| {s['name']} | " + " | ".join(cells) + " |")
    sc = report.get("scale")
    if sc:
        lines += [
            "",
            f"## Recall latency at {sc['items']:,} stored items",
            "",
            f"{sc['users']:,} users x {sc['per_user']} facts, bulk-loaded; "
            "query vectors pre-computed for everyone (the embedder call is excluded).",
            "",
            "| system | bulk load s | recall p50 ms | recall p95 ms | CPU p50 ms | CPU p95 ms |",
            "|---|---|---|---|---|---|",
        ]
        for name, v in sc["systems"].items():
            if "error" in v:
                lines.append(f"| {name} | failed: `{v['error']}` | | | | |")
            else:
                lines.append(
                    f"| {name} | {v['load_s']} | {_f(v['p50_ms'], 2)} | {_f(v['p95_ms'], 2)} "
                    f"| {_f(v['cpu_p50_ms'], 2)} | {_f(v['cpu_p95_ms'], 2)} |"
                )
        if "ratio_p95" in sc:
            lines += [
                "",
                f"Fastest vector-store peer: **{sc['fastest_peer']}**; its p95 is "
                f"**{sc['ratio_p95']}x** UserMemory's (target >= 5x); by CPU time the fastest "
                f"peer is {sc['fastest_peer_cpu']} at **{sc['ratio_cpu_p95']}x**.",
            ]
    notes = report.get("notes", {})
    lines += ["", "## What could not run, and why", ""]
    lines += errors
    if notes.get("li_simple_vector_store"):
        lines.append(
            "- LlamaIndex `VectorMemoryBlock` over a plain `SimpleVectorStore` is rejected: "
            f"`{notes['li_simple_vector_store']}`. It runs here over a `SimpleVectorStore` "
            "subclass that keeps node texts (`stores_text=True`); search and filters are "
            "SimpleVectorStore's."
        )
    fx = notes.get("li_fact_extraction")
    if fx:
        if fx.get("ran"):
            facts = fx.get("facts", [])
            lines.append(
                "- LlamaIndex `FactExtractionMemoryBlock` needs an LLM to extract facts. With "
                "LlamaIndex's offline `MockLLM` it runs, but MockLLM answers "
                f"{fx.get('mock_llm_reply', '')[:30]!r}... (no `<fact>` tags), so after 10 "
                f"sessions the block holds {len(facts)} facts {facts[:3]!r}; it is not scored."
            )
        else:
            lines.append(
                "- LlamaIndex `FactExtractionMemoryBlock` with `MockLLM` failed: "
                f"`{fx.get('error')}`."
            )
    lines += [
        "",
        "## Definitions",
        "",
        report["definitions"],
        "",
        "Latency: recall = the call that produces the injected text (UserMemory `context()`, "
        "buffer `load_memory_variables`, vector store `similarity_search`, LlamaIndex "
        "`Memory.get`, mem0 `search`), query embedding included; observe = storing one turn. "
        "CPU = process CPU time of the same call (robust to other load on the machine). "
        "RSS Δ = resident memory growth while ingesting (after the system and its embedder "
        "were built).",
        "",
    ]
    return "\n".join(lines)
