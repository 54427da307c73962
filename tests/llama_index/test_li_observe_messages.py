"""observe_messages takes LlamaIndex ChatMessages; UserChatMemory.put_messages uses it."""

from __future__ import annotations

from llama_index.core.base.llms.types import ChatMessage, MessageRole

from llama_index_usermemory import UserChatMemory
from shared_core import UserMemory


def _conversation() -> list[ChatMessage]:
    return [
        ChatMessage(role=MessageRole.SYSTEM, content="You are a support agent."),
        ChatMessage(role=MessageRole.USER, content="I only accept SMS notifications."),
        ChatMessage(role=MessageRole.ASSISTANT, content="Understood, texts only."),
    ]


def test_chat_messages_are_observed_in_one_session(core: UserMemory) -> None:
    core.observe_messages("alice", _conversation(), session_id="s1")
    turns = core.session_turns("alice", "s1")
    assert [(t.role, t.text) for t in turns] == [
        ("user", "I only accept SMS notifications."),
        ("assistant", "Understood, texts only."),
    ]
    assert core.profile("alice")["contact.channel"] == "SMS"


def test_put_messages_observes_the_conversation_together(core: UserMemory) -> None:
    memory = UserChatMemory(memory=core, user_id="alice", session_id="s2")
    memory.put_messages(_conversation())
    assert [m.role for m in memory.get_all()] == [MessageRole.USER, MessageRole.ASSISTANT]
    memory.set([*_conversation(), ChatMessage(role=MessageRole.USER, content="Thanks!")])
    assert [m.content for m in memory.get_all()][-1] == "Thanks!"
    assert len(memory.get_all()) == 3  # set() adds only what the session does not hold
