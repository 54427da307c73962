"""UserMemoryBuffer: a drop-in ConversationBufferMemory replacement with a bounded prompt."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from langchain_classic.chains import ConversationChain, LLMChain
from langchain_classic.memory import ConversationBufferMemory
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder, PromptTemplate
from lc_support import RecordingChatModel, RecordingLLM

from langchain_usermemory import UserMemoryBuffer
from shared_core import AsyncUserMemory, FakeClock, InvalidIdError, Kind, UserMemory
from shared_core.tokens import count_tokens

pytestmark = pytest.mark.filterwarnings(
    "ignore::langchain_core._api.deprecation.LangChainDeprecationWarning"
)

PREFERENCE = "I prefer green tea."
PREFERENCE_LINE = 'taste.green_tea = "like"'
FILLER = [
    "Can you explain how {topic} works in simple terms?",
    "Interesting. What are the main risks of {topic}?",
    "Thanks, give me one practical tip about {topic}.",
]
TOPICS = ["compound interest", "sourdough", "tides", "vaccines", "jet lag", "solar panels"]
FINAL_QUESTION = "Which tea do I like? I want to order one at the cafe."


def session_inputs(n: int) -> list[str]:
    if n == 3:
        return ["Hi again!", PREFERENCE, "Good to know, thanks."]
    topic = TOPICS[n % len(TOPICS)]
    return [line.format(topic=topic) for line in FILLER]


def reply(n: int) -> str:
    return (
        f"Here is a detailed answer number {n}: it depends on several factors, including "
        "timing, context, cost and your own goals, so let us walk through each one carefully."
    )


def run_fifty_sessions(
    chain: ConversationChain, llm: RecordingLLM, clock: FakeClock, new_session: Callable[[], None]
) -> list[int]:
    """49 sessions of 3 turns, then the final question in session 50; prompt sizes per call."""
    for n in range(1, 50):
        for text in session_inputs(n):
            chain.invoke({"input": text})
        new_session()
        clock.advance(days=1)
    chain.invoke({"input": FINAL_QUESTION})
    return [count_tokens(p) for p in llm.prompts]


def test_swap_in_conversation_chain_keeps_working(core: UserMemory) -> None:
    llm = RecordingLLM(responses=["Nice to meet you, Ada.", "You told me: green tea."])
    chain = ConversationChain(llm=llm, memory=ConversationBufferMemory())
    assert chain.invoke({"input": "Hi, I'm Ada."})["response"] == "Nice to meet you, Ada."
    # the drop-in: same chain, same default prompt, our memory
    memory = UserMemoryBuffer(memory=core, user_id="ada")
    chain = ConversationChain(llm=llm, memory=memory)
    assert memory.memory_variables == ["history"]
    first = chain.invoke({"input": PREFERENCE})
    assert first["response"] == "You told me: green tea."
    chain.invoke({"input": "What do I like to drink?"})
    prompt = llm.prompts[-1]
    # the session window: the previous exchange, in ConversationBufferMemory's format
    assert f"Human: {PREFERENCE}\nAI: You told me: green tea." in prompt
    assert prompt.rstrip().endswith("Human: What do I like to drink?\nAI:")
    # and the long-term memory extracted from it
    assert core.profile("ada")["taste.green_tea"] == "like"
    turns = core.session_turns("ada", memory.session_id)
    assert [t.role for t in turns] == ["user", "assistant", "user", "assistant"]


@pytest.mark.slow
def test_session_50_prompt_has_session_3_preference_and_stays_bounded(
    core: UserMemory, clock: FakeClock
) -> None:
    budget = 300
    ours_llm = RecordingLLM(responses=[reply(i) for i in range(7)])
    memory = UserMemoryBuffer(memory=core, user_id="ada", token_budget=budget)
    ours = ConversationChain(llm=ours_llm, memory=memory)
    base_llm = RecordingLLM(responses=[reply(i) for i in range(7)])
    baseline = ConversationChain(llm=base_llm, memory=ConversationBufferMemory())

    ours_sizes = run_fifty_sessions(ours, ours_llm, clock, memory.clear)
    base_sizes = run_fifty_sessions(baseline, base_llm, FakeClock(), lambda: None)
    assert len(ours_sizes) == len(base_sizes) == 49 * 3 + 1

    final_prompt = ours_llm.prompts[-1]
    assert PREFERENCE_LINE in final_prompt, final_prompt  # said once, in session 3
    history = memory.load_memory_variables({"input": FINAL_QUESTION})["history"]
    assert count_tokens(history) <= budget
    overhead = max(
        count_tokens(ours.prompt.format(history="", input=text))
        for text in [FINAL_QUESTION, *(t for n in range(1, 50) for t in session_inputs(n))]
    )
    # ours: bounded on every call of every session
    assert max(ours_sizes) <= budget + overhead
    # ConversationBufferMemory: the whole transcript, growing with every turn
    assert all(b > a for a, b in itertools.pairwise(base_sizes))
    assert base_sizes[-1] > 10 * ours_sizes[-1]
    assert base_sizes[-1] > 100 * base_sizes[0] / 2
    print(
        f"session-50 prompt tokens: UserMemoryBuffer={ours_sizes[-1]} (max {max(ours_sizes)}) "
        f"vs ConversationBufferMemory={base_sizes[-1]} (budget {budget})"
    )


def test_every_prompt_is_bounded(core: UserMemory, clock: FakeClock) -> None:
    budget = 200
    llm = RecordingLLM(responses=[reply(i) for i in range(5)])
    memory = UserMemoryBuffer(memory=core, user_id="ada", token_budget=budget, window=4)
    chain = ConversationChain(llm=llm, memory=memory)
    for n in range(1, 8):
        for text in session_inputs(n):
            chain.invoke({"input": text})
        if n % 2 == 0:
            memory.clear()
            clock.advance(hours=5)
    overhead = max(
        count_tokens(chain.prompt.format(history="", input=t))
        for n in range(1, 8)
        for t in session_inputs(n)
    )
    sizes = [count_tokens(p) for p in llm.prompts]
    assert max(sizes) <= budget + overhead + 2
    assert len(sizes) == 21


def test_clear_ends_the_session_but_keeps_long_term_memory(core: UserMemory) -> None:
    memory = UserMemoryBuffer(memory=core, user_id="ada")
    memory.save_context({"input": PREFERENCE}, {"response": "Noted."})
    old_session = memory.session_id
    memory.clear()
    assert memory.session_id != old_session
    assert core.session_turns("ada", memory.session_id) == []
    episodes = [r for r in core.history("ada", f"session:{old_session}") if r.kind is Kind.EPISODE]
    assert episodes, "ending the session writes its episode"
    assert core.profile("ada")["taste.green_tea"] == "like"
    loaded = memory.load_memory_variables({"input": "which tea do I like?"})["history"]
    assert PREFERENCE_LINE in loaded and "Human:" not in loaded


def test_return_messages_for_chat_prompts(core: UserMemory) -> None:
    core.remember("ada", "drink.preferred", "green tea")
    memory = UserMemoryBuffer(memory=core, user_id="ada", return_messages=True)
    prompt = ChatPromptTemplate.from_messages(
        [MessagesPlaceholder("history"), ("human", "{input}")]
    )
    model = RecordingChatModel(messages=iter(["Tea.", "Green tea."]))
    chain = LLMChain(llm=model, prompt=prompt, memory=memory)
    chain.invoke({"input": "Hello!"})
    chain.invoke({"input": "What drink do I like?"})
    sent = model.calls[-1]
    assert isinstance(sent[0], SystemMessage) and "green tea" in str(sent[0].content)
    assert [type(m) for m in sent[1:]] == [HumanMessage, AIMessage, HumanMessage]


def test_custom_keys_and_prompt(core: UserMemory) -> None:
    memory = UserMemoryBuffer(
        memory=core,
        user_id="ada",
        memory_key="memories",
        input_key="question",
        human_prefix="User",
        ai_prefix="Bot",
    )
    llm = RecordingLLM(responses=["ok"])
    prompt = PromptTemplate.from_template("{memories}\nUser: {question}\nBot:")
    chain = LLMChain(llm=llm, prompt=prompt, memory=memory, output_key="text")
    chain.invoke({"question": "I live in Lisbon."})
    chain.invoke({"question": "Where do I live?"})
    assert "User: I live in Lisbon.\nBot: ok" in llm.prompts[-1]


def test_missing_user_id_raises_and_stores_nothing(core: UserMemory) -> None:
    memory = UserMemoryBuffer(memory=core, user_id="  ")
    with pytest.raises(InvalidIdError):
        memory.save_context({"input": PREFERENCE}, {"response": "ok"})
    with pytest.raises(InvalidIdError):
        memory.load_memory_variables({"input": "hi"})
    assert core.users() == []


async def test_async_chain_with_async_core(acore: AsyncUserMemory) -> None:
    llm = RecordingLLM(responses=["Noted.", "Green tea."])
    memory = UserMemoryBuffer(memory=acore, user_id="ada")
    chain = ConversationChain(llm=llm, memory=memory)
    await chain.ainvoke({"input": PREFERENCE})
    out = await chain.ainvoke({"input": "What do I drink?"})
    assert out["response"] == "Green tea."
    assert f"Human: {PREFERENCE}\nAI: Noted." in llm.prompts[-1]
    assert (await acore.profile("ada"))["taste.green_tea"] == "like"
    await memory.aclear()
    assert await acore.session_turns("ada", memory.session_id) == []


def test_memory_switched_off_writes_nothing_and_chain_keeps_working(core: UserMemory) -> None:
    core.set_memory_enabled("ada", False)
    llm = RecordingLLM(responses=["ok"])
    memory = UserMemoryBuffer(memory=core, user_id="ada")
    chain = ConversationChain(llm=llm, memory=memory)
    assert chain.invoke({"input": PREFERENCE})["response"] == "ok"
    assert core.profile("ada") == {}
    assert core.session_turns("ada", memory.session_id) == []
