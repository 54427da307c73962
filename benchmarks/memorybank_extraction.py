"""What the offline rule extractor stores on public conversations, and how much is right.

Every turn of the 15 + 15 MemoryBank users (English and Chinese, LLM-generated companion
chats nobody on this project wrote) is observed through the public API: one session per
date, the date as the turn's time, the user's words as ``role="user"`` and the reply as
``role="assistant"``, ``end_session`` after each day. ``export(user)`` then lists what was
kept; every active non-episode record is listed (stdout) with its key, value, kind,
confidence and the text of the turn it came from. The written report
(``results/memorybank_extraction.{md,json}``) holds the numbers and each record's
identifying fields, never the dialogue text.

Precision is measured against hand labels (``memorybank_extraction_labels.jsonl``, one row
per stored record of the default run: lang, user, date, turn index, key, value and a label
in ``correct | wrong_key | wrong_value | should_not_store`` with a short reason). A record
is *correct* when the user really declared that durable fact or preference about
themselves and the key/value says it. Records the labels do not cover (the extractor
changed since labelling) are counted as ``unlabelled`` and left out of precision; labels
whose record is no longer stored are counted as ``dropped`` (with their label mix, so a fix
that drops correct records shows).

Usage::

    python benchmarks/memorybank_extraction.py [--data ../shared/data/memorybank]
        [--embedder hashing|onnx] [--users N] [--dump records.jsonl] [--no-list]

prints markdown and writes ``benchmarks/results/memorybank_extraction.{md,json}``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from memorybank_recall import LANGS, Turn, load_dialogues, observe_all  # noqa: E402

from shared_core import MemoryConfig, UserMemory  # noqa: E402
from shared_core.clock import FakeClock  # noqa: E402

LABELS = ("correct", "wrong_key", "wrong_value", "should_not_store")
LABEL_FILE = Path(__file__).parent / "memorybank_extraction_labels.jsonl"

RecordId = tuple[str, str, str, int, str, str]  # lang, user, date, turn, key, value


def family(key: str) -> str:
    """The key family a record belongs to: the part before the first ``.``."""
    return key.split(".", 1)[0]


def record_id(row: dict[str, Any]) -> RecordId:
    return (row["lang"], row["user"], row["date"], int(row["turn"]), row["key"], row["value"])


def _parse_turn_id(turn_id: str | None) -> tuple[str, int, str] | None:
    """``2023-04-27-3-u`` -> ("2023-04-27", 3, "user")."""
    if not turn_id:
        return None
    try:
        date, index, role = turn_id[:10], int(turn_id[11:].rsplit("-", 1)[0]), turn_id[-1]
    except ValueError:
        return None
    return date, index, {"u": "user", "a": "assistant"}.get(role, role)


def stored_records(
    mem: UserMemory, lang: str, user: str, uid: str, turns: Sequence[Turn]
) -> list[dict[str, Any]]:
    """Every active non-episode record of ``uid`` with the turn it came from."""
    text = {(t.date, t.index, t.role): t.text for t in turns}
    out = []
    for r in mem.export(uid)["records"]:
        if r["kind"] == "episode" or r["status"] != "active":
            continue
        prov = r["provenance"]
        where = _parse_turn_id(prov.get("turn_id"))
        date, index, role = where if where else ("?", -1, prov.get("role") or "?")
        out.append(
            {
                "lang": lang,
                "user": user,
                "date": date,
                "turn": index,
                "role": role,
                "key": r["key"],
                "value": r["value"],
                "kind": r["kind"],
                "confidence": round(float(r["confidence"]), 3),
                "source": r["source"],
                "text": text.get((date, index, role), prov.get("span") or ""),
            }
        )
    out.sort(key=lambda d: (d["date"], d["turn"], d["key"]))
    return out


def run(
    data: Path, embedder_name: str = "hashing", users: int | None = None
) -> tuple[list[dict[str, Any]], dict[str, int], dict[str, int]]:
    """Observe the dialogues; returns (records, user turns per lang, users per lang)."""
    from evaluate import make_embedder

    embedder = make_embedder(embedder_name)
    clock = FakeClock(datetime(2023, 4, 27, tzinfo=UTC))
    records: list[dict[str, Any]] = []
    user_turns: dict[str, int] = {}
    n_users: dict[str, int] = {}
    mem = UserMemory("sqlite:///:memory:", clock=clock, embedder=embedder, config=MemoryConfig())
    try:
        for lang in LANGS:
            dialogues = load_dialogues(data, lang)
            names = sorted(dialogues)[:users] if users else sorted(dialogues)
            n_users[lang] = len(names)
            user_turns[lang] = 0
            for i, name in enumerate(names):
                turns = dialogues[name]
                uid = f"mbx-{lang}-{i}"
                observe_all(mem, clock, uid, turns)
                user_turns[lang] += sum(t.role == "user" for t in turns)
                records += stored_records(mem, lang, name, uid, turns)
    finally:
        mem.close()
    return records, user_turns, n_users


def load_labels(path: Path) -> dict[RecordId, dict[str, Any]]:
    out: dict[RecordId, dict[str, Any]] = {}
    if not path.is_file():
        return out
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if row["label"] not in LABELS:
                raise SystemExit(f"bad label {row['label']!r} in {path}")
            out[record_id(row)] = row
    return out


def _precision(labels: Iterable[str]) -> dict[str, Any]:
    c = Counter(labels)
    n = sum(c.values())
    return {
        "labelled": n,
        "correct": c["correct"],
        "precision": round(c["correct"] / n, 3) if n else None,
        "mix": {k: c[k] for k in LABELS if c[k]},
    }


def summarize(
    records: list[dict[str, Any]],
    user_turns: dict[str, int],
    labels: dict[RecordId, dict[str, Any]],
    langs: Iterable[str] | None = None,
    users: dict[str, set[str]] | None = None,
) -> dict[str, Any]:
    """Counts, precision per language and per key family, unlabelled and dropped records."""
    langs = list(langs or LANGS)
    stored = {record_id(r): r for r in records}
    per_lang: dict[str, Any] = {}
    for lang in langs:
        recs = [r for r in records if r["lang"] == lang]
        labelled = [labels[record_id(r)]["label"] for r in recs if record_id(r) in labels]
        fam: dict[str, list[str]] = defaultdict(list)
        for r in recs:
            if record_id(r) in labels:
                fam[family(r["key"])].append(labels[record_id(r)]["label"])
        in_scope = [
            row
            for rid, row in labels.items()
            if rid[0] == lang and (users is None or rid[1] in users.get(lang, set()))
        ]
        dropped = [row for row in in_scope if record_id(row) not in stored]
        turns = user_turns.get(lang, 0)
        per_lang[lang] = {
            "user_turns": turns,
            "records": len(recs),
            "per_100_user_turns": round(100 * len(recs) / turns, 1) if turns else 0.0,
            "kinds": dict(Counter(r["kind"] for r in recs).most_common()),
            "unlabelled": len(recs) - len(labelled),
            **_precision(labelled),
            "families": {
                f: _precision(v) for f, v in sorted(fam.items(), key=lambda kv: -len(kv[1]))
            },
            "dropped": len(dropped),
            "dropped_mix": dict(Counter(row["label"] for row in dropped)),
        }
    return per_lang


def render(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    lines = [
        "# MemoryBank: what the rule extractor stores, and how much is right",
        "",
        f"`{meta['command']}` ({meta['embedder']} embedder, {meta['when']}, "
        f"{meta['seconds']:.0f} s). Labels: `{meta['labels']}`.",
        "",
        "| lang | users | user turns | records | per 100 user turns | labelled | precision "
        "| wrong_key | wrong_value | should_not_store | unlabelled | dropped (correct) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for lang, s in summary.items():
        p = "-" if s["precision"] is None else f"{s['precision']:.2f}"
        lines.append(
            f"| {lang} | {meta['users'][lang]} | {s['user_turns']} | {s['records']} "
            f"| {s['per_100_user_turns']:.1f} | {s['labelled']} | {p} "
            f"| {s['mix'].get('wrong_key', 0)} | {s['mix'].get('wrong_value', 0)} "
            f"| {s['mix'].get('should_not_store', 0)} | {s['unlabelled']} "
            f"| {s['dropped']} ({s['dropped_mix'].get('correct', 0)}) |"
        )
    for lang, s in summary.items():
        lines += ["", f"## {lang}: precision per key family", ""]
        lines += ["| family | labelled | correct | precision |", "|---|---|---|---|"]
        for f, v in s["families"].items():
            p = "-" if v["precision"] is None else f"{v['precision']:.2f}"
            lines.append(f"| `{f}` | {v['labelled']} | {v['correct']} | {p} |")
    return "\n".join(lines) + "\n"


def listing(records: list[dict[str, Any]]) -> str:
    """Every stored record with its label and the turn it came from (for reading)."""
    lines = ["## Stored records", ""]
    for r in records:
        lines.append(
            f"- [{r['label'] or 'unlabelled'}] {r['lang']} {r['user']} {r['date']} #{r['turn']} "
            f"{r['kind']} {r['confidence']:.2f} `{r['key']}` = {r['value']!r}  <- {r['text']!r}"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "memorybank")
    ap.add_argument("--labels", type=Path, default=LABEL_FILE)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    ap.add_argument("--embedder", choices=("hashing", "onnx"), default="hashing")
    ap.add_argument("--users", type=int, default=None, help="first N users per language")
    ap.add_argument("--dump", type=Path, default=None, help="write every stored record (jsonl)")
    ap.add_argument("--no-list", action="store_true", help="do not print the stored records")
    args = ap.parse_args(argv)
    if not (args.data / "memory_bank_en.json").is_file():
        raise SystemExit(f"MemoryBank data not found in {args.data} (pass --data)")
    started = time.perf_counter()
    records, user_turns, n_users = run(args.data, args.embedder, args.users)
    labels = load_labels(args.labels)
    scope = None
    if args.users:
        scope = {lang: {r["user"] for r in records if r["lang"] == lang} for lang in LANGS}
        for lang in LANGS:  # users that stored nothing are still in scope
            scope[lang] |= set(sorted(load_dialogues(args.data, lang))[: args.users])
    summary = summarize(records, user_turns, labels, users=scope)
    meta = {
        "command": "python benchmarks/memorybank_extraction.py"
        + (" " + " ".join(argv) if argv else ""),
        "machine": f"{platform.machine()} {platform.system()}",
        "embedder": args.embedder,
        "labels": args.labels.name,
        "users": n_users,
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "seconds": time.perf_counter() - started,
    }
    text = render(summary, meta)
    print(text)
    for r in records:
        r["label"] = (labels.get(record_id(r)) or {}).get("label")
    if not args.no_list:
        print(listing(records))
    if args.dump:
        args.dump.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8"
        )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "memorybank_extraction.md").write_text(text, "utf-8")
    # the written report points at turns by (user, date, turn): the dialogue text stays
    # in the public data folder, never in the repository
    report = {
        "meta": meta,
        "summary": summary,
        "records": [{k: v for k, v in r.items() if k != "text"} for r in records],
    }
    (args.out / "memorybank_extraction.json").write_text(
        json.dumps(report, ensure_ascii=False, indent=1), "utf-8"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
