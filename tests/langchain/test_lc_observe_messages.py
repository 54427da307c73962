"""observe_messages takes LangChain messages as they come out of a chain or an agent."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from shared_core import UserMemory


def test_langchain_messages_keep_each_reply_with_its_turn(core: UserMemory) -> None:
    messages = [
        SystemMessage("You are a support agent."),
        HumanMessage("I only accept SMS notifications.", id="h1"),
        AIMessage("", tool_calls=[{"name": "lookup", "args": {}, "id": "c1"}], id="a0"),
        ToolMessage("order 42: shipped", tool_call_id="c1", id="t1"),
        AIMessage([{"type": "text", "text": "Your order shipped; I'll text you."}], id="a1"),
    ]
    core.observe_messages("ada", messages, session_id="s1")
    turns = core.session_turns("ada", "s1")
    assert [(t.role, t.turn_id) for t in turns] == [
        ("user", "h1"),
        ("tool", "t1"),
        ("assistant", "a1"),
    ]  # the system prompt and the text-less tool call are not turns
    assert turns[2].text == "Your order shipped; I'll text you."
    assert core.profile("ada")["contact.channel"] == "SMS"
    core.observe_messages("ada", messages, session_id="s1")  # the same message ids: a retry
    assert len(core.session_turns("ada", "s1")) == 3
