"""LangChainExtractor (structured output -> Candidates, fallback to rules) and embedders."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage
from lc_support import START, RecordingChatModel

from langchain_usermemory import LangChainEmbedder, LangChainExtractor, UserMemoryEmbeddings
from shared_core import ConfigError, FakeClock, InvalidInputError, Kind, Turn, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.ingest.extract import RuleExtractor

TEXT = "I'm allergic to penicillin. Please remember I prefer green tea in the morning."


def turn(text: str = TEXT, role: str = "user") -> Turn:
    return Turn(user_id="u1", text=text, role=role, session_id="s1", turn_id="t1", at=START)


def tool_reply(args: Any) -> AIMessage:
    return AIMessage(
        content="", tool_calls=[{"name": "ExtractedMemories", "args": args, "id": "c1"}]
    )


def model_with(*replies: AIMessage | str) -> RecordingChatModel:
    return RecordingChatModel(messages=iter(replies))


GOOD = {
    "memories": [
        {
            "kind": "constraint",
            "key": "allergy.medication",
            "value": "penicillin",
            "explicitness": "explicit",
            "confidence": 0.9,
            "evidence": "I'm allergic to penicillin",
            "hard": True,
        },
        {
            "kind": "preference",
            "key": "Drink Morning",
            "value": "green tea",
            "confidence": 0.8,
            "evidence": "I prefer green tea in the morning",
            "valid_until": "2026-12-31",
        },
    ]
}


def test_structured_output_becomes_candidates() -> None:
    model = model_with(tool_reply(GOOD))
    extractor = LangChainExtractor(model)
    cands = extractor.extract(turn())
    assert [(c.kind, c.key, c.value) for c in cands] == [
        (Kind.CONSTRAINT, "allergy.medication", "penicillin"),
        (Kind.PREFERENCE, "drink_morning", "green tea"),
    ]
    assert cands[0].hard and cands[0].explicit and cands[0].confidence_hint == 0.9
    assert (
        cands[1].valid_until is not None and cands[1].valid_until.date().isoformat() == "2026-12-31"
    )
    assert all(c.extractor.startswith("llm:") for c in cands)
    # the model saw the system instructions and the turn text
    sent = model.calls[0]
    assert "extract" in str(sent[0].content).lower() and TEXT in str(sent[-1].content)


async def test_async_extract_uses_the_model() -> None:
    extractor = LangChainExtractor(model_with(tool_reply(GOOD)))
    cands = await extractor.aextract(turn())
    assert {c.key for c in cands} == {"allergy.medication", "drink_morning"}


def test_assistant_turns_are_not_sent_to_the_model() -> None:
    model = model_with(tool_reply(GOOD))
    assert LangChainExtractor(model).extract(turn("Sure, noted!", role="assistant")) == []
    assert model.calls == []


@pytest.mark.parametrize(
    "reply",
    [
        AIMessage(content="Sure! The user likes tea."),  # no tool call at all
        tool_reply({"memories": "not a list"}),  # schema violation, nothing to salvage
        tool_reply({"unexpected": 1}),
        AIMessage(content="", tool_calls=[{"name": "Other", "args": {}, "id": "x"}]),
    ],
)
def test_malformed_output_degrades_to_rules(
    reply: AIMessage, caplog: pytest.LogCaptureFixture
) -> None:
    rules = RuleExtractor().extract(turn())
    assert rules, "the rule extractor should find something in TEXT"
    with caplog.at_level(logging.WARNING):
        cands = LangChainExtractor(model_with(reply)).extract(turn())
    assert [(c.key, c.value) for c in cands] == [(c.key, c.value) for c in rules]
    assert all(c.extractor != "llm:RecordingChatModel" for c in cands)


def test_model_exception_degrades_to_rules() -> None:
    class Boom(RecordingChatModel):
        def _generate(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("rate limited")

    cands = LangChainExtractor(Boom(messages=iter([]))).extract(turn())
    assert [c.key for c in cands] == [c.key for c in RuleExtractor().extract(turn())]


def test_partial_output_keeps_valid_candidates_and_drops_garbage() -> None:
    partial = {
        "memories": [
            GOOD["memories"][1],
            {"kind": "fact", "key": "name"},  # missing value/evidence
            {
                "kind": "fact",
                "key": "city",
                "value": "Paris",
                "evidence": "I live in Paris",
            },  # not in text
            {"kind": "weird", "key": "x", "value": "y", "evidence": "green tea"},
            {"kind": "fact", "key": "!!bad key!!", "value": "y", "evidence": "green tea"},
            {
                "kind": "fact",
                "key": "when",
                "value": "y",
                "evidence": "green tea",
                "valid_until": "soon-ish??",
            },
            {"kind": "fact", "key": "conf", "value": "y", "evidence": "green tea", "confidence": 7},
        ]
    }
    cands = LangChainExtractor(model_with(tool_reply(partial))).extract(turn())
    keys = [c.key for c in cands]
    assert "drink_morning" in keys
    for garbage in ("name", "city", "x", "when", "conf"):
        assert garbage not in keys
    assert not any("!!" in k for k in keys)
    # the rule extractor completed what the model got wrong (the allergy)
    rule_keys = {c.key for c in RuleExtractor().extract(turn())}
    assert rule_keys - {"drink_morning"} <= set(keys)


def test_hallucinated_evidence_is_dropped_even_when_output_parses() -> None:
    made_up = {
        "memories": [
            {"kind": "fact", "key": "home.city", "value": "Berlin", "evidence": "I live in Berlin"}
        ]
    }
    cands = LangChainExtractor(model_with(tool_reply(made_up))).extract(
        turn("I'd like a window seat.")
    )
    assert all(c.value != "Berlin" for c in cands)


def test_model_without_tool_calling_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        LangChainExtractor(FakeListChatModel(responses=["x"]))


def test_extractor_plugs_into_the_core(clock: FakeClock) -> None:
    extractor = LangChainExtractor(model_with(tool_reply(GOOD), tool_reply({"memories": []})))
    with UserMemory.from_url(
        "sqlite:///:memory:", embedder=HashingEmbedder(), extractor=extractor, clock=clock
    ) as mem:
        mem.observe("u1", TEXT)
        profile = mem.profile("u1")
        assert profile["allergy.medication"] == "penicillin"
        assert profile["drink_morning"] == "green tea"
        history = mem.history("u1", "drink_morning")
        assert history[0].provenance.span == "I prefer green tea in the morning"
        # an empty candidate list from the model stores nothing new
        before = set(mem.profile("u1"))
        mem.observe("u1", "What's the weather like?")
        assert set(mem.profile("u1")) == before


def test_langchain_embeddings_as_core_embedder(clock: FakeClock) -> None:
    embedder = LangChainEmbedder(DeterministicFakeEmbedding(size=48))
    vectors = embedder.embed(["a", "b", "a"])
    assert vectors.shape == (3, 48) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert np.array_equal(vectors[0], vectors[2])
    assert embedder.dimension == 48
    with UserMemory.from_url("sqlite:///:memory:", embedder=embedder, clock=clock) as mem:
        mem.remember("u1", "drink.morning", "green tea")
        hits = mem.recall("u1", "drink morning green tea")
        assert hits and hits[0].record.key == "drink.morning"


def test_embedder_rejects_non_embeddings() -> None:
    with pytest.raises(InvalidInputError):
        LangChainEmbedder(object())  # type: ignore[arg-type]


def test_core_embedder_as_langchain_embeddings() -> None:
    emb = UserMemoryEmbeddings(HashingEmbedder(dimension=32))
    docs = emb.embed_documents(["green tea", "green tea", "coffee"])
    assert len(docs) == 3 and len(docs[0]) == 32 and docs[0] == docs[1] != docs[2]
    assert emb.embed_query("green tea") == docs[0]


def test_a_new_taxonomy_key_reaches_the_model_with_no_adapter_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The schema and the prompt come from the taxonomy: one row more, the model sees it."""
    from dataclasses import replace

    from shared_core import taxonomy

    bound: list[Any] = []

    class ToolRecorder(RecordingChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            bound.extend(tools)
            return self

    row = replace(
        taxonomy.KEYS["seat"],
        key="pet.species",
        label_en="Pets",
        describe="kinds of pets the user has",
        values=("dog", "cat"),
    )
    monkeypatch.setattr(taxonomy, "KEYS", {**taxonomy.KEYS, "pet.species": row})
    model = ToolRecorder(messages=iter([tool_reply({"memories": []})]))
    LangChainExtractor(model).extract(turn("I have a dog."))
    assert "pet.species" in str(model.calls[0][0].content)  # the prompt's key list
    (tool,) = bound
    keys = {k["key"] for k in tool["x-keys"]}
    assert "pet.species" in keys  # the structured-output schema


async def test_tool_turns_get_the_rules_candidates_without_the_model() -> None:
    """Non-user turns follow one policy in both adapters: the rules decide, no model call."""
    model = model_with(tool_reply(GOOD))
    extractor = LangChainExtractor(model)
    tool_turn = turn("Customer record: I'm allergic to penicillin.", role="tool")
    expected = [(c.key, c.value) for c in RuleExtractor().extract(tool_turn)]
    assert expected  # the rules do read tool output
    assert [(c.key, c.value) for c in extractor.extract(tool_turn)] == expected
    assert [(c.key, c.value) for c in await extractor.aextract(tool_turn)] == expected
    assert model.calls == []
