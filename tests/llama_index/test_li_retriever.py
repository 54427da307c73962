"""UserMemoryRetriever: NodeWithScore with the LangChain retriever's metadata, real async."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest
from li_support import PREFERENCE, START
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode, NodeWithScore

from llama_index_usermemory import UserMemoryRetriever
from shared_core import AsyncUserMemory, UserMemory
from shared_core.clock import FakeClock
from shared_core.embed import HashingEmbedder
from shared_core.errors import InvalidInputError

USER = "u_li_ret"
LANGCHAIN_KEYS = {"score", "confidence", "decay", "kind", "key", "source", "provenance"}


def test_returns_nodes_with_scores_and_metadata(core: UserMemory) -> None:
    core.observe(USER, PREFERENCE, session_id="s3", turn_id="t7")
    retriever = UserMemoryRetriever(core, USER, k=3)
    assert isinstance(retriever, BaseRetriever)
    nodes = retriever.retrieve("how should we contact you, call or text?")
    assert nodes and all(isinstance(n, NodeWithScore) for n in nodes)
    top = nodes[0]
    meta = top.node.metadata
    assert set(meta) >= LANGCHAIN_KEYS
    assert top.score == pytest.approx(meta["score"])
    assert meta["user_id"] == USER
    assert meta["provenance"]["session_id"] == "s3"
    assert meta["provenance"]["turn_id"] == "t7"
    assert top.node.node_id == meta["id"]
    # The LLM sees the memory and its key/source/date, not the bookkeeping.
    llm_view = top.node.get_content(metadata_mode=MetadataMode.LLM)
    assert "key:" in llm_view and "provenance" not in llm_view
    assert meta["value"] in top.node.get_content()


def test_stored_assistant_replies_are_not_shown_as_inferred(core: UserMemory) -> None:
    core.observe(USER, PREFERENCE, session_id="s3")
    core.observe(USER, "I will only text you from now on.", role="assistant", session_id="s3")
    core.end_session(USER, "s3")
    nodes = UserMemoryRetriever(core, USER, k=5, kinds=["episode"]).retrieve("text you")
    replies = [n for n in nodes if n.node.metadata["provenance"]["role"] == "assistant"]
    assert replies
    for node in replies:
        llm_view = node.node.get_content(metadata_mode=MetadataMode.LLM)
        assert "inferred" not in llm_view
        assert node.node.metadata["value"] in llm_view
    scores = [n.score or 0.0 for n in nodes]
    assert scores == sorted(scores, reverse=True)


def test_same_metadata_as_langchain_retriever(core: UserMemory) -> None:
    pytest.importorskip("langchain_usermemory.retriever")
    from langchain_usermemory.retriever import scored_to_document

    core.observe(USER, PREFERENCE, session_id="s3")
    hit = core.recall(USER, "contact channel", k=1)[0]
    from llama_index_usermemory import scored_to_node

    assert scored_to_node(hit).node.metadata == scored_to_document(hit).metadata


def test_isolates_users_and_kinds(core: UserMemory) -> None:
    core.observe("someone_else", "I am allergic to penicillin.")
    core.observe(USER, PREFERENCE)
    nodes = UserMemoryRetriever(core, USER, k=5).retrieve("penicillin allergy")
    assert all(n.node.metadata["user_id"] == USER for n in nodes)
    assert not any("penicillin" in n.node.get_content() for n in nodes)
    only_episodes = UserMemoryRetriever(core, USER, k=5, kinds=["episode"]).retrieve("SMS")
    assert only_episodes and all(n.node.metadata["kind"] == "episode" for n in only_episodes)


def test_bad_arguments() -> None:
    core = UserMemory.from_url("sqlite:///:memory:", embedder=HashingEmbedder())
    with pytest.raises(InvalidInputError):
        UserMemoryRetriever(core, "")
    with pytest.raises(InvalidInputError):
        UserMemoryRetriever(core, USER, k=0)
    core.close()


class ThreadRecordingEmbedder(HashingEmbedder):
    """A real HashingEmbedder that notes which thread each embed call ran on."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[int] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.threads.append(threading.get_ident())
        return super().embed(texts)


async def test_aretrieve_does_not_run_on_the_event_loop() -> None:
    embedder = ThreadRecordingEmbedder()
    core = UserMemory.from_url("sqlite:///:memory:", embedder=embedder, clock=FakeClock(START))
    core.observe(USER, PREFERENCE)
    embedder.threads.clear()
    retriever = UserMemoryRetriever(core, USER)
    loop_thread = threading.get_ident()
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    nodes = await retriever.aretrieve("how do you contact me")
    task.cancel()
    assert nodes
    assert embedder.threads and loop_thread not in embedder.threads
    assert ticks > 0  # the loop kept running while recall worked
    core.close()


async def test_aretrieve_with_async_core() -> None:
    acore = AsyncUserMemory.from_url(
        "sqlite:///:memory:", embedder=HashingEmbedder(), clock=FakeClock(START)
    )
    await acore.observe(USER, PREFERENCE)
    retriever = UserMemoryRetriever(acore, USER)
    nodes = await retriever.aretrieve("text or call?")
    assert any("SMS" in n.node.get_content() for n in nodes)
    assert retriever.retrieve("text or call?")  # sync call while this loop runs
    await acore.aclose()


def test_in_a_query_engine(core: UserMemory) -> None:
    from llama_index.core.llms import MockLLM

    core.observe(USER, PREFERENCE)
    engine = RetrieverQueryEngine.from_args(UserMemoryRetriever(core, USER), llm=MockLLM())
    response = engine.query("How should we contact the user?")
    assert any("SMS" in n.node.get_content() for n in response.source_nodes)
    # MockLLM echoes its prompt: the memory reached the LLM.
    assert "SMS" in str(response)
