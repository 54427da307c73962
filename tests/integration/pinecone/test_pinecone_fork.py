"""Pinecone after ``os.fork()`` (on the in-process emulator): the SDK's HTTP pools keep
connections alive and do not notice a fork, so the child builds clients of its own and
leaves the inherited ones (sockets the parent still uses) alone."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.storage import StorageSpec
from shared_core.storage import pinecone as pinecone_module
from shared_core.storage.pinecone import PineconeVectorIndex
from tests.forking import PASSED, in_child

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")


def test_child_uses_http_clients_of_its_own(
    make_pinecone_index: Callable[..., PineconeVectorIndex], tmp_path: Path
) -> None:
    index = make_pinecone_index(dimension=HashingEmbedder().dimension)
    mem = UserMemory(
        StorageSpec(records=f"sqlite:///{tmp_path / 'memory.db'}", vectors=index),
        embedder=HashingEmbedder(),
    )
    try:
        mem.observe("u", "I live in Berlin.")  # an upsert: a kept-alive connection
        before = index.ids_for_user("u")
        assert before
        inherited = (id(index._pc), id(index._index))

        def child() -> None:
            # new clients (the old objects are kept alive, so their ids cannot be reused)
            assert (id(index._pc), id(index._index)) != inherited
            assert any((id(pc), id(ix)) == inherited for pc, ix in pinecone_module._INHERITED)
            mem.observe("u", "My budget is 5000.")
            assert index.ids_for_user("u") > before
            hits = mem.recall("u", "what is my budget")
            assert any(s.record.key == "budget.max" for s in hits)
            mem.close()

        assert in_child(child, timeout=30) == PASSED
        after_child = index.ids_for_user("u")  # the parent's clients still answer
        assert after_child > before
        mem.observe("u", "I work at Acme.")
        assert index.ids_for_user("u") > after_child
    finally:
        mem.close()
