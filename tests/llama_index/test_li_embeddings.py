"""End to end with the real default embedder (MiniLM through sentence-transformers)."""

from __future__ import annotations

import pytest
from li_support import FILLERS, PREFERENCE, START, RecordingLLM, next_session
from llama_index.core.chat_engine import SimpleChatEngine

from llama_index_usermemory import UserChatMemory, UserMemoryRetriever
from shared_core import UserMemory
from shared_core.clock import FakeClock

USER = "u_li_minilm"


@pytest.mark.embeddings
def test_default_embedder_recalls_paraphrased_preference() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    clock = FakeClock(START)
    core = UserMemory.from_url("sqlite:///:memory:", clock=clock)  # default embedder
    llm = RecordingLLM()
    for n in range(1, 8):
        next_session(clock)
        memory = UserChatMemory(memory=core, user_id=USER, session_id=f"s{n}")
        SimpleChatEngine.from_defaults(llm=llm, memory=memory).chat(
            PREFERENCE if n == 3 else FILLERS[n % len(FILLERS)]
        )
        memory.reset()
    assert "MiniLM" in core.embedder.name or "minilm" in core.embedder.name.lower()
    next_session(clock)
    memory = UserChatMemory(memory=core, user_id=USER, session_id="s8")
    SimpleChatEngine.from_defaults(llm=llm, memory=memory).chat(
        "Like last time: don't phone me, just message me about the refund."
    )
    assert "SMS" in llm.last_input
    nodes = UserMemoryRetriever(core, USER, k=3).retrieve("how may we reach you?")
    assert any("SMS" in n.node.get_content() for n in nodes)
    core.close()


def test_llamaindex_embedder_knows_an_english_only_model() -> None:
    from llama_index.core.embeddings import MockEmbedding

    from llama_index_usermemory import LlamaIndexEmbedder
    from shared_core.embed import represents

    en = LlamaIndexEmbedder(MockEmbedding(embed_dim=8, model_name="all-MiniLM-L6-v2"))
    assert en.multilingual is False and not represents(en, "我们该怎么联系你？")
    assert LlamaIndexEmbedder(MockEmbedding(embed_dim=8)).multilingual is True
    forced = LlamaIndexEmbedder(
        MockEmbedding(embed_dim=8, model_name="all-MiniLM-L6-v2"), multilingual=True
    )
    assert represents(forced, "我们该怎么联系你？")
    from shared_core.errors import InvalidInputError

    with pytest.raises(InvalidInputError):  # a wrong type is not read as "true"
        LlamaIndexEmbedder(MockEmbedding(embed_dim=8), multilingual="no")  # type: ignore[arg-type]
