"""The core's one LLM extraction: recorded model answers, good and malformed, through the
one parser and the one bad-output policy both adapters use."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from shared_core.entities import Intent, Kind, Turn
from shared_core.errors import ExtractionError
from shared_core.ingest.extract import RuleExtractor
from shared_core.llm import (
    EXTRACTION_PROMPT,
    LlmExtraction,
    extraction_schema,
    parse_extraction,
    render_extraction_prompt,
)

TEXT = "I'm allergic to penicillin and I live in Berlin. Keep answers short."
TURN = Turn(
    user_id="u", text=TEXT, session_id="s", turn_id="t", at=datetime(2026, 4, 15, tzinfo=UTC)
)

#: Answers recorded from chat models (shapes seen in the wild), by what is wrong with them.
RECORDED_GOOD = (
    '```json\n{"memories": [{"key": "allergy.medication", "value": "penicillin", '
    '"kind": "fact", "evidence": "allergic to penicillin", "confidence": 0.95}, '
    '{"key": "location.city", "value": "Berlin", "evidence": "I live in Berlin"}, '
    '{"key": "response.length", "value": "short", "evidence": "Keep answers short"}]}\n```'
)
RECORDED_MALFORMED = [
    "Sure! The user is allergic to penicillin.",  # prose, no JSON
    '{"memories": "penicillin"}',  # not a list
    '{"result": []}',  # no memories field
    '{"memories": [{"key": "allergy.medication", "value": "penicillin"',  # truncated
    "42",
]


def policy() -> LlmExtraction:
    return LlmExtraction("llm:test")


def test_a_good_recorded_answer_becomes_checked_candidates() -> None:
    p = policy()
    cands = p.finish(TURN, RECORDED_GOOD)
    assert [(c.key, c.normalized) for c in cands] == [
        ("allergy.medication", "penicillin"),
        ("location.city", "berlin"),
        ("response.length", "short"),
    ]
    assert p.fallbacks == 0
    # kinds the model left out come from the taxonomy
    assert [c.kind for c in cands] == [Kind.FACT, Kind.FACT, Kind.PREFERENCE]
    assert cands[0].hard and cands[0].confidence_hint == 0.95
    assert all(c.extractor == "llm:test" and c.intent is Intent.ASSERT for c in cands)


@pytest.mark.parametrize("answer", RECORDED_MALFORMED)
def test_a_malformed_answer_goes_to_the_rules_whole(answer: str) -> None:
    p = policy()
    got = p.finish(TURN, answer)
    assert got == RuleExtractor().extract(TURN) and got
    assert p.fallbacks == 1


def test_bad_items_are_dropped_and_the_rules_complete_them() -> None:
    answer = {
        "memories": [
            {"key": "location.city", "value": "Berlin", "evidence": "I live in Berlin"},
            {"key": "home.city", "value": "Paris", "evidence": "I live in Paris"},  # made up
            {"key": "!!", "value": "x"},
            {"key": "budget.max", "value": "9" * 400, "evidence": "penicillin"},
            {"key": "mood", "value": "x", "kind": "mood"},
            {"key": "a", "value": "x", "confidence": 7},
            {"key": "b", "value": "x", "valid_until": "soon-ish??"},
            {"key": "c", "value": ""},
            "not an object",
        ]
    }
    p = policy()
    cands = p.finish(TURN, answer)
    keys = [c.key for c in cands]
    assert keys[0] == "location.city" and keys.count("location.city") == 1
    assert "allergy.medication" in keys  # from the rules, which the model's items missed
    assert not {"home.city", "budget.max", "mood", "a", "b", "c"} & set(keys)
    assert p.fallbacks == 1


def test_parser_accepts_the_shapes_models_answer_with() -> None:
    item = {"key": "name", "value": "Ada"}
    assert parse_extraction({"memories": [item]}) == [item]
    assert parse_extraction({"candidates": [item]}) == [item]
    assert parse_extraction([item]) == [item]
    assert parse_extraction('Here you go: {"memories": []} hope it helps') == []
    with pytest.raises(ExtractionError):
        parse_extraction("no json here")


def test_prompt_and_schema_come_from_the_taxonomy() -> None:
    prompt = render_extraction_prompt(TURN)
    assert TEXT in prompt and "contact.channel" in prompt and "note.<slug>" in prompt
    assert "{keys}" in EXTRACTION_PROMPT
    schema = extraction_schema()
    assert schema["properties"]["memories"]["type"] == "array"
    assert any(k["key"] == "budget.max" for k in schema["x-keys"])


#: A recorded answer to the prompt of "Leeds." sent after "Where are you based?".
RECORDED_ANSWER = '{"memories": [{"key": "location.city", "value": "Leeds", "evidence": "Leeds"}]}'


class _RecordedModel:
    """An LLM extractor whose model call is a recorded answer (per turn text)."""

    name = "llm:recorded"

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers
        self.prompts: list[str] = []
        self.policy = LlmExtraction(self.name)

    def extract(self, turn: Turn) -> list[Any]:
        if not self.policy.wanted(turn):
            return self.policy.not_sent(turn)
        self.prompts.append(render_extraction_prompt(turn))
        return self.policy.finish(turn, self.answers.get(turn.text, '{"memories": []}'))


def test_the_prompt_carries_the_assistants_question_when_there_is_one() -> None:
    asked = Turn(
        user_id="u",
        text="Leeds.",
        session_id="s",
        turn_id="t",
        at=datetime(2026, 4, 15, tzinfo=UTC),
        asked="Where are you based?",
    )
    prompt = render_extraction_prompt(asked)
    assert "Where are you based?" in prompt and prompt.rstrip().endswith("Leeds.")
    assert "just asked" not in render_extraction_prompt(TURN)
    cands = LlmExtraction("llm:test").finish(asked, RECORDED_ANSWER)
    assert [(c.key, c.normalized, c.span) for c in cands] == [("location.city", "leeds", "Leeds")]


def test_an_llm_extractor_is_given_the_question_through_observe() -> None:
    from shared_core import UserMemory
    from shared_core.embed import HashingEmbedder

    model = _RecordedModel({"Leeds.": RECORDED_ANSWER})
    with UserMemory("sqlite:///:memory:", embedder=HashingEmbedder(), extractor=model) as mem:
        mem.observe("u", "Where are you based?", role="assistant", session_id="s")
        mem.observe("u", "Leeds.", session_id="s")
        assert mem.profile("u")["location.city"] == "Leeds"
    assert len(model.prompts) == 1 and "Where are you based?" in model.prompts[0]
