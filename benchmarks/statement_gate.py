"""Train, check and evaluate the learned statement gate (shared_core/ingest/statement_gate.py).

Training rows are the phrasing benchmark's development rows: the dev half of the main set
and every tunable extra split, without the yardsticks (dev5, dev13), the held-out splits
and the test half. A statement row is a positive, a must-store-nothing row a negative.
Rows that answer an assistant's question and negatives observed as assistant turns are
left out: the gate never looks at them.

    python benchmarks/statement_gate.py --write      # retrain, write the .npz
    python benchmarks/statement_gate.py --check      # retrain, compare with the shipped file
    python benchmarks/statement_gate.py --evaluate   # leave-one-round-out, see below

``--evaluate`` is the evidence for shipping it. For eight past rounds of fresh data it
takes what the rules stored on that round *before anybody tuned on it*
(``benchmarks/results/untuned_rounds.json``, recorded at each round's first commit with
``--record-rounds``), trains the gate without that round's rows, and counts the
statements the gate would have cost and the look-alikes it would have stopped, per
threshold.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.phrasing_bench import (  # noqa: E402
    DATA_DIR,
    DEV5,
    DEV13,
    EXTRA_SPLITS,
    load_data,
)
from shared_core.ingest.statement_gate import (  # noqa: E402
    BUCKETS,
    MODEL_PATH,
    StatementModel,
    features,
)

YARDSTICKS = (DEV5, DEV13)
C = 10.0
MIN_DF = 2
ROUNDS_FILE = ROOT / "benchmarks" / "results" / "untuned_rounds.json"
#: each round's fresh split and the commit that added its rows, before any tuning on them
ROUNDS = (
    ("dev18", "c330199"),
    ("dev18zh", "42c2850"),
    ("dev19zh", "9c5e5a7"),
    ("dev21", "754164e"),
    ("dev21zh", "d310b5a"),
    ("dev22zh", "607904e"),
    ("dev24", "49a14ec"),
    ("dev24zh", "28d0037"),
)
THRESHOLDS = (0.05, 0.1, 0.2, 0.3)


def gated(row: dict[str, Any]) -> bool:
    """Rows the gate looks at: said by the user, not an answer to the assistant."""
    before = row.get("before", [])
    answer = any(isinstance(t, dict) and t.get("role") == "assistant" for t in before)
    return row.get("role", "user") == "user" and not answer


def training_rows(data: dict[str, Any]) -> list[tuple[str, str, str, int]]:
    """(id, split, text, label) of every development row the gate is trained on."""
    out: list[tuple[str, str, str, int]] = []
    for kind, label in (("statements", 1), ("negatives", 0)):
        out += [(r["id"], "dev", r["text"], label) for r in data[kind] if r["split"] == "dev"]
        for split in EXTRA_SPLITS:
            if split in YARDSTICKS:
                continue
            out += [(r["id"], split, r["text"], label) for r in data[f"{split}_{kind}"]]
    by_id = {
        r["id"]: r
        for kind in ("statements", "negatives")
        for split in ("", *(f"{s}_" for s in EXTRA_SPLITS))
        for r in data[f"{split}{kind}"]
    }
    return sorted(row for row in out if gated(by_id[row[0]]))


def digest(rows: Sequence[tuple[str, str, str, int]]) -> str:
    blob = json.dumps([[i, t, y] for i, _, t, y in rows], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def train(rows: Sequence[tuple[str, str, str, int]]) -> StatementModel:
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    feats = [features(text) for _, _, text, _ in rows]
    df: dict[int, int] = {}
    for f in feats:
        for b in f:
            df[b] = df.get(b, 0) + 1
    buckets = np.array(sorted(b for b, n in df.items() if n >= MIN_DF), dtype=np.int64)
    column = {int(b): j for j, b in enumerate(buckets)}
    n_docs = len(rows)
    idf = np.array([math.log((1 + n_docs) / (1 + df[int(b)])) + 1.0 for b in buckets])
    data, cols, indptr = [], [], [0]
    for f in feats:
        kept = [(column[b], tf * idf[column[b]]) for b, tf in f.items() if b in column]
        norm = math.sqrt(sum(w * w for _, w in kept)) or 1.0
        cols += [j for j, _ in kept]
        data += [w / norm for _, w in kept]
        indptr.append(len(cols))
    x = csr_matrix((data, cols, indptr), shape=(n_docs, len(buckets)))
    y = np.array([label for *_, label in rows])
    clf = LogisticRegression(C=C, max_iter=5000, class_weight="balanced").fit(x, y)
    assert len(buckets) <= BUCKETS
    return StatementModel(
        buckets=buckets,
        idf=idf,
        coef=clf.coef_[0].astype(np.float64),
        intercept=float(clf.intercept_[0]),
        digest=digest(rows),
    )


def save(model: StatementModel, path: Path = MODEL_PATH) -> None:
    np.savez_compressed(
        path,
        buckets=model.buckets.astype(np.int32),
        idf=model.idf.astype(np.float32),
        coef=model.coef.astype(np.float32),
        intercept=np.float64(model.intercept),
        digest=np.str_(model.digest),
    )


def check(data: dict[str, Any]) -> int:
    rows = training_rows(data)
    shipped = StatementModel.load()
    if shipped.digest != digest(rows):
        print("the training rows changed since the model was written: run --write")
        return 1
    fresh = train(rows)
    worst = max(abs(shipped.score(t) - fresh.score(t)) for _, _, t, _ in rows)
    print(f"{len(rows)} rows, largest score difference {worst:.2e}")
    return 0 if worst < 1e-2 else 1  # another scikit-learn or BLAS may differ in the 4th place


def record_rounds(out: Path = ROUNDS_FILE) -> None:
    """What the rules stored on each round's rows at the commit that added them."""
    recorded: dict[str, dict[str, Any]] = {}
    script = (
        "import json,sys\n"
        "from benchmarks.phrasing_bench import load_data, run\n"
        "rep = run(load_data(), split=sys.argv[1], details=True)\n"
        "print(json.dumps({**{s['id']: s['full'] for s in rep['statements']},"
        " **{n['id']: not n['stored'] for n in rep['negatives']}}))\n"
    )
    for split, commit in ROUNDS:
        with tempfile.TemporaryDirectory() as tmp:
            wt = Path(tmp) / "wt"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(wt), commit],
                check=True,
                capture_output=True,
            )
            try:
                got = subprocess.run(
                    [sys.executable, "-c", script, split],
                    cwd=wt,
                    env={"PYTHONPATH": str(wt), "PATH": "/usr/bin:/bin"},
                    check=True,
                    capture_output=True,
                    text=True,
                )
            finally:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(wt)],
                    check=True,
                )
        recorded[split] = {"commit": commit, "ok": json.loads(got.stdout.splitlines()[-1])}
        print(split, len(recorded[split]["ok"]), file=sys.stderr)
    out.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def evaluate(data: dict[str, Any]) -> dict[str, Any]:
    """Leave one round out: the gate's cost and gain on rules nobody had tuned yet."""
    rows = training_rows(data)
    text = {i: t for i, _, t, _ in rows}
    label = {i: y for i, _, _, y in rows}
    rounds = json.loads(ROUNDS_FILE.read_text(encoding="utf-8"))
    report: dict[str, Any] = {"rounds": {}, "total": {}}
    for split, rec in rounds.items():
        model = train([r for r in rows if r[1] != split])
        per: dict[str, Any] = {}
        for i, ok in rec["ok"].items():
            if i not in label:
                continue  # an answer to a question or an assistant turn: not gated
            p = model.turn_score(text[i])
            per[i] = (label[i], ok, p)
        line: dict[str, Any] = {
            "statements": sum(y for y, _, _ in per.values()),
            "right": sum(y and ok for y, ok, _ in per.values()),
            "negatives": sum(1 - y for y, _, _ in per.values()),
            "storing": sum(not y and not ok for y, ok, _ in per.values()),
        }
        for t in THRESHOLDS:
            line[f"lost@{t}"] = sum(y and ok and p < t for y, ok, p in per.values())
            line[f"stopped@{t}"] = sum(not y and not ok and p < t for y, ok, p in per.values())
        report["rounds"][split] = line
        print(split, line, file=sys.stderr)
    keys = next(iter(report["rounds"].values())).keys()
    report["total"] = {k: sum(r[k] for r in report["rounds"].values()) for k in keys}
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true")
    group.add_argument("--check", action="store_true")
    group.add_argument("--evaluate", action="store_true")
    group.add_argument("--record-rounds", action="store_true")
    ap.add_argument("--json", type=Path, help="--evaluate: also write the report here")
    args = ap.parse_args(argv)
    data = load_data(DATA_DIR)
    if args.write:
        model = train(training_rows(data))
        save(model)
        print(f"wrote {MODEL_PATH.name}: {len(model.buckets)} buckets")
        return 0
    if args.check:
        return check(data)
    if args.record_rounds:
        record_rounds()
        return 0
    report = evaluate(data)
    total = report["total"]
    print(
        f"{total['statements']} statements ({total['right']} right untuned), "
        f"{total['negatives']} negatives ({total['storing']} storing untuned)"
    )
    for t in THRESHOLDS:
        print(
            f"threshold {t}: {total[f'lost@{t}']} right statements lost, "
            f"{total[f'stopped@{t}']} storing negatives stopped"
        )
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
