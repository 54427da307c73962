"""Recall latency at scale: UserMemory vs the vector-store peers with N stored items.

A synthetic set: ``items / per_user`` users, each with ``per_user`` distinct facts drawn
from a vocabulary of 200 topics x 10 values ("My preferred option for topic 17 is teal.").
Every unique text is embedded once with the real embedder (:class:`MemoEmbedder`), then
bulk-loaded through each system's own bulk path:

- UserMemory: ``import_user`` (one export-format batch per user, then ``reindex``);
- LangChain ``InMemoryVectorStore.add_texts`` (metadata user_id / context);
- LlamaIndex ``SimpleVectorStore.add`` of ``TextNode`` s with the ``session_id`` metadata
  ``VectorMemoryBlock`` filters on, queried through a ``VectorMemoryBlock``;
- mem0: its Qdrant ``vector_store.insert`` with mem0's payload fields, queried through
  ``Memory.search``.

Queries are paraphrases of a random user's topics; their vectors are pre-computed for
every system alike, so the numbers are the memory layer's own cost (query embedding, the
same ~5-15 ms MiniLM call for everyone, is excluded).
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import random
import statistics
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from shared_core.llm import Embedder

from .common import MemoEmbedder, make_embedder

__all__ = ["run_scale"]

_VALUES = ["teal", "amber", "crimson", "olive", "navy", "ivory", "coral", "slate", "plum", "sage"]
_TOPICS = 200


def _fact(topic: int, value: str) -> str:
    return f"My preferred option for topic {topic} is {value}."


def _query(topic: int) -> str:
    return f"Which option do I like for topic {topic}?"


def _pct(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    return {
        "p50_ms": round(statistics.median(ms), 3),
        "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 3),
        "n": len(ms),
    }


def _dataset(items: int, per_user: int, seed: int) -> list[tuple[str, list[tuple[int, str]]]]:
    rng = random.Random(seed)
    users = []
    for u in range(items // per_user):
        topics = rng.sample(range(_TOPICS), per_user)
        users.append((f"scale-{u:06d}", [(t, rng.choice(_VALUES)) for t in topics]))
    return users


def _time_queries(
    fn: Callable[[str, str], int], asks: list[tuple[str, str]], *, budget_s: float = 25.0
) -> dict[str, float]:
    """p50/p95 of ``fn`` over ``asks`` (stops after ``budget_s`` once 20 are timed)."""
    for uid, q in asks[:3]:  # warm-up
        fn(uid, q)
    samples: list[float] = []
    cpu: list[float] = []
    deadline = time.perf_counter() + budget_s
    for uid, q in asks:
        if len(samples) >= 20 and time.perf_counter() > deadline:
            break
        t0, c0 = time.perf_counter(), time.process_time()
        n = fn(uid, q)
        samples.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        if n < 1:
            raise RuntimeError(f"no result for {uid!r} / {q!r}")
    c = _pct(cpu)
    return {**_pct(samples), "cpu_p50_ms": c["p50_ms"], "cpu_p95_ms": c["p95_ms"]}


def _usermemory(data: list[tuple[str, list[tuple[int, str]]]], emb: MemoEmbedder, asks: Any) -> Any:
    import tempfile

    from shared_core import UserMemory
    from shared_core.entities import MemoryRecord
    from shared_core.recall.retrieve import embedding_parts
    from shared_core.recall.rewrite import rewrite

    tmp = tempfile.TemporaryDirectory(prefix="usermemory-scale-", dir="/dev/shm")
    mem = UserMemory(f"sqlite:///{tmp.name}/scale.db", embedder=emb)
    try:
        template = mem.remember("template-user", "topic.0", "teal")
        base = mem.export("template-user")["records"][0]
        mem.forget("template-user")

        def rec(uid: str, t: int, v: str) -> dict[str, Any]:
            return {
                **base,
                "id": uuid.uuid4().hex,
                "user_id": uid,
                "key": f"topic.{t}",
                "value": v,
                "normalized": v,
            }

        # UserMemory embeds its own record texts and the rewritten query: pre-compute those
        # too, so that, as for the peers, no embedder call happens during load or queries
        warm, emb.warm = emb.warm, False
        emb.embed(
            [
                text
                for t in range(_TOPICS)
                for v in _VALUES
                for text in embedding_parts(MemoryRecord.from_dict(rec("x", t, v)))
            ]
            + [rewrite(q).text for _, q in asks]
        )
        emb.warm, emb.calls_after_warm = warm, 0  # (the template record was embedded above)
        t0 = time.perf_counter()
        for uid, facts in data:
            records = [rec(uid, t, v) for t, v in facts]
            mem.import_user(
                {
                    "format": "usermemory.export/1",
                    "user_id": uid,
                    "records": records,
                    "audit": [],
                    "conflicts": [],
                    "state": None,
                }
            )
        load = time.perf_counter() - t0
        del template
        stats = _time_queries(lambda u, q: len(mem.recall(u, q, k=3)), asks)
    finally:
        mem.close()
        tmp.cleanup()
    return load, stats


def _langchain(data: Any, emb: MemoEmbedder, asks: Any) -> Any:
    from langchain_core.vectorstores import InMemoryVectorStore

    from langchain_usermemory.embeddings import UserMemoryEmbeddings

    store = InMemoryVectorStore(UserMemoryEmbeddings(emb))
    t0 = time.perf_counter()
    for uid, facts in data:
        store.add_texts(
            [_fact(t, v) for t, v in facts],
            metadatas=[{"user_id": uid, "context": "default"}] * len(facts),
        )
    load = time.perf_counter() - t0

    def ask(uid: str, q: str) -> int:
        docs = store.similarity_search(
            q,
            k=3,
            filter=lambda d: d.metadata["user_id"] == uid and d.metadata["context"] == "default",
        )
        return len(docs)

    stats = _time_queries(ask, asks)
    store.store.clear()
    return load, stats


def _llamaindex(data: Any, emb: MemoEmbedder, asks: Any) -> Any:
    from llama_index.core.llms import ChatMessage
    from llama_index.core.memory import VectorMemoryBlock
    from llama_index.core.schema import TextNode

    from .systems import CoreEmbedding, text_vector_store

    store = text_vector_store()
    embed_model = CoreEmbedding(emb)
    t0 = time.perf_counter()
    for uid, facts in data:
        texts = [_fact(t, v) for t, v in facts]
        vecs = emb.embed(texts)
        nodes = [
            TextNode(text=txt, metadata={"session_id": f"{uid}|default"}, embedding=vec.tolist())
            for txt, vec in zip(texts, vecs, strict=True)
        ]
        store.add(nodes)
    load = time.perf_counter() - t0
    blocks: dict[str, VectorMemoryBlock] = {}
    for uid, _ in asks:  # one block per session: the block keeps its first session filter
        blocks[uid] = VectorMemoryBlock(
            vector_store=store, embed_model=embed_model, similarity_top_k=3
        )

    loop = asyncio.new_event_loop()

    def ask(uid: str, q: str) -> int:
        text = loop.run_until_complete(
            blocks[uid].aget([ChatMessage(role="user", content=q)], session_id=f"{uid}|default")
        )
        return len(text)

    try:
        stats = _time_queries(ask, asks)
    finally:
        loop.close()
    return load, stats


def _mem0(data: Any, emb: MemoEmbedder, asks: Any, embedder_name: str) -> Any:
    from .systems import Mem0Peer

    peer = Mem0Peer(embedder_name, emb)
    real = peer.memory.embedding_model
    if embedder_name == "minilm":
        # queries are pre-embedded for every system: serve mem0's embed() from the memo
        class _Memo:
            config = real.config

            def embed(self, text: str, memory_action: str | None = None) -> list[float]:
                return [float(x) for x in emb.embed([text])[0]]

        peer.memory.embedding_model = _Memo()
    t0 = time.perf_counter()
    now = datetime(2025, 1, 1, tzinfo=UTC).isoformat()
    for uid, facts in data:
        texts = [_fact(t, v) for t, v in facts]
        vecs = emb.embed(texts)
        payloads = [
            {
                "data": txt,
                "hash": hashlib.md5(txt.encode()).hexdigest(),
                "created_at": now,
                "updated_at": now,
                "user_id": uid,
                "system_context": "default",
            }
            for txt in texts
        ]
        peer.memory.vector_store.insert(
            vectors=[v.tolist() for v in vecs],
            payloads=payloads,
            ids=[str(uuid.uuid4()) for _ in texts],
        )
    load = time.perf_counter() - t0

    def ask(uid: str, q: str) -> int:
        got = peer.memory.search(q, filters={"user_id": uid, "system_context": "default"}, limit=3)
        return len(got["results"])

    stats = _time_queries(ask, asks)
    peer.close()
    return load, stats


def run_scale(
    embedder_name: str,
    *,
    items: int = 100_000,
    per_user: int = 100,
    queries: int = 60,
    seed: int = 0,
    systems: tuple[str, ...] = ("usermemory", "langchain", "llamaindex", "mem0"),
    base: Embedder | None = None,
) -> dict[str, Any]:
    """Bulk-load ``items`` facts into every system and time ``queries`` recalls on each.

    Returns:
        ``{"items", "users", "systems": {name: {"load_s", "p50_ms", "p95_ms", "n"} or
        {"error"}}, "fastest_peer", "ratio_p95"}`` - the ratio is peer p95 / UserMemory p95.
    """
    data = _dataset(items, per_user, seed)
    rng = random.Random(seed + 1)
    asks = []
    for _ in range(queries):
        uid, facts = data[rng.randrange(len(data))]
        asks.append((uid, _query(rng.choice(facts)[0])))
    emb = MemoEmbedder(base or make_embedder(embedder_name))
    t0 = time.perf_counter()
    emb.embed([_fact(t, v) for t in range(_TOPICS) for v in _VALUES] + [q for _, q in asks])
    emb.warm = True
    out: dict[str, Any] = {
        "items": len(data) * per_user,
        "users": len(data),
        "per_user": per_user,
        "embed_vocab_s": round(time.perf_counter() - t0, 1),
        "systems": {},
    }
    runners: dict[str, Callable[[], Any]] = {
        "usermemory": lambda: _usermemory(data, emb, asks),
        "langchain": lambda: _langchain(data, emb, asks),
        "llamaindex": lambda: _llamaindex(data, emb, asks),
        "mem0": lambda: _mem0(data, emb, asks, embedder_name),
    }
    for name in systems:
        try:
            load, stats = runners[name]()
            out["systems"][name] = {"load_s": round(load, 1), **stats}
            out["systems"][name]["embed_calls_after_warmup"] = emb.calls_after_warm
            emb.calls_after_warm = 0
        except Exception as exc:  # record the exact failure
            out["systems"][name] = {"error": f"{type(exc).__name__}: {exc}"}
        gc.collect()
    um = out["systems"].get("usermemory", {})
    peers = {k: v for k, v in out["systems"].items() if k != "usermemory" and "p95_ms" in v}
    if peers and "p95_ms" in um:
        fastest = min(peers, key=lambda k: peers[k]["p95_ms"])
        out["fastest_peer"] = fastest
        out["ratio_p95"] = round(peers[fastest]["p95_ms"] / max(um["p95_ms"], 1e-9), 1)
        fastest_cpu = min(peers, key=lambda k: peers[k]["cpu_p95_ms"])
        out["fastest_peer_cpu"] = fastest_cpu
        out["ratio_cpu_p95"] = round(
            peers[fastest_cpu]["cpu_p95_ms"] / max(um["cpu_p95_ms"], 1e-9), 1
        )
    return out
