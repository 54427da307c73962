"""The LangChain and LlamaIndex adapters take a server client where they take a UserMemory:
real adapter objects, real LangChain/LlamaIndex chains and agents (their fake models), a
real server on loopback. Only the memory object changes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from langchain.agents import create_agent
from langchain_classic.chains import ConversationChain
from langchain_core.language_models.fake import FakeListLLM
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import HumanMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import MockLLM

from langchain_usermemory import UserMemoryBuffer, UserMemoryMiddleware
from langchain_usermemory import UserMemoryRetriever as LCRetriever
from llama_index_usermemory import UserChatMemory, UserMemoryBlock
from llama_index_usermemory import UserMemoryRetriever as LIRetriever
from shared_core.server import AsyncUserMemoryClient, UserMemoryClient


@pytest.mark.filterwarnings("ignore::langchain_core._api.deprecation.LangChainDeprecationWarning")
def test_langchain_retriever_buffer_and_middleware_with_the_client(live):
    _, key = live.key("acme")
    with UserMemoryClient(live.url, key) as memory:
        memory.observe("ada", "I only accept SMS notifications, never call me.")

        docs = LCRetriever(memory=memory, k=3).invoke(
            "can you call me?", config={"metadata": {"user_id": "ada"}}
        )
        assert {d.metadata["key"] for d in docs} >= {"contact.call"}
        assert all(d.metadata["provenance"]["session_id"] for d in docs)

        buffer = UserMemoryBuffer(memory=memory, user_id="ada", token_budget=400)
        chain = ConversationChain(llm=FakeListLLM(responses=["Noted!"]), memory=buffer)
        chain.invoke({"input": "I prefer green tea."})
        history = buffer.load_memory_variables({"input": "Which tea do I like?"})["history"]
        assert "green tea" in history and "acme/" not in history

        @dataclass
        class Context:
            user_id: str

        model = GenericFakeChatModel(messages=iter(["I'll text you."]))
        agent = create_agent(
            model,
            system_prompt="You are a cafe assistant.",
            middleware=[UserMemoryMiddleware(memory, token_budget=400)],
            context_schema=Context,
        )
        agent.invoke(
            {"messages": [HumanMessage("My name is Ada Lovelace.")]}, context=Context("ada")
        )
        assert memory.profile("ada")["name"] == "Ada Lovelace"
    # everything went through the server, into the tenant's namespace
    assert live.mem.users() == ["acme/ada"]


async def test_langchain_retriever_async_with_the_async_client(live):
    _, key = live.key("acme")
    async with AsyncUserMemoryClient(live.url, key) as memory:
        await memory.observe("ada", "I'm allergic to penicillin.")
        docs = await LCRetriever(memory=memory, user_id="ada", k=2).ainvoke("which medicine?")
        assert docs[0].metadata["key"] == "allergy.medication"


def test_llamaindex_chat_memory_block_and_retriever_with_the_client(live):
    _, key = live.key("acme")
    with UserMemoryClient(live.url, key) as um:
        memory = UserChatMemory(memory=um, user_id="alice", session_id="session-3")
        SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory).chat(
            "I only accept SMS notifications, never call me."
        )
        memory.reset()
        assert um.profile("alice")["contact.call"] == "never"

        later = UserChatMemory(memory=um, user_id="alice", session_id="session-50")
        SimpleChatEngine.from_defaults(llm=MockLLM(), memory=later).chat("How will you reach me?")
        assert "contact.call" in later.get()[0].content

        hits = LIRetriever(um, "alice", k=3).retrieve("call or text?")
        assert hits and hits[0].node.metadata["key"].startswith("contact.")

        block = UserMemoryBlock(memory=um, user_id="alice")
        from llama_index.core.memory import Memory

        mem = Memory.from_defaults(session_id="s51", token_limit=4000, memory_blocks=[block])
        SimpleChatEngine.from_defaults(llm=MockLLM(), memory=mem).chat("How will you reach me?")
    assert live.mem.users() == ["acme/alice"]


async def test_llamaindex_retriever_with_the_async_client(live):
    _, key = live.key("acme")
    async with AsyncUserMemoryClient(live.url, key) as um:
        await um.observe("alice", "I'm vegetarian.")
        hits = await LIRetriever(um, "alice", k=2).aretrieve("what do I eat?")
        assert hits[0].node.metadata["key"] == "diet"
