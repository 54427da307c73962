"""End to end with the real default embedder (all-MiniLM-L6-v2, offline): semantic recall."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from langchain_usermemory import UserMemoryBuffer, UserMemoryRetriever
from shared_core import UserMemory

pytestmark = pytest.mark.embeddings


@pytest.fixture
def mem() -> Iterator[UserMemory]:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    core = UserMemory.from_url("sqlite:///:memory:")  # the default MiniLM embedder
    yield core
    core.close()


def test_semantic_recall_through_the_adapters(mem: UserMemory) -> None:
    buffer = UserMemoryBuffer(memory=mem, user_id="ada")
    buffer.save_context({"input": "I prefer green tea."}, {"response": "Noted."})
    buffer.save_context({"input": "I am allergic to penicillin."}, {"response": "Noted."})
    buffer.clear()
    # no word in common with "green tea": only the embedding can connect them
    retriever = UserMemoryRetriever(memory=mem, user_id="ada", k=3)
    docs = retriever.invoke("Which beverage would I enjoy?")
    assert docs and "green tea" in docs[0].page_content  # the memory or the turn itself
    assert "dense" in docs[0].metadata["matched_by"]
    assert "penicillin" not in docs[0].page_content
    keys = [d.metadata["key"] for d in docs]
    assert "taste.green_tea" in keys, keys
    history = buffer.load_memory_variables({"input": "Which beverage would I enjoy?"})["history"]
    assert "green_tea" in history


def test_langchain_embedder_knows_an_english_only_model() -> None:
    from langchain_core.embeddings import DeterministicFakeEmbedding

    from langchain_usermemory import LangChainEmbedder
    from shared_core.embed import represents

    class MiniLMNamed(DeterministicFakeEmbedding):
        model_name: str = "sentence-transformers/all-MiniLM-L6-v2"

    en = LangChainEmbedder(MiniLMNamed(size=8))
    assert en.multilingual is False and not represents(en, "我们该怎么联系你？")
    assert LangChainEmbedder(DeterministicFakeEmbedding(size=8)).multilingual is True
    forced = LangChainEmbedder(MiniLMNamed(size=8), multilingual=True)
    assert represents(forced, "我们该怎么联系你？")
    from shared_core.errors import InvalidInputError

    with pytest.raises(InvalidInputError):  # a wrong type is not read as "true"
        LangChainEmbedder(MiniLMNamed(size=8), multilingual="no")  # type: ignore[arg-type]
