"""The key taxonomy is one table that labels, query rewriting and the LLM schema read."""

from __future__ import annotations

import pytest

from shared_core.entities import Kind
from shared_core.recall.rewrite import rewrite
from shared_core.taxonomy import KEYS, kind_of, label, llm_schema, query_synonyms, spec


@pytest.mark.parametrize(
    ("key", "lang", "text"),
    [
        ("contact.channel", "en", "Preferred contact channel"),
        ("contact.channel", "zh", "首选联系方式"),
        ("contact.channel", "zh-CN", "首选联系方式"),
        ("allergy.medication.ibuprofen", "en", "Medication allergy: ibuprofen"),
        ("taste.jazz_music", "en", "Likes and dislikes: jazz music"),
        ("recommend.credit_cards", "zh", "不要推荐: credit cards"),
        ("unknown.key", "en", "unknown.key"),
    ],
)
def test_labels(key: str, lang: str, text: str) -> None:
    assert label(key, lang) == text


def test_every_row_is_complete() -> None:
    for key, row in KEYS.items():
        assert row.key == key and row.label_en and row.label_zh, key
        assert row.value_type != "enum" or row.values, f"{key}: an enum lists its values"


def test_spec_and_kind_fall_back_to_the_longest_prefix() -> None:
    assert spec("allergy.medication.ibuprofen") is KEYS["allergy.medication"]
    assert spec("family.wife") is KEYS["family.wife"]
    assert spec("family.cousin") is KEYS["family."]
    assert kind_of("recommend.credit_cards") is Kind.CONSTRAINT
    assert kind_of("no.such.key") is Kind.FACT


def test_rewrite_reads_query_words_from_the_taxonomy() -> None:
    words = query_synonyms()
    assert "contact." in words["phone"] and "allergy" in words["过敏"]
    assert rewrite("How should you contact me?").key_prefixes[:1] == ("contact.",)
    assert "budget." in rewrite("我的预算是多少").key_prefixes


def test_llm_schema_lists_the_taxonomy_keys() -> None:
    schema = llm_schema()
    listed = {k["key"] for k in schema["x-keys"]}
    assert {"contact.channel", "budget.max", "taste.<slug>", "note.<slug>"} <= listed
    channel = next(k for k in schema["x-keys"] if k["key"] == "contact.channel")
    assert "sms" in channel["values"]
