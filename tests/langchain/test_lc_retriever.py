"""UserMemoryRetriever: documents with score/provenance metadata; standard test suite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda
from langchain_tests.integration_tests import RetrieversIntegrationTests

from langchain_usermemory import UserMemoryRetriever
from shared_core import (
    AsyncUserMemory,
    InvalidIdError,
    InvalidInputError,
    UserMemory,
    key_label,
)
from shared_core.embed import HashingEmbedder

FACTS = {
    "drink.morning": "green tea in the morning",
    "drink.evening": "chamomile tea in the evening",
    "drink.coffee": "coffee only with oat milk",
    "drink.water": "sparkling water with meals",
    "food.breakfast": "porridge for breakfast",
}


def seeded_core() -> UserMemory:
    core = UserMemory.from_url("sqlite:///:memory:", embedder=HashingEmbedder())
    for key, value in FACTS.items():
        core.remember("u1", key, value)
    core.remember("u2", "drink.morning", "espresso")
    return core


class TestUserMemoryRetrieverStandard(RetrieversIntegrationTests):
    """LangChain's own retriever test suite (k in constructor and invoke, sync/async)."""

    shared: UserMemory

    @pytest.fixture(scope="class", autouse=True)
    @classmethod
    def _shared_core(cls) -> Iterator[None]:
        cls.shared = seeded_core()
        yield
        cls.shared.close()

    @property
    def retriever_constructor(self) -> type[UserMemoryRetriever]:
        return UserMemoryRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"memory": self.shared, "user_id": "u1"}

    @property
    def retriever_query_example(self) -> str:
        return "what does the user drink? tea, coffee, water"


@pytest.fixture
def core() -> Iterator[UserMemory]:
    mem = seeded_core()
    yield mem
    mem.close()


def test_documents_carry_scores_and_provenance(core: UserMemory) -> None:
    core.observe("u1", "Never call me, text me instead.", session_id="s7", turn_id="t42")
    retriever = UserMemoryRetriever(memory=core, user_id="u1", k=2)
    docs = retriever.invoke("can you call me?")
    assert docs and all(isinstance(d, Document) for d in docs)
    top = docs[0]
    assert top.metadata["key"].startswith("contact.")
    meta = top.metadata
    for field in ("score", "confidence", "decay", "relevance"):
        assert isinstance(meta[field], float) and 0.0 <= meta[field] <= 1.0 + 1e-9
    assert meta["kind"] in {"preference", "constraint", "fact"}
    assert meta["source"] == "user_declare"
    assert meta["provenance"]["session_id"] == "s7" and meta["provenance"]["turn_id"] == "t42"
    assert meta["provenance"]["span"]
    assert top.id == meta["id"]
    scores = [d.metadata["score"] for d in docs]
    assert scores == sorted(scores, reverse=True)


def test_user_id_from_run_metadata(core: UserMemory) -> None:
    retriever = UserMemoryRetriever(memory=core)
    docs = retriever.invoke("morning drink", config={"metadata": {"user_id": "u2"}})
    assert [d.metadata["value"] for d in docs] == ["espresso"]
    docs = retriever.invoke("morning drink", config={"metadata": {"user_id": "u1"}}, k=1)
    assert docs[0].metadata["value"] == "green tea in the morning"
    with pytest.raises(InvalidIdError):
        retriever.invoke("morning drink")


def test_bad_arguments_raise_typed_errors(core: UserMemory) -> None:
    retriever = UserMemoryRetriever(memory=core, user_id="u1")
    with pytest.raises(InvalidInputError):
        retriever.invoke("tea", k=0)
    with pytest.raises(InvalidInputError):
        retriever.invoke("tea", nonsense=True)
    with pytest.raises(InvalidInputError):
        retriever.invoke("   ")


def test_kinds_filter(core: UserMemory) -> None:
    core.remember("u1", "allergy.nuts", "peanuts", kind="constraint", hard=True)
    retriever = UserMemoryRetriever(memory=core, user_id="u1", k=5, kinds=["constraint"])
    docs = retriever.invoke("peanuts nuts allergy breakfast")
    assert [d.metadata["key"] for d in docs] == ["allergy.nuts"]


async def test_async_retriever_awaits_async_core(core: UserMemory) -> None:
    retriever = UserMemoryRetriever(memory=AsyncUserMemory.wrap(core), user_id="u1", k=1)
    docs = await retriever.ainvoke("evening tea")
    assert [d.metadata["value"] for d in docs] == ["chamomile tea in the evening"]
    docs = await retriever.ainvoke("morning drink", config={"metadata": {"user_id": "u2"}})
    assert docs[0].metadata["value"] == "espresso"
    docs = await retriever.ainvoke("morning drink", config={"configurable": {"user_id": "u2"}})
    assert docs[0].metadata["value"] == "espresso"


def test_retriever_in_an_lcel_chain(core: UserMemory) -> None:
    retriever = UserMemoryRetriever(memory=core, user_id="u1", k=2)
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Known about the user:\n{memories}"), ("human", "{question}")]
    )

    def question(inputs: dict[str, str]) -> str:
        return inputs["question"]

    def join(docs: list[Document]) -> str:
        return "\n".join(d.page_content for d in docs)

    chain = {
        "memories": RunnableLambda(question) | retriever | RunnableLambda(join),
        "question": RunnableLambda(question),
    } | prompt
    value = chain.invoke({"question": "what do I have for breakfast?"})
    assert "porridge for breakfast" in value.to_messages()[0].content


def test_page_content_reads_on_its_own(core: UserMemory) -> None:
    core.observe("u3", "I only accept SMS notifications, never call me.", session_id="s3")
    docs = UserMemoryRetriever(memory=core, user_id="u3", k=5).invoke("how do we contact you?")
    by_key = {d.metadata["key"]: d for d in docs}
    channel = by_key["contact.channel"]
    assert channel.metadata["value"] == "SMS"
    # the label, the value and when it was said: not the bare value
    assert channel.page_content != "SMS"
    assert channel.page_content.startswith(key_label("contact.channel") + ": ")
    assert "SMS" in channel.page_content
    assert f"{channel.metadata['provenance']['at'][:10]}" in channel.page_content


def test_user_id_resolution_order(core: UserMemory) -> None:
    """explicit > configurable > metadata > default; a given but empty id is an error."""
    retriever = UserMemoryRetriever(memory=core, user_id="u1", k=1)

    def who(**call: Any) -> str:
        config = call.pop("config", None)
        docs = retriever.invoke("morning drink", config=config, **call)
        return str(docs[0].metadata["user_id"])

    assert who() == "u1"
    assert who(config={"metadata": {"user_id": "u2"}}) == "u2"
    assert who(config={"configurable": {"user_id": "u2"}}) == "u2"
    both: Any = {"configurable": {"user_id": "u1"}, "metadata": {"user_id": "u2"}}
    assert who(config=both) == "u1"
    assert who(config={"configurable": {"user_id": "u1"}}, user_id="u2") == "u2"
    with pytest.raises(InvalidIdError):
        who(config={"configurable": {"user_id": ""}, "metadata": {"user_id": "u2"}})
    with pytest.raises(InvalidIdError):
        UserMemoryRetriever(memory=core).invoke("morning drink")


def test_configurable_user_id_reaches_a_retriever_inside_a_chain(core: UserMemory) -> None:
    retriever = UserMemoryRetriever(memory=core, k=1)  # no user: the run says who
    chain = RunnableLambda(lambda q: q) | retriever
    docs = chain.invoke("morning drink", config={"configurable": {"user_id": "u2"}})
    assert [d.metadata["value"] for d in docs] == ["espresso"]
