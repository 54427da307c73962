"""UserMemoryChatHistory with RunnableWithMessageHistory: an LCEL chain that remembers."""

from __future__ import annotations

import itertools
from datetime import timedelta
from operator import itemgetter
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables import ConfigurableFieldSpec, RunnableLambda, RunnablePassthrough
from langchain_core.runnables.history import RunnableWithMessageHistory
from lc_support import RecordingChatModel

from langchain_usermemory import UserMemoryChatHistory, UserMemoryRetriever
from shared_core import AsyncUserMemory, InvalidIdError, InvalidInputError, UserMemory
from shared_core.clock import FakeClock

# RunnableWithMessageHistory is deprecated in langchain-core 1.x (LangGraph persistence is
# the successor) but still the standard way LCEL chains get history: it must keep working.
_DEPRECATED = pytest.mark.filterwarnings(
    "ignore:RunnableWithMessageHistory is deprecated"
    ":langchain_core._api.deprecation.LangChainDeprecationWarning"
)


def _join(docs: list[Document]) -> str:
    return "\n".join(d.page_content for d in docs)


def _chain(memory: Any, model: RecordingChatModel) -> RunnableWithMessageHistory:
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "You are a delivery assistant. Known about the user:\n{memories}"),
            MessagesPlaceholder("history"),
            ("human", "{question}"),
        ]
    )
    retriever = UserMemoryRetriever(memory=memory, k=3)  # the user comes from the config
    chain = (
        RunnablePassthrough.assign(
            memories=itemgetter("question") | retriever | RunnableLambda(_join)
        )
        | prompt
        | model
    )
    return RunnableWithMessageHistory(
        chain,  # type: ignore[arg-type]
        lambda user_id, session_id: UserMemoryChatHistory(memory, session_id, user_id=user_id),
        input_messages_key="question",
        history_messages_key="history",
        history_factory_config=[
            ConfigurableFieldSpec(id="user_id", annotation=str),
            ConfigurableFieldSpec(id="session_id", annotation=str),
        ],
    )


def _config(session: int) -> Any:
    return {"configurable": {"user_id": "ada", "session_id": f"s{session}"}}


def _model() -> RecordingChatModel:
    return RecordingChatModel(messages=itertools.cycle(["Noted."]))


def test_history_observes_added_messages_and_lists_the_session(core: UserMemory) -> None:
    history = UserMemoryChatHistory(core, "s1", user_id="ada")
    history.add_messages(
        [
            SystemMessage("You are helpful."),  # the app's prompt: not a turn
            HumanMessage("I only accept SMS notifications, never call me."),
            AIMessage("Understood: SMS only."),
        ]
    )
    messages = history.messages
    assert [type(m) for m in messages] == [HumanMessage, AIMessage]
    assert messages[1].content == "Understood: SMS only."
    assert core.profile("ada")["contact.channel"] == "SMS"
    history.clear()  # ends the session: its episode is written, long-term memory stays
    assert history.messages == []
    assert core.profile("ada")["contact.channel"] == "SMS"
    assert core.history("ada", "session:s1")


def test_bad_arguments_are_typed_errors(core: UserMemory) -> None:
    with pytest.raises(InvalidIdError):
        UserMemoryChatHistory(core, "s1")  # no user anywhere
    with pytest.raises(InvalidIdError):
        UserMemoryChatHistory(core, "", user_id="ada")
    with pytest.raises(InvalidInputError):
        UserMemoryChatHistory(core, "s1", user_id="ada", window=0)
    with pytest.raises(InvalidInputError):
        UserMemoryChatHistory(None, "s1", user_id="ada")


@_DEPRECATED
def test_lcel_chain_recalls_session_3_at_session_50(core: UserMemory, clock: FakeClock) -> None:
    model = _model()
    chain = _chain(core, model)
    chain.invoke({"question": "I only accept SMS notifications, never call me."}, _config(3))
    clock.advance(timedelta(minutes=2))
    chain.invoke({"question": "And my parcel goes to the back door."}, _config(3))
    assert len(UserMemoryChatHistory(core, "s3", user_id="ada").messages) == 4
    for session in range(4, 50):  # unrelated sessions in between
        clock.advance(timedelta(days=1))
        chain.invoke({"question": f"What is the status of order {session}?"}, _config(session))
    clock.advance(timedelta(days=3))
    model.calls.clear()
    chain.invoke({"question": "How will you contact me when my order is ready?"}, _config(50))
    prompt = model.calls[0]
    assert isinstance(prompt[0], SystemMessage)
    assert "SMS" in str(prompt[0].content)  # recalled from session 3
    assert len(prompt) == 2  # session 50 starts empty: nothing of session 3 in its history
    second = model.calls[0][1]
    assert "SMS" not in str(second.content)


@_DEPRECATED
async def test_async_chain_with_async_core(core: UserMemory, clock: FakeClock) -> None:
    amem = AsyncUserMemory.wrap(core)
    model = _model()
    chain = _chain(amem, model)
    await chain.ainvoke({"question": "I only accept SMS notifications, never call me."}, _config(3))
    history = UserMemoryChatHistory(amem, "s3", user_id="ada")
    assert [type(m) for m in await history.aget_messages()] == [HumanMessage, AIMessage]
    clock.advance(timedelta(days=30))
    model.calls.clear()
    await chain.ainvoke({"question": "How will you reach me when it ships?"}, _config(50))
    assert "SMS" in str(model.calls[0][0].content)
    await history.aclear()
    assert await history.aget_messages() == []


@_DEPRECATED
def test_a_short_answer_to_the_models_question_is_remembered(
    core: UserMemory, clock: FakeClock
) -> None:
    model = RecordingChatModel(
        messages=iter(["Happy to help. Which town do you live in?", "Thanks, noted."])
    )
    chain = _chain(core, model)
    chain.invoke({"question": "Can you find me a climbing gym?"}, _config(7))
    clock.advance(timedelta(minutes=1))
    chain.invoke({"question": "Bath."}, _config(7))  # the human's answer to the AI's question
    assert core.profile("ada")["location.city"].lower() == "bath"
    (rec,) = [r for r in core.export("ada")["records"] if r["key"] == "location.city"]
    assert rec["metadata"]["answering"] == "Which town do you live in?"
    assert rec["provenance"]["span"] == "Bath."
