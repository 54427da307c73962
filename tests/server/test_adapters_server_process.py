"""The adapters with a ``UserMemoryClient`` in place of a local ``UserMemory``, against a real
``usermemory serve`` process on loopback: LangChain chat history in a real
``RunnableWithMessageHistory``, the LangGraph store in a compiled graph and through
``BaseStore`` (TTL included), the memory tools of both frameworks, and LlamaIndex's chat
memory and retriever. The only line that changes in the app is the memory object."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict

import httpx
import pytest
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables.history import RunnableWithMessageHistory
from langgraph.graph import START, StateGraph
from langgraph.store.base import BaseStore
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import MockLLM

from langchain_usermemory import UserMemoryChatHistory, UserMemoryStore, user_namespace
from langchain_usermemory import create_memory_tools as lc_tools
from llama_index_usermemory import UserChatMemory, UserMemoryRetriever
from llama_index_usermemory import create_memory_tools as li_tools
from shared_core.server import AsyncUserMemoryClient, KeyStore, UserMemoryClient

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Running:
    def __init__(self, url: str, key: str, memory_url: str) -> None:
        self.url, self.key, self.memory_url = url, key, memory_url


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Running]:
    tmp = tmp_path_factory.mktemp("served")
    keys_url = f"sqlite:///{tmp / 'server.db'}"
    memory_url = f"sqlite:///{tmp / 'memory.db'}"
    store = KeyStore(keys_url)
    _, plain = store.create_key("acme", name="app")
    store.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("USERMEMORY_")} | {
        "HOME": str(tmp),
        "PYTHONPATH": str(ROOT),
        "USERMEMORY_URL": memory_url,
        "USERMEMORY_KEYS_URL": keys_url,
        "USERMEMORY_EMBEDDER": "hashing",
    }
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "shared_core.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        yield Running(url, plain, memory_url)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


@pytest.mark.filterwarnings("ignore::langchain_core._api.deprecation.LangChainDeprecationWarning")
def test_langchain_chat_history_in_a_runnable_with_message_history(served):
    with UserMemoryClient(served.url, served.key) as memory:
        prompt = ChatPromptTemplate.from_messages(
            [
                ("system", "You are a cafe assistant."),
                MessagesPlaceholder("history"),
                ("human", "{q}"),
            ]
        )
        model = FakeListChatModel(responses=["Noted!", "You said you only accept SMS."])

        def history(session_id: str) -> BaseChatMessageHistory:
            return UserMemoryChatHistory(memory, session_id, user_id="ada")

        chain = RunnableWithMessageHistory(
            prompt | model, history, input_messages_key="q", history_messages_key="history"
        )
        cfg = {"configurable": {"session_id": "s1"}}
        chain.invoke({"q": "I only accept SMS notifications, never call me."}, config=cfg)
        chain.invoke({"q": "How will you reach me?"}, config=cfg)

        turns = memory.session_turns("ada", "s1")
        assert [t.role for t in turns] == ["user", "assistant", "user", "assistant"]
        assert turns[1].text == "Noted!"
        assert memory.profile("ada")["contact.call"] == "never"
        # the history reads the same turns back as messages
        msgs = UserMemoryChatHistory(memory, "s1", user_id="ada").messages
        assert [m.type for m in msgs] == ["human", "ai", "human", "ai"]


class _State(TypedDict):
    note: str


def test_langgraph_store_in_a_compiled_graph_and_with_ttl(served):
    with UserMemoryClient(served.url, served.key) as memory:
        store = UserMemoryStore(memory)
        ns = user_namespace("bea", "notes")

        def write(state: _State, *, store: BaseStore) -> dict[str, str]:
            store.put(ns, "n1", {"text": state["note"]})
            return {}

        graph = StateGraph(_State)
        graph.add_node("write", write)
        graph.add_edge(START, "write")
        graph.compile(store=store).invoke({"note": "likes jazz on Fridays"})

        item = store.get(ns, "n1")
        assert item is not None and item.value == {"text": "likes jazz on Fridays"}
        hits = store.search(ns, query="jazz")
        assert [h.key for h in hits] == ["n1"]
        assert ns in store.list_namespaces(prefix=("users",))

        # a TTL sets the record's expiry through the server (set_expiry), kept on reads
        store.put(ns, "n2", {"text": "in Lisbon this week"}, ttl=60)
        [rec] = [r for r in memory.memories("bea", key_prefix="lg") if "n2" in r.key]
        assert rec.valid_until is not None and rec.metadata["store_ttl_minutes"] == 60
        store.put(ns, "n2", {"text": "in Lisbon this week"}, ttl=None)
        [rec] = [r for r in memory.memories("bea", key_prefix="lg") if "n2" in r.key]
        assert rec.valid_until is None and "store_ttl_minutes" not in rec.metadata

        store.delete(ns, "n1")
        assert store.get(ns, "n1") is None


async def test_langgraph_store_async_with_the_async_client(served):
    async with AsyncUserMemoryClient(served.url, served.key) as memory:
        store = UserMemoryStore(memory)
        ns = user_namespace("cid", "notes")
        await store.aput(ns, "a", {"text": "prefers aisle seats"})
        item = await store.aget(ns, "a")
        assert item is not None and item.value["text"] == "prefers aisle seats"
        assert [h.key for h in await store.asearch(ns, query="aisle seats")] == ["a"]


def test_memory_tools_of_both_frameworks_with_the_client(served):
    with UserMemoryClient(served.url, served.key) as memory:
        manage, search = lc_tools(memory, user_id="dan")
        manage.invoke({"action": "create", "key": "drink", "value": "oat flat white"})
        rec = memory.history("dan", "drink")[-1]
        assert rec.value == "oat flat white" and rec.source.value == "agent"
        # who wrote it: the API key (the credential) and the tool's own label
        assert rec.provenance.actor.startswith("key:") and rec.provenance.actor.endswith(
            "/agent_tool"
        )
        assert "oat flat white" in str(search.invoke({"query": "which drink? flat white?"}))

        li_manage, li_search = li_tools(memory, "dan")
        li_manage.call(action="update", key="drink", value="espresso")
        assert memory.profile("dan")["drink"] == "espresso"
        assert "espresso" in str(li_search.call(query="which drink? espresso?"))
        li_manage.call(action="delete", key="drink")
        assert "drink" not in memory.profile("dan")


def test_llamaindex_chat_memory_and_retriever_with_the_client(served):
    with UserMemoryClient(served.url, served.key) as memory:
        chat = UserChatMemory(memory=memory, user_id="eve", session_id="s1")
        SimpleChatEngine.from_defaults(llm=MockLLM(), memory=chat).chat("I'm vegetarian.")
        assert memory.profile("eve")["diet"] == "vegetarian"
        hits = UserMemoryRetriever(memory, "eve", k=2).retrieve("what do I eat?")
        assert hits[0].node.metadata["key"] == "diet"
