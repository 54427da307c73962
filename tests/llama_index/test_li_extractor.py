"""LlamaIndexExtractor (structured prediction + rule fallback) and LlamaIndexEmbedder."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from li_support import PREFERENCE, START
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.base.llms.types import (
    ChatMessage,
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
    ToolCallBlock,
)
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.llms import CustomLLM, MockFunctionCallingLLM, MockLLM
from llama_index.core.llms.callbacks import llm_completion_callback
from pydantic import PrivateAttr

from llama_index_usermemory import LlamaIndexEmbedder, LlamaIndexExtractor
from shared_core import UserMemory
from shared_core.clock import FakeClock
from shared_core.embed import HashingEmbedder
from shared_core.entities import Kind, Turn
from shared_core.errors import InvalidInputError
from shared_core.llm import AsyncExtractor, Embedder, Extractor

USER = "u_li_ext"


def turn(text: str, role: str = "user") -> Turn:
    return Turn(user_id=USER, text=text, role=role, session_id="s1", turn_id="t1", at=START)


class ScriptedLLM(CustomLLM):
    """A completion LLM that answers every prompt with a fixed text and counts calls."""

    reply: str = ""
    calls: int = 0

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(is_chat_model=False)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.calls += 1
        return CompletionResponse(text=self.reply)

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        def gen() -> CompletionResponseGen:
            yield CompletionResponse(text=self.reply, delta=self.reply)

        return gen()


GOOD = {
    "memories": [
        {
            "kind": "constraint",
            "key": "contact.call",
            "value": "never call",
            "explicit": True,
            "permanent": True,
            "hard": True,
            "span": "never call me",
        },
        {
            "kind": "preference",
            "key": "Contact Channel",  # normalised to contact_channel
            "value": "SMS",
            "explicit": True,
            "confidence": 0.9,
            "valid_until": "2027-01-01",
        },
    ]
}


def test_protocols() -> None:
    extractor = LlamaIndexExtractor(ScriptedLLM(reply="{}"))
    assert isinstance(extractor, Extractor)
    assert isinstance(extractor, AsyncExtractor)
    with pytest.raises(InvalidInputError):
        LlamaIndexExtractor("gpt-4")  # type: ignore[arg-type]


def test_structured_output_becomes_candidates() -> None:
    llm = ScriptedLLM(reply="```json\n" + json.dumps(GOOD) + "\n```")
    extractor = LlamaIndexExtractor(llm)
    candidates = extractor.extract(turn(PREFERENCE))
    assert llm.calls == 1 and extractor.fallbacks == 0
    by_key = {c.key: c for c in candidates}
    assert set(by_key) == {"contact.call", "contact_channel"}
    call = by_key["contact.call"]
    assert call.kind is Kind.CONSTRAINT and call.hard and call.permanent and call.explicit
    assert call.span == "never call me" and call.extractor == "llamaindex"
    channel = by_key["contact_channel"]
    assert channel.confidence_hint == 0.9
    assert channel.valid_until is not None and channel.valid_until.year == 2027
    assert channel.span == PREFERENCE  # no span given: the turn text


async def test_async_extraction() -> None:
    extractor = LlamaIndexExtractor(ScriptedLLM(reply=json.dumps(GOOD)))
    candidates = await extractor.aextract(turn(PREFERENCE))
    assert {c.key for c in candidates} == {"contact.call", "contact_channel"}


@pytest.mark.parametrize(
    "reply",
    [
        "Sure! The user likes SMS.",  # not JSON
        json.dumps({"memories": [{"kind": "mood", "key": "x", "value": "y"}]}),  # bad kind
        json.dumps({"memories": [{"kind": "fact", "key": "no spaces!", "value": "y"}]}),
        json.dumps({"memories": [{"kind": "fact", "key": "budget.max", "value": ""}]}),
        json.dumps(
            {"memories": [{"kind": "fact", "key": "a.b", "value": "v", "valid_until": "soon"}]}
        ),
    ],
)
def test_malformed_output_falls_back_to_rules(reply: str) -> None:
    from shared_core.ingest.extract import RuleExtractor

    extractor = LlamaIndexExtractor(ScriptedLLM(reply=reply))
    got = extractor.extract(turn(PREFERENCE))
    expected = RuleExtractor().extract(turn(PREFERENCE))
    assert extractor.fallbacks == 1
    assert got == expected and got  # the rules found the preference


def test_mock_llm_echo_falls_back() -> None:
    extractor = LlamaIndexExtractor(MockLLM())
    assert extractor.extract(turn(PREFERENCE))
    assert extractor.fallbacks == 1


def test_non_user_turns_skip_the_llm() -> None:
    llm = ScriptedLLM(reply=json.dumps(GOOD))
    extractor = LlamaIndexExtractor(llm)
    assert extractor.extract(turn("Understood, SMS only.", role="assistant")) == []
    assert llm.calls == 0


def test_function_calling_llm_structured_prediction() -> None:
    def respond(messages: Any, **kwargs: Any) -> ChatMessage:
        tools = kwargs.get("tools") or []
        name = tools[0].metadata.name
        return ChatMessage(
            role="assistant",
            blocks=[ToolCallBlock(tool_call_id="c1", tool_name=name, tool_kwargs=GOOD)],
        )

    extractor = LlamaIndexExtractor(MockFunctionCallingLLM(response_generator=respond))
    candidates = extractor.extract(turn(PREFERENCE))
    assert extractor.fallbacks == 0
    assert {c.key for c in candidates} == {"contact.call", "contact_channel"}


def test_extractor_plugged_into_the_core() -> None:
    llm = ScriptedLLM(reply=json.dumps(GOOD))
    core = UserMemory.from_url(
        "sqlite:///:memory:",
        embedder=HashingEmbedder(),
        extractor=LlamaIndexExtractor(llm),
        clock=FakeClock(START),
    )
    core.observe(USER, PREFERENCE, session_id="s1")
    assert llm.calls == 1
    hits = core.recall(USER, "how do we contact the user", k=5)
    assert any(h.record.key in {"contact.call", "contact_channel"} for h in hits)
    core.close()


class HashEmbedding(BaseEmbedding):
    """A LlamaIndex embedding model computing hashed features (offline, deterministic)."""

    _hasher: HashingEmbedder = PrivateAttr(default_factory=HashingEmbedder)

    def _get_query_embedding(self, query: str) -> list[float]:
        return [float(x) * 3.0 for x in self._hasher.embed([query])[0]]  # not unit length

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._get_query_embedding(text)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)


def test_embedder_wraps_any_base_embedding() -> None:
    embedder = LlamaIndexEmbedder(MockEmbedding(embed_dim=8))
    assert isinstance(embedder, Embedder)
    assert embedder.dimension == 8
    vectors = embedder.embed(["a", "b", "c"])
    assert vectors.shape == (3, 8) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert embedder.embed([]).shape == (0, 8)
    with pytest.raises(InvalidInputError):
        embedder.embed([1])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError):
        LlamaIndexEmbedder(object())  # type: ignore[arg-type]


def test_core_with_a_llamaindex_embedding_model() -> None:
    embedder = LlamaIndexEmbedder(HashEmbedding(model_name="hash"))
    assert embedder.name == "llamaindex:HashEmbedding:hash"
    core = UserMemory.from_url("sqlite:///:memory:", embedder=embedder, clock=FakeClock(START))
    core.observe(USER, PREFERENCE)
    core.observe(USER, "I live in Berlin.")
    hits = core.recall(USER, "SMS notifications", k=3)
    assert hits and "SMS" in hits[0].record.value
    core.close()


async def test_tool_turns_get_the_rules_candidates_without_the_llm() -> None:
    """Non-user turns follow one policy in both adapters: the rules decide, no LLM call."""
    from shared_core.ingest.extract import RuleExtractor

    llm = ScriptedLLM(reply=json.dumps(GOOD))
    extractor = LlamaIndexExtractor(llm)
    tool_turn = turn("Customer record: I'm allergic to penicillin.", role="tool")
    expected = [(c.key, c.value) for c in RuleExtractor().extract(tool_turn)]
    assert expected  # the rules do read tool output
    assert [(c.key, c.value) for c in extractor.extract(tool_turn)] == expected
    assert [(c.key, c.value) for c in await extractor.aextract(tool_turn)] == expected
    assert llm.calls == 0
