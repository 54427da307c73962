"""Module-level locks (and ``prometheus_client``'s) a parent thread holds at ``os.fork()``
do not hang the child: each is renewed in the child (``shared_core/_forksafe.py``).

Every test forks for real (``tests/forking.py``: the child reports through its exit
code, a hung child is killed after a deadline and the test fails). A parent thread holds
the lock across the fork; the child runs the code path that takes it.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import re
import threading
from pathlib import Path

import pytest

import shared_core
from shared_core import _forksafe, tokens
from shared_core.aio import CoreBridge
from shared_core.embed import CallableEmbedder, HashingEmbedder
from shared_core.ingest import classify
from shared_core.metrics import Metrics, prometheus_available
from shared_core.storage import lexical, registry
from tests.forking import PASSED, held_by_a_thread, in_child

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")

# a lock assigned at module level: ``_name = threading.Lock()`` (or RLock), unindented
_MODULE_LOCK = re.compile(r"^(\w+)\s*(?::[^=]+)?=\s*threading\.R?Lock\(\)", re.M)


def test_every_module_level_lock_in_the_core_is_renewed_in_the_child() -> None:
    root = Path(shared_core.__file__).parent
    found: set[tuple[str, str]] = set()
    for path in root.rglob("*.py"):
        names = _MODULE_LOCK.findall(path.read_text(encoding="utf-8"))
        if names:
            parts = path.relative_to(root.parent).with_suffix("").parts
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            importlib.import_module(module)  # registers its locks
            found.update((module, name) for name in names)
    assert len(found) >= 7  # the scan itself works
    assert found <= set(_forksafe.registered_locks())


def test_the_tokenizer_loads_in_the_child_though_a_parent_thread_held_its_lock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tokens, "_tokenizer", None)  # not loaded yet: the load takes the lock
    monkeypatch.setattr(tokens, "_tokenizer_failed", False)
    with held_by_a_thread(tokens._lock):

        def child() -> None:
            assert tokens.count_tokens("I live in Berlin and work at Acme.") > 0
            assert tokens._lock.acquire(timeout=1)  # the child's own, free

        assert in_child(child, timeout=30) == PASSED


def test_jieba_loads_in_the_child_though_a_parent_thread_was_loading_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    jieba = pytest.importorskip("jieba")
    lexical.warm_up()
    # as if a parent thread were inside jieba's first load at the fork: ours, jieba's
    # tokenizer lock and its cache-file lock are held, and nothing is loaded yet
    monkeypatch.setattr(lexical, "_jieba", None)
    monkeypatch.setattr(jieba.dt, "initialized", False)
    writing = threading.RLock()
    monkeypatch.setitem(jieba.DICT_WRITING, jieba.dt.dictionary, writing)
    with held_by_a_thread(lexical._jieba_lock, jieba.dt.lock, writing):

        def child() -> None:
            words = lexical.tokenize("我喜欢北京烤鸭")
            assert "北京" in words and "烤鸭" in words
            assert lexical.jieba_loaded()

        assert in_child(child, timeout=60) == PASSED


def test_the_classifier_builds_its_prototypes_in_the_child_though_its_lock_was_held() -> None:
    embedder = HashingEmbedder()
    clf = classify.PrototypeClassifier(embedder)
    assert clf.predict("I am allergic to peanuts").key  # the parent's matrix is cached
    with held_by_a_thread(classify._CACHE_LOCK):

        def child() -> None:
            assert clf.predict("I am allergic to peanuts").key  # cached: read under the lock
            other = HashingEmbedder(dimension=128)  # another model: built and stored
            assert other.name != embedder.name
            assert classify.PrototypeClassifier(other).predict("I fly Lufthansa").key

        assert in_child(child, timeout=60) == PASSED


class AsyncOnlyCore:
    """An async core without a ``.sync`` twin: the bridge runs it on its private loop."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def observe(self, user_id: str, text: str) -> str:
        await asyncio.sleep(0)
        self.seen.append(text)
        return f"{user_id}:{text}"


def test_the_async_bridge_starts_a_loop_of_the_childs_own_though_the_registry_lock_was_held() -> (
    None
):
    core = AsyncOnlyCore()
    bridge = CoreBridge(core)
    assert bridge.uses_private_loop
    assert bridge.call("observe", "u", "before") == "u:before"  # the parent's loop thread
    from shared_core import aio

    parent_runner = aio._LOOPS[core]
    with held_by_a_thread(aio._LOOPS_LOCK):

        def child() -> None:
            assert bridge.call("observe", "u", "in the child") == "u:in the child"
            runner = aio._LOOPS[core]
            assert runner is not parent_runner and runner.thread.is_alive()

        assert in_child(child, timeout=30) == PASSED
    assert bridge.call("observe", "u", "after") == "u:after"  # the parent's loop still runs
    assert aio._LOOPS[core] is parent_runner
    assert core.seen == ["before", "after"]


def test_the_backend_registry_and_warn_once_locks_are_free_in_the_child() -> None:
    from shared_core.embed import select
    from shared_core.storage import pgvector

    with held_by_a_thread(registry._lock, select._warn_lock, pgvector._warn_lock):

        def child() -> None:
            registry.register_backend("forktest", lambda url, **kw: None, role="cache")
            for lock in (select._warn_lock, pgvector._warn_lock):
                assert lock.acquire(timeout=1)

        assert in_child(child, timeout=30) == PASSED


def test_an_embedder_no_memory_holds_embeds_in_the_child_though_its_locks_were_held() -> None:
    hashing = HashingEmbedder()
    embedder = CallableEmbedder(hashing.embed, dimension=hashing.dimension, name="standalone")
    embedder.embed(["warm"])
    with held_by_a_thread(embedder._model_lock, embedder._cache_lock):

        def child() -> None:
            assert embedder.embed(["a text first seen in the child"]).shape[0] == 1

        assert in_child(child, timeout=30) == PASSED


@pytest.mark.skipif(not prometheus_available(), reason="prometheus_client not installed")
def test_metrics_count_in_the_child_though_prometheus_locks_were_held() -> None:
    m = Metrics()
    m.inc("recall")
    m.inc("gated_out", reason="low_confidence")
    m.observe_latency("recall", 0.01)
    counter = m._counters["usermemory_recall_total"][0]
    gated = m._counters["usermemory_gated_out_total"][0]
    hist = m._histograms["recall"]
    locks = [
        m._lock,
        m.registry._lock,  # collect(), register()
        counter._value._lock,  # a counter's value
        gated._lock,  # a labelled metric's children
        gated.labels(reason="low_confidence")._value._lock,
        hist._sum._lock,
        *(bucket._lock for bucket in hist._buckets),
    ]
    with held_by_a_thread(*locks):

        def child() -> None:
            m.inc("recall")
            m.inc("gated_out", reason="low_confidence")
            m.inc("gated_out", reason="duplicate")  # a new child of the labelled metric
            m.observe_latency("recall", 0.02)
            m.inc("brand_new")  # a new counter: registers under the registry lock
            assert m.value("recall_total") == 2.0
            assert m.value("gated_out_total", reason="low_confidence") == 2.0
            assert m.value("recall_seconds_count") == 2.0
            assert b"usermemory_brand_new_total 1.0" in m.generate_latest()

        assert in_child(child, timeout=30) == PASSED
    assert m.value("recall_total") == 1.0  # the child's counts are its own
    assert m.value("recall_seconds_count") == 1.0
