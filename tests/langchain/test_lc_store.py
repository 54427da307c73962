"""UserMemoryStore: LangGraph BaseStore semantics, checked against InMemoryStore."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore
from lc_support import START as T0

from langchain_usermemory import (
    StoreNamespaceError,
    UserMemoryEmbeddings,
    UserMemoryStore,
    label_user,
    user_label,
    user_namespace,
)
from shared_core import AsyncUserMemory, InvalidInputError, Status, UserMemory
from shared_core.embed import HashingEmbedder

ADA = "ada.lovelace@example.org"
NS_A = user_namespace(ADA, "memories")
NS_A2 = user_namespace(ADA, "prefs", "ui")
NS_B = user_namespace("bob", "memories")


class TickingClock:
    """Advances 1 ms per reading, so every write has a distinct, ordered timestamp."""

    def __init__(self) -> None:
        self.t = T0

    def now(self) -> datetime:
        self.t += timedelta(milliseconds=1)
        return self.t


@pytest.fixture
def tcore() -> Iterator[UserMemory]:
    mem = UserMemory.from_url(
        "sqlite:///:memory:", embedder=HashingEmbedder(), clock=TickingClock()
    )
    yield mem
    mem.close()


def shape(result: Any) -> Any:
    """Comparable form of a store result (timestamps differ between stores)."""
    if result is None:
        return None
    if isinstance(result, list):
        return [shape(r) for r in result]
    if isinstance(result, tuple):
        return result
    out = (result.namespace, result.key, result.value)
    return out


def scenario(store: BaseStore) -> list[Any]:
    results: list[Any] = []
    store.put(NS_A, "coffee", {"content": "Ada takes her coffee black", "n": 1})
    store.put(NS_A, "tea", {"content": "Ada drinks green tea at night", "n": 2, "tags": ["tea"]})
    store.put(NS_A2, "theme", {"content": "dark mode", "n": 3, "nested": {"size": "L"}})
    store.put(NS_B, "coffee", {"content": "Bob likes espresso", "n": 4})
    store.put(NS_A, "odd.key/with:chars %", {"content": "still works", "n": 5})
    results.append(store.get(NS_A, "coffee"))
    results.append(store.get(NS_A, "odd.key/with:chars %"))
    results.append(store.get(NS_A, "missing"))
    results.append(store.get(NS_B, "tea"))
    store.put(NS_A, "coffee", {"content": "Ada switched to oat flat whites", "n": 6})
    results.append(store.get(NS_A, "coffee"))
    results.append(store.search(NS_A))
    results.append(store.search(("users",)))
    results.append(store.search(("users",), limit=2, offset=1))
    results.append(store.search(("users",), filter={"n": {"$gte": 3}}))
    results.append(store.search(("users",), filter={"nested": {"size": "L"}}))
    results.append(store.search(("users",), filter={"tags": ["tea"], "n": 2}))
    results.append(store.search(("users",), filter={"n": {"$ne": 2, "$lt": 5}}))
    results.append(store.list_namespaces())
    results.append(store.list_namespaces(prefix=("users", user_label(ADA))))
    results.append(store.list_namespaces(suffix=("memories",)))
    results.append(store.list_namespaces(max_depth=2))
    results.append(store.list_namespaces(prefix=("users", "*", "prefs")))
    results.append(store.list_namespaces(limit=1, offset=1))
    store.delete(NS_A, "tea")
    store.put(NS_A, "odd.key/with:chars %", None)  # type: ignore[arg-type]
    results.append(store.get(NS_A, "tea"))
    results.append(store.search(("users",)))
    results.append(store.list_namespaces())
    store.put(NS_A, "tea", {"content": "back again", "n": 7})
    results.append(store.search(NS_A))
    results.append(
        store.batch(
            [
                PutOp(NS_B, "k", {"v": 1}),
                GetOp(NS_B, "k"),  # reads see the state before the batch's puts
                PutOp(NS_B, "k", {"v": 2}),  # last put wins
                SearchOp(("users", "bob")),
                ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("users", "bob")),)),
            ]
        )
    )
    results.append(store.get(NS_B, "k"))
    return [shape(r) for r in results]


def test_same_results_as_inmemorystore(tcore: UserMemory) -> None:
    expected = scenario(InMemoryStore())
    got = scenario(UserMemoryStore(tcore))
    for i, (want, have) in enumerate(zip(expected, got, strict=True)):
        assert have == want, f"step {i}"


def test_empty_namespaces_are_not_listed(tcore: UserMemory) -> None:
    # InMemoryStore keeps listing a namespace after its last item is deleted (and even
    # after a get() on an unknown one); like PostgresStore, ours lists live items only.
    store = UserMemoryStore(tcore)
    store.put(NS_A, "k", {"v": 1})
    store.put(NS_B, "k", {"v": 1})
    store.delete(NS_B, "k")
    store.get(user_namespace("nobody"), "k")
    assert store.list_namespaces() == [NS_A]


def test_items_are_core_memories_with_history(tcore: UserMemory) -> None:
    store = UserMemoryStore(tcore)
    store.put(NS_A, "coffee", {"content": "black"})
    store.put(NS_A, "coffee", {"content": "oat flat white"})
    store.delete(NS_A, "coffee")
    assert tcore.users() == [ADA]  # the e-mail id survives the namespace mapping
    history = tcore.history(ADA, "lg.users.memories:coffee")
    assert [r.status for r in history] == [Status.SUPERSEDED, Status.REVOKED]
    assert '"oat flat white"' in history[-1].value
    assert store.get(NS_A, "coffee") is None
    item_time = store.search(NS_A)
    assert item_time == []


def test_item_timestamps_follow_the_versions(tcore: UserMemory) -> None:
    store = UserMemoryStore(tcore)
    store.put(NS_A, "k", {"v": 1})
    first = store.get(NS_A, "k")
    store.put(NS_A, "k", {"v": 2})
    second = store.get(NS_A, "k")
    assert first is not None and second is not None
    assert second.created_at == first.created_at < second.updated_at


def test_semantic_search_goes_through_recall(tcore: UserMemory) -> None:
    ours = UserMemoryStore(tcore)
    ref = InMemoryStore(index={"dims": 256, "embed": UserMemoryEmbeddings(HashingEmbedder())})
    docs = {
        "coffee": {"content": "Ada takes her coffee black, no sugar"},
        "tea": {"content": "In the evening Ada drinks chamomile tea"},
        "bike": {"content": "Ada commutes by bicycle every day"},
    }
    for store in (ours, ref):
        for key, value in docs.items():
            store.put(NS_A, key, value)
        store.put(NS_B, "tea", {"content": "Bob hates tea"})
    for query, top in [("chamomile tea in the evening", "tea"), ("bicycle commute", "bike")]:
        mine = ours.search(NS_A, query=query)
        theirs = ref.search(NS_A, query=query)
        assert mine[0].key == theirs[0].key == top
        assert mine[0].score is not None and mine[0].score > 0
        assert {i.key for i in mine} == set(docs)  # ranking, not filtering; never bob's
        assert [i.key for i in ours.search(NS_A, query=query, limit=1)] == [top]
    # memories the chat extracted are not store items
    tcore.observe(ADA, "Never call me, text me instead.")
    assert {i.key for i in ours.search(("users",), query="call me")} == {*docs, "tea"}


def test_bad_namespaces_and_values_raise_typed_errors(tcore: UserMemory) -> None:
    store = UserMemoryStore(tcore)
    with pytest.raises(StoreNamespaceError) as info:
        store.put(("users",), "k", {"v": 1})
    assert isinstance(info.value, InvalidInputError) and isinstance(
        info.value, InvalidNamespaceError
    )
    with pytest.raises(InvalidNamespaceError):
        store.put(("users", ADA), "k", {"v": 1})  # raw e-mail: "." is not allowed in labels
    with pytest.raises(StoreNamespaceError):
        store.batch([PutOp(("users", ADA), "k", {"v": 1})])
    with pytest.raises(InvalidInputError):
        store.put(NS_A, "k", {"when": object()})
    with pytest.raises(InvalidInputError):
        store.search(NS_A, filter={"n": {"$regex": "x"}})
    assert tcore.users() == []


def test_labels_round_trip() -> None:
    for uid in [ADA, "100%.sure", "plain", "a%2Eb"]:
        label = user_label(uid)
        assert "." not in label and label_user(label) == uid


def test_langmem_style_namespace(tcore: UserMemory) -> None:
    store = UserMemoryStore(tcore, user_index=1)
    ns = ("memories", user_label(ADA))
    store.put(ns, "m1", {"kind": "Memory", "content": {"content": "Prefers aisle seats"}})
    assert store.search(("memories",), query="aisle seat")[0].key == "m1"
    assert store.list_namespaces(prefix=("memories",)) == [ns]


def test_langgraph_graph_uses_the_store(tcore: UserMemory) -> None:
    class State(TypedDict):
        user: str
        answer: str

    def remember_node(state: State, runtime: Runtime[Any]) -> dict[str, Any]:
        assert runtime.store is not None
        ns = user_namespace(state["user"], "notes")
        runtime.store.put(ns, "greeting", {"content": "likes being greeted in French"})
        hits = runtime.store.search(ns, query="greeting French")
        return {"answer": hits[0].value["content"]}

    builder: Callable[..., Any] = StateGraph
    graph = builder(State)
    graph.add_node("remember", remember_node)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", END)
    app = graph.compile(store=UserMemoryStore(tcore))
    out = app.invoke({"user": ADA, "answer": ""})
    assert out["answer"] == "likes being greeted in French"
    assert tcore.recall(ADA, "greeted in French")[0].record.key == "lg.users.notes:greeting"


async def test_async_store(tcore: UserMemory) -> None:
    store = UserMemoryStore(AsyncUserMemory.wrap(tcore))
    await store.aput(NS_A, "coffee", {"content": "black coffee"})
    await store.aput(NS_B, "tea", {"content": "green tea"})
    item = await store.aget(NS_A, "coffee")
    assert item is not None and item.value == {"content": "black coffee"}
    found = await store.asearch(("users",), query="green tea")
    assert found[0].key == "tea" and found[0].namespace == NS_B
    assert await store.alist_namespaces() == sorted([NS_A, NS_B])
    await store.adelete(NS_A, "coffee")
    assert await store.aget(NS_A, "coffee") is None
