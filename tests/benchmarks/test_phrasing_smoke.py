"""The phrasing benchmark's data files validate, its scorer compares as SCHEMA.md says, and a
run on a handful of rows produces a well-formed report. Accuracy is not asserted here: the
numbers are the benchmark's output (README, Extraction), not a test floor.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
pb = importlib.import_module("phrasing_bench")


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return pb.load_data()


def test_data_files_validate(data: dict[str, Any]) -> None:
    assert pb.validate(data) == []
    stmts, negs = data["statements"], data["negatives"]
    assert len(stmts) >= 300 and len(negs) >= 150
    assert sum(r["lang"] == "zh" for r in stmts) >= 120
    assert len({r["category"] for r in stmts}) >= 25
    ids = [r["id"] for r in (*stmts, *negs)]
    assert len(ids) == len(set(ids))
    for rows in (stmts, negs):
        assert {r["split"] for r in rows} == {"dev", "test"}
        assert {r["lang"] for r in rows} == {"en", "zh"}
    assert {e["key"] for r in stmts for e in r["expected"]} <= set(data["keys"])


def test_halves_are_balanced_per_language_and_category(data: dict[str, Any]) -> None:
    for rows in (data["statements"], data["negatives"]):
        per: Counter[tuple[str, str, str]] = Counter(
            (r["lang"], r["category"], r["split"]) for r in rows
        )
        for lang, cat in {(r["lang"], r["category"]) for r in rows}:
            assert abs(per[(lang, cat, "dev")] - per[(lang, cat, "test")]) <= 1, (lang, cat)
        dev = sum(r["split"] == "dev" for r in rows)
        assert abs(2 * dev - len(rows)) <= 2


def test_validate_catches_bad_rows(data: dict[str, Any]) -> None:
    row = dict(data["statements"][0])
    bad = [
        {**row, "expected": [{"key": "no.such.key", "value": "x"}]},
        {**row, "id": row["id"] + "x", "expected": [{"key": "contact.channel", "value": "fax"}]},
        {**row, "id": row["id"] + "y", "expected": [{"key": "budget.max", "value": "2k"}]},
        {**row, "id": row["id"] + "z", "expected": [{"key": "allergy.food", "value": "peanut"}]},
    ]
    broken = {**data, "statements": [*data["statements"], *bad]}
    problems = "\n".join(pb.validate(broken))
    assert "duplicate id" in problems
    assert "'no.such.key' is not in keys.json" in problems
    assert "'fax' is not one of" in problems
    assert "'2k' is not a valid amount" in problems
    assert "allergy.food: a list type needs" in problems


def test_schema_md_lists_every_key(data: dict[str, Any]) -> None:
    schema = (pb.DATA_DIR / "SCHEMA.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([^`]+)`", schema, flags=re.M))
    assert set(data["keys"]) <= listed


def _rec(key: str, value: str, normalized: str = "") -> dict[str, str]:
    return {"key": key, "value": value, "normalized": normalized}


def test_scorer_compares_as_the_schema_says(data: dict[str, Any]) -> None:
    keys = data["keys"]

    def full(expected: list[dict[str, Any]], records: list[dict[str, str]]) -> bool:
        return bool(pb.score_statement(expected, records, keys)["full"])

    budget = [{"key": "budget.max", "value": "1500 USD"}]
    assert full(budget, [_rec("budget.max", "$1.5k max", "1500 USD")])
    # the currency read from the stored words (taxonomy.canonical) counts; none anywhere fails
    assert full(budget, [_rec("budget.max", "$1.5k max", "1500")])
    assert not full(budget, [_rec("budget.max", "1.5k max", "1500")])  # currency lost
    assert full([{"key": "budget.max", "value": "2000"}], [_rec("budget.max", "2k", "2000 EUR")])
    # list keys: items of sub-keys count, the set must be equal
    allergy = [{"key": "allergy.food", "value": ["egg", "sesame"]}]
    assert full(allergy, [_rec("allergy.food", "eggs"), _rec("allergy.food.sesame", "sesame")])
    assert full(allergy, [_rec("allergy.food", "eggs and sesame")])
    assert not full(allergy, [_rec("allergy.food", "eggs")])
    assert not full(allergy, [_rec("allergy.food", "eggs, sesame, milk")])
    # scalar keys match exactly; alternatives with |
    city = [{"key": "location.city", "value": "北京|Beijing"}]
    assert full(city, [_rec("location.city", "北京", "beijing")])
    assert not full(city, [_rec("location.city.previous", "北京")])
    assert not full(city, [_rec("location.city", "北京 from 上海")])
    hours = [{"key": "contact.quiet_hours", "value": "22:00-07:00"}]
    assert full(hours, [_rec("contact.quiet_hours", "10pm to 7am", "22:00–07:00")])
    note = [{"key": "note", "value": "I'm left-handed"}]
    assert full(note, [_rec("note.left_handed", "im left handed!")])
    assert not full(note, [_rec("note.left_handed", "handed")])
    outcome = pb.score_statement(city, [_rec("location.city", "Paris")], keys)
    assert outcome["key"] and not outcome["full"]


def test_run_on_a_handful_of_rows(data: dict[str, Any], tmp_path: Path) -> None:
    report = pb.run(data, split="dev", limit=3, details=True)
    assert set(report["table"]) == {"dev"}
    for lang in ("en", "zh", "all"):
        row = report["table"]["dev"][lang]
        assert set(row) == {
            "statements",
            "key_and_value_pct",
            "key_pct",
            "negatives",
            "negatives_storing_pct",
        }
    total = report["table"]["dev"]["all"]
    assert total["statements"] == 3 and total["negatives"] == 3
    for v in (total["key_and_value_pct"], total["key_pct"], total["negatives_storing_pct"]):
        assert 0.0 <= v <= 100.0
    assert total["key_pct"] >= total["key_and_value_pct"]
    assert len(report["statements"]) == 3 and len(report["negatives"]) == 3
    assert report["errors"] == 0

    out = tmp_path / "report.json"
    assert pb.main(["--split", "test", "--limit", "2", "--json", str(out)]) == 0
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert set(saved["table"]) == {"test"} and "statements" not in saved
    assert pb.render_markdown(saved).count("\n| test |") == 3
    with pytest.raises(SystemExit):
        pb.main(["--split", "test", "--details"])


def test_dev2_is_a_separate_valid_development_set(data: dict[str, Any]) -> None:
    stmts, negs = data["dev2_statements"], data["dev2_negatives"]
    assert len(stmts) >= 240 and len(negs) >= 100
    per_lang = Counter(r["lang"] for r in stmts)
    assert abs(per_lang["en"] - per_lang["zh"]) <= 10
    assert {r["category"] for r in stmts} == {r["category"] for r in data["statements"]}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev2"}
    # its rows are not dealt into dev/test and "all" stays dev + test
    report = pb.run(data, split="all", limit=1)
    assert set(report["table"]) == {"dev", "test"}
    broken = {**data, "dev2_statements": [*stmts, {**stmts[0], "split": "test"}]}
    problems = "\n".join(pb.validate(broken))
    assert "duplicate id" in problems and "dev2 rows have split 'dev2'" in problems


def test_run_on_dev2(data: dict[str, Any]) -> None:
    report = pb.run(data, split="dev2", limit=2, details=True)
    assert set(report["table"]) == {"dev2"}
    total = report["table"]["dev2"]["all"]
    assert total["statements"] == 2 and total["negatives"] == 2
    assert {s["id"] for s in report["statements"]} <= {r["id"] for r in data["dev2_statements"]}


def test_one_command_reports_dev_test_and_dev2(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    assert pb.main(["--split", "all", "--with-dev2", "--limit", "1", "--json", str(out)]) == 0
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert {"dev", "test", "dev2", "dev3", "dev4", "dev5", "dev6"} <= set(saved["table"])
    assert pb.render_markdown(saved).count("\n| dev2 |") == 3
    assert pb.render_markdown(saved).count("\n| dev3 |") == 3
    assert pb.render_markdown(saved).count("\n| dev4 |") == 3


def test_dev3_is_a_third_valid_development_set(data: dict[str, Any]) -> None:
    stmts, negs = data["dev3_statements"], data["dev3_negatives"]
    assert len(stmts) >= 160 and len(negs) >= 80
    per_lang = Counter(r["lang"] for r in stmts)
    assert abs(per_lang["en"] - per_lang["zh"]) <= 10
    assert Counter(r["lang"] for r in negs)["zh"] > len(negs) / 2
    assert {r["category"] for r in stmts} == {r["category"] for r in data["statements"]}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev3"}
    report = pb.run(data, split="dev3", limit=2)
    assert set(report["table"]) == {"dev3"}
    # an id shared with dev2 is caught
    clash = {**data, "dev3_negatives": [*negs, {**data["dev2_negatives"][0], "split": "dev3"}]}
    assert "dev3 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev5_is_an_english_yardstick(data: dict[str, Any]) -> None:
    stmts, negs = data["dev5_statements"], data["dev5_negatives"]
    assert len(stmts) >= 90 and len(negs) >= 40
    assert {r["lang"] for r in (*stmts, *negs)} == {"en"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev5"}
    groups = {spec["group"] for spec in data["keys"].values()}
    assert {r["category"] for r in stmts} == groups
    assert any(r.get("role") == "assistant" for r in negs)
    report = pb.run(data, split="dev5", limit=2)
    assert report["table"]["dev5"]["en"]["statements"] == 2


def test_dev4_is_a_fourth_valid_development_set(data: dict[str, Any]) -> None:
    stmts, negs = data["dev4_statements"], data["dev4_negatives"]
    zh = [r for r in stmts if r["lang"] == "zh"]
    assert len(zh) >= 170 and sum(r["lang"] == "zh" for r in negs) >= 60
    assert {r["split"] for r in (*stmts, *negs)} == {"dev4"}
    groups = {spec["group"] for spec in data["keys"].values()}
    assert groups <= {r["category"] for r in zh}
    assert any(r.get("role") == "assistant" for r in negs)
    assert any(r.get("before") for r in negs if r["category"] == "retraction")
    report = pb.run(data, split="dev4", limit=2)
    assert set(report["table"]) == {"dev4"}
    # an id shared with dev3 is caught
    clash = {**data, "dev4_statements": [*stmts, {**data["dev3_statements"][0], "split": "dev4"}]}
    assert "dev4 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev7_is_a_chinese_set_over_every_group(data: dict[str, Any]) -> None:
    stmts, negs = data["dev7_statements"], data["dev7_negatives"]
    assert len(stmts) >= 120 and len(negs) >= 40
    assert {r["lang"] for r in (*stmts, *negs)} == {"zh"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev7"}
    groups = {spec["group"] for spec in data["keys"].values()}
    assert {r["category"] for r in stmts} == groups
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in negs if r["category"] == "assistant")
    assert all(r.get("before") for r in negs if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d7-zh-{r['category']}-") for r in (*stmts, *negs))
    report = pb.run(data, split="dev7", limit=2)
    assert set(report["table"]) == {"dev7"}
    # an id shared with dev4 is caught
    clash = {**data, "dev7_statements": [*stmts, {**data["dev4_statements"][0], "split": "dev7"}]}
    assert "dev7 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev9_is_a_second_chinese_set_over_every_group(data: dict[str, Any]) -> None:
    stmts, negs = data["dev9_statements"], data["dev9_negatives"]
    assert len(stmts) >= 200 and len(negs) >= 90
    assert {r["lang"] for r in (*stmts, *negs)} == {"zh"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev9"}
    groups = {spec["group"] for spec in data["keys"].values()}
    assert {r["category"] for r in stmts} == groups
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in negs if r["category"] == "assistant")
    assert all(r.get("before") for r in negs if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d9-zh-{r['category']}-") for r in (*stmts, *negs))
    report = pb.run(data, split="dev9", limit=2)
    assert set(report["table"]) == {"dev9"}
    clash = {**data, "dev9_statements": [*stmts, {**data["dev7_statements"][0], "split": "dev9"}]}
    assert "dev9 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev10_is_a_fresh_english_set_over_every_group(data: dict[str, Any]) -> None:
    stmts, negs = data["dev10_statements"], data["dev10_negatives"]
    assert len(stmts) >= 220 and len(negs) >= 90
    assert {r["lang"] for r in (*stmts, *negs)} == {"en"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev10"}
    groups = {spec["group"] for spec in data["keys"].values()}
    assert groups <= {r["category"] for r in stmts}
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in negs if r["category"] == "assistant")
    assert all(r.get("before") for r in negs if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d10-en-{r['category']}-") for r in stmts)
    assert all(r["id"].startswith(f"d10n-en-{r['category']}-") for r in negs)
    report = pb.run(data, split="dev10", limit=2)
    assert set(report["table"]) == {"dev10"}
    clash = {**data, "dev10_statements": [*stmts, {**data["dev8_statements"][0], "split": "dev10"}]}
    assert "dev10 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev11_is_a_chinese_register_set_over_every_group(data: dict[str, Any]) -> None:
    stmts, negs = data["dev11_statements"], data["dev11_negatives"]
    assert len(stmts) >= 180 and len(negs) >= 120
    assert {r["lang"] for r in (*stmts, *negs)} == {"zh"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev11"}
    groups = {spec["group"] for spec in data["keys"].values()}
    assert {r["category"] for r in stmts} == groups
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in negs if r["category"] == "assistant")
    assert all(r.get("before") for r in negs if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d11-zh-{r['category']}-") for r in (*stmts, *negs))
    report = pb.run(data, split="dev11", limit=2)
    assert set(report["table"]) == {"dev11"}
    clash = {**data, "dev11_statements": [*stmts, {**data["dev9_statements"][0], "split": "dev11"}]}
    assert "dev11 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev12_is_an_english_register_set_over_every_group(data: dict[str, Any]) -> None:
    stmts, negs = data["dev12_statements"], data["dev12_negatives"]
    assert len(stmts) >= 260 and len(negs) >= 100
    assert {r["lang"] for r in (*stmts, *negs)} == {"en"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev12"}
    groups = {spec["group"] for spec in data["keys"].values()}
    assert groups <= {r["category"] for r in stmts}
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in negs if r["category"] == "assistant")
    assert all(r.get("before") for r in negs if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d12-en-{r['category']}-") for r in stmts)
    assert all(r["id"].startswith(f"d12n-en-{r['category']}-") for r in negs)
    report = pb.run(data, split="dev12", limit=2)
    assert set(report["table"]) == {"dev12"}
    borrowed = {**data["dev10_statements"][0], "split": "dev12"}
    clash = {**data, "dev12_statements": [*stmts, borrowed]}
    assert "dev12 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev15_is_plain_english_chat_over_every_group(data: dict[str, Any]) -> None:
    stmts, negs = data["dev15_statements"], data["dev15_negatives"]
    assert len(stmts) >= 200 and len(negs) >= 60
    assert {r["lang"] for r in (*stmts, *negs)} == {"en"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev15"}
    groups = {spec["group"] for spec in data["keys"].values()}
    per_group = Counter(r["category"] for r in stmts)
    assert all(per_group[group] >= 4 for group in groups)
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in negs if r["category"] == "assistant")
    assert all(r.get("before") for r in negs if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d15-en-{r['category']}-") for r in stmts)
    assert all(r["id"].startswith(f"d15n-en-{r['category']}-") for r in negs)
    report = pb.run(data, split="dev15", limit=2)
    assert set(report["table"]) == {"dev15"}
    borrowed = {**data["dev12_statements"][0], "split": "dev15"}
    clash = {**data, "dev15_statements": [*stmts, borrowed]}
    assert "dev15 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev12zh_is_a_chinese_set_with_hard_negatives(data: dict[str, Any]) -> None:
    stmts, negs = data["dev12zh_statements"], data["dev12zh_negatives"]
    assert len(stmts) >= 120 and len(negs) >= 200
    assert {r["lang"] for r in (*stmts, *negs)} == {"zh"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev12zh"}
    groups = {spec["group"] for spec in data["keys"].values()}
    assert groups <= {r["category"] for r in stmts}
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in negs if r["category"] == "assistant")
    assert all(r.get("before") for r in negs if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d12-zh-{r['category']}-") for r in stmts)
    assert all(r["id"].startswith(f"d12n-zh-{r['category']}-") for r in negs)
    report = pb.run(data, split="dev12zh", limit=2)
    assert set(report["table"]) == {"dev12zh"}
    taken = {**data["dev11_negatives"][0], "split": "dev12zh"}
    clash = {**data, "dev12zh_negatives": [*negs, taken]}
    assert "dev12zh id also used by another set" in "\n".join(pb.validate(clash))


def test_dev15zh_is_plain_chinese_chat_over_every_group(data: dict[str, Any]) -> None:
    stmts, negs = data["dev15zh_statements"], data["dev15zh_negatives"]
    assert len(stmts) >= 200 and len(negs) >= 60
    assert {r["lang"] for r in (*stmts, *negs)} == {"zh"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev15zh"}
    groups = {spec["group"] for spec in data["keys"].values()}
    per_group = Counter(r["category"] for r in stmts)
    assert groups <= set(per_group)
    assert min(per_group[g] for g in groups) >= 4
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in negs if r["category"] == "assistant")
    assert all(r.get("before") for r in negs if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d15-zh-{r['category']}-") for r in stmts)
    assert all(r["id"].startswith(f"d15n-zh-{r['category']}-") for r in negs)
    report = pb.run(data, split="dev15zh", limit=2)
    assert set(report["table"]) == {"dev15zh"}
    taken = {**data["dev12zh_negatives"][0], "split": "dev15zh"}
    clash = {**data, "dev15zh_negatives": [*negs, taken]}
    assert "dev15zh id also used by another set" in "\n".join(pb.validate(clash))


def test_dev6_is_a_negatives_only_set_in_both_languages(data: dict[str, Any]) -> None:
    negs = data["dev6_negatives"]
    assert not data["dev6_statements"]  # negatives only: the bench must cope with that
    neg_categories = {r["category"] for r in data["negatives"]}
    for lang in ("en", "zh"):
        rows = [r for r in negs if r["lang"] == lang]
        assert len(rows) >= 90
        assert {r["category"] for r in rows} == neg_categories
        assert all(r.get("role") == "assistant" for r in rows if r["category"] == "assistant")
        assert all(r.get("before") for r in rows if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d6-{r['lang']}-{r['category']}-") for r in negs)
    assert {r["split"] for r in negs} == {"dev6"}
    report = pb.run(data, split="dev6", limit=2)
    assert report["table"]["dev6"]["all"]["statements"] == 0
    assert report["table"]["dev6"]["all"]["negatives"] == 2
    # an id shared with dev5 is caught
    clash = {**data, "dev6_negatives": [*negs, {**data["dev5_negatives"][0], "split": "dev6"}]}
    assert "dev6 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev4_has_an_english_half_over_every_category(data: dict[str, Any]) -> None:
    stmts, negs = data["dev4_statements"], data["dev4_negatives"]
    en = [r for r in stmts if r["lang"] == "en"]
    en_negs = [r for r in negs if r["lang"] == "en"]
    assert len(en) >= 170 and len(en_negs) >= 60
    per_cat = Counter(r["category"] for r in en)
    assert set(per_cat) == {r["category"] for r in data["statements"]}
    assert min(per_cat.values()) >= 4
    assert {r["category"] for r in en_negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in en_negs if r["category"] == "assistant")
    assert all(r.get("before") for r in en_negs if r["category"] == "retraction")
    assert all(r["id"].startswith(f"d4-{r['lang']}-") for r in (*stmts, *negs))


def test_dev8_is_an_english_set_over_every_group(data: dict[str, Any]) -> None:
    stmts, negs = data["dev8_statements"], data["dev8_negatives"]
    assert len(stmts) >= 220 and len(negs) >= 70
    assert {r["lang"] for r in (*stmts, *negs)} == {"en"}
    assert {r["split"] for r in (*stmts, *negs)} == {"dev8"}
    groups = {spec["group"] for spec in data["keys"].values()}
    assert groups <= {r["category"] for r in stmts}
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r.get("role") == "assistant" for r in negs if r["category"] == "assistant")
    assert all(r.get("before") for r in negs if r["category"] == "retraction")
    report = pb.run(data, split="dev8", limit=2)
    assert set(report["table"]) == {"dev8"}
    clash = {**data, "dev8_statements": [*stmts, {**data["dev5_statements"][0], "split": "dev8"}]}
    assert "dev8 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev14_is_an_english_negatives_only_set(data: dict[str, Any]) -> None:
    negs = data["dev14_negatives"]
    assert not data["dev14_statements"]  # negatives only, like dev6
    assert len(negs) >= 250
    assert {r["lang"] for r in negs} == {"en"}
    assert {r["split"] for r in negs} == {"dev14"}
    assert {r["category"] for r in negs} == {r["category"] for r in data["negatives"]}
    assert all(r["id"].startswith(f"d14n-en-{r['category']}-") for r in negs)
    # assistant text is mostly pasted by the user, some rows are real assistant turns
    roles = {r.get("role", "user") for r in negs if r["category"] == "assistant"}
    assert roles == {"user", "assistant"}
    report = pb.run(data, split="dev14", limit=2)
    assert report["table"]["dev14"]["all"]["statements"] == 0
    assert report["table"]["dev14"]["all"]["negatives"] == 2
    clash = {**data, "dev14_negatives": [*negs, {**data["dev6_negatives"][0], "split": "dev14"}]}
    assert "dev14 id also used by another set" in "\n".join(pb.validate(clash))


def test_dev13_is_a_two_language_yardstick_over_every_group(data: dict[str, Any]) -> None:
    stmts, negs = data["dev13_statements"], data["dev13_negatives"]
    by_lang = {lang: [r for r in stmts if r["lang"] == lang] for lang in ("en", "zh")}
    assert len(by_lang["en"]) >= 250 and len(by_lang["zh"]) >= 100
    assert sum(r["lang"] == "en" for r in negs) >= 100
    assert sum(r["lang"] == "zh" for r in negs) >= 120
    assert {r["split"] for r in (*stmts, *negs)} == {"dev13"}
    groups = {spec["group"] for spec in data["keys"].values()}
    for rows in by_lang.values():
        assert groups <= {r["category"] for r in rows}
    report = pb.run(data, split="dev13", limit=2)
    assert set(report["table"]) == {"dev13"}


def test_an_earlier_turn_may_be_the_assistants_question(data: dict[str, Any]) -> None:
    row = {
        "id": "qa-1",
        "text": "Leeds",
        "before": ["hi", {"role": "assistant", "text": "Where are you based?"}],
    }
    assert pb.turns_of(row) == [
        ("user", "hi"),
        ("assistant", "Where are you based?"),
        ("user", "Leeds"),
    ]
    assert pb.turns_of({"id": "n", "text": "ok"}, "assistant") == [("assistant", "ok")]
    bad = {
        "id": "d23-en-city-99",
        "lang": "en",
        "category": "city",
        "split": "dev23",
        "text": "Leeds",
        "before": [{"role": "robot", "text": "Where are you based?"}],
        "expected": [{"key": "location.city", "value": "Leeds"}],
    }
    broken = {**data, "dev23_statements": [*data["dev23_statements"], bad]}
    assert any("d23-en-city-99: bad earlier turns" in p for p in pb.validate(broken))


def test_held_out_splits_stay_out_of_the_development_table() -> None:
    assert set(pb.HELDOUT_SPLITS).isdisjoint(pb.EXTRA_SPLITS)
    with pytest.raises(SystemExit):
        pb.main(["--split", "dev23x", "--details"])
