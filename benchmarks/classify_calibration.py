"""Fit the embedding classifier's threshold and margin on the development sets only.

Every English statement of dev, dev2 and dev3 (``benchmarks/phrasing/``) with one
expected key, and every English negative, is classified as a whole (rules bypassed) by
:class:`shared_core.ingest.classify.PrototypeClassifier` with MiniLM (ONNX). For a grid of
thresholds and margins it prints how many statements get the right key with a value
(correct), a wrong key with a value (wrong), and how many negatives would get a key with a
value (only the sentences that pass the classifier's statement filter, as in
``observe``). The test half and dev5 are never read here.

    python benchmarks/classify_calibration.py
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.phrasing_bench import load_data
from shared_core.embed import OnnxEmbedder
from shared_core.ingest.classify import (
    PrototypeClassifier,
    _polarity,
    unread_sentences,
    values,
)

FIT_SPLITS = ("dev", "dev2", "dev3")


def main() -> int:
    data = load_data()
    stmts = [r for r in data["statements"] if r["split"] == "dev"]
    negs = [r for r in data["negatives"] if r["split"] == "dev"]
    for extra in FIT_SPLITS[1:]:
        stmts += data[f"{extra}_statements"]
        negs += data[f"{extra}_negatives"]
    stmts = [r for r in stmts if r["lang"] == "en" and len(r["expected"]) == 1]
    negs = [r for r in negs if r["lang"] == "en"]
    clf = PrototypeClassifier(OnnxEmbedder())
    rows = []
    for r in stmts:
        p = clf.predict(r["text"])
        p = dataclasses.replace(p, key=_polarity(p.key, r["text"]))
        ok_value = bool(values(p.key, r["text"])) if p.key != "note" else False
        rows.append((p, r["expected"][0]["key"], ok_value))
    neg_rows = []
    for r in negs:  # as observe() sees them: only sentences that read as statements
        for sent in unread_sentences(r["text"], []) if r.get("role", "user") == "user" else []:
            p = clf.predict(sent)
            neg_rows.append((p, p.key != "note" and bool(values(p.key, sent))))
    top1 = sum(p.key == k for p, k, _ in rows)
    print(
        f"{len(rows)} statements, top-1 key {top1} ({100 * top1 / len(rows):.1f} %); "
        f"{len(neg_rows)} negatives"
    )
    print("threshold margin | correct wrong (key with a value) | negatives with a key+value")
    for th in (0.35, 0.4, 0.45, 0.5, 0.55, 0.6):
        for mg in (0.0, 0.02, 0.04, 0.06, 0.08, 0.1):
            take = [(p, k) for p, k, v in rows if v and p.score >= th and p.margin >= mg]
            right = sum(p.key == k for p, k in take)
            neg = sum(v and p.score >= th and p.margin >= mg for p, v in neg_rows)
            print(f"{th:.2f} {mg:.2f} | {right:4d} {len(take) - right:4d} | {neg:3d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
