"""PineconeVectorIndex through the real ``pinecone`` SDK against the in-process EMULATOR.

The emulator is not Pinecone (see ``tests/pinecone_emulator.py``); the opt-in live test at
the end runs the same calls against real Pinecone when ``PINECONE_API_KEY`` is set and
``USERMEMORY_PINECONE_LIVE=1``.
"""

from __future__ import annotations

import json
import logging
import os
import statistics
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pinecone import Pinecone

from shared_core.entities import Kind
from shared_core.errors import (
    BackendError,
    BackendUnavailableError,
    ConfigError,
    InvalidIdError,
    InvalidInputError,
)
from shared_core.storage.pinecone import (
    PineconeVectorIndex,
    open_pinecone,
    parse_pinecone_url,
    user_hash,
)
from shared_core.storage.protocols import VectorIndex, VectorItem
from tests.contract.vector_index_contract import VectorIndexContract
from tests.pinecone_emulator import PineconeEmulator

DIM = 8  # the conftest's default dimension
MakeIndex = Callable[..., PineconeVectorIndex]
METADATA_KEYS = {"user_id", "system_context", "kind", "key", "record_id"}


def _vec(seed: int, dim: int = DIM) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


def _item(
    user: str,
    record: str,
    seed: int,
    *,
    ctx: str = "default",
    kind: Kind = Kind.PREFERENCE,
    key: str = "food.likes",
    dim: int = DIM,
) -> VectorItem:
    return VectorItem(
        record_id=record,
        user_id=user,
        system_context=ctx,
        kind=kind,
        key=key,
        vector=_vec(seed, dim),
    )


def _all_vectors(emu: PineconeEmulator, name: str) -> list[tuple[str, dict[str, Any]]]:
    return [(vid, meta) for ns in emu.stored(name).values() for vid, (_, meta) in ns.items()]


# ----------------------------------------------------------------------------- contract


class TestPineconeVectorIndexContract(VectorIndexContract):
    """The shared VectorIndex contract, on an eagerly created index with filter deletes, and
    on a lazily created one (dimension from the first upsert) whose deletes by metadata
    filter are refused, so erasure relies on the id-prefix listing."""

    @pytest.fixture(params=["eager", "lazy-prefix-only"])
    def index(
        self,
        request: pytest.FixtureRequest,
        make_pinecone_index: MakeIndex,
        emulator: PineconeEmulator,
    ) -> PineconeVectorIndex:
        if request.param == "eager":
            return make_pinecone_index(dimension=DIM)
        emulator.delete_by_filter_supported = False
        return make_pinecone_index(dimension=None)


# ----------------------------------------------------------------------------- set-up


def test_creates_missing_serverless_index_from_url(
    pinecone_url: str, emulator: PineconeEmulator, index_name: str
) -> None:
    assert index_name not in emulator.indexes
    with open_pinecone(pinecone_url) as idx:
        assert isinstance(idx, VectorIndex)
        assert idx.dimension == DIM
        ix = emulator.indexes[index_name]
        assert (ix.dimension, ix.metric, ix.cloud, ix.region) == (DIM, "cosine", "aws", "us-east-1")
        assert emulator.count_requests("/indexes", method="POST") == 1
    # a second open adopts the existing index instead of creating it again
    with open_pinecone(pinecone_url) as again:
        assert again.dimension == DIM
    assert emulator.count_requests("/indexes", method="POST") == 1


def test_existing_index_with_other_dimension_is_a_config_error(
    pinecone_url: str, make_pinecone_index: MakeIndex, index_name: str
) -> None:
    make_pinecone_index(index_name=index_name, dimension=16)
    with pytest.raises(ConfigError, match="dimension 16"):
        PineconeVectorIndex.from_url(pinecone_url)


def test_missing_index_without_dimension_is_created_on_first_upsert(
    make_pinecone_index: MakeIndex, emulator: PineconeEmulator
) -> None:
    idx = make_pinecone_index(dimension=None)
    assert idx.dimension is None
    assert idx.index_name not in emulator.indexes
    assert idx.search("u1", "default", _vec(1, 12), k=3) == []
    assert idx.ids_for_user("u1") == set()
    idx.upsert([_item("u1", "r1", 1, dim=12)])
    assert idx.dimension == 12
    assert emulator.indexes[idx.index_name].dimension == 12
    assert [h.record_id for h in idx.search("u1", "default", _vec(1, 12), k=3)] == ["r1"]


def test_concurrent_lazy_creation_adopts_the_winner(
    make_pinecone_index: MakeIndex, emulator: PineconeEmulator
) -> None:
    a = make_pinecone_index(dimension=None)
    b = make_pinecone_index(dimension=None, index_name=a.index_name)
    a.upsert([_item("u1", "r1", 1)])
    b.upsert([_item("u1", "r2", 2)])  # create -> 409 ALREADY_EXISTS -> describe -> adopt
    assert emulator.count_requests("/indexes", method="POST") == 2
    assert a.ids_for_user("u1") == {"r1", "r2"}


def test_create_false_refuses_a_missing_index(
    emulator: PineconeEmulator, pinecone_api_key: str
) -> None:
    url = f"pinecone://um-absent?host={emulator.control_host}&dimension=8&create=false"
    with pytest.raises(ConfigError, match="does not exist"):
        open_pinecone(url)
    assert "um-absent" not in emulator.indexes


def test_index_host_skips_the_control_plane(
    make_pinecone_index: MakeIndex, emulator: PineconeEmulator
) -> None:
    first = make_pinecone_index()
    first.upsert([_item("u1", "r1", 1)])
    host = emulator.indexes[first.index_name].host
    emulator.reset_requests()
    with PineconeVectorIndex(first.index_name, index_host=host, namespace="test") as direct:
        assert direct.dimension == DIM  # read from describe_index_stats
        assert direct.ids_for_user("u1") == {"r1"}
    assert [r for r in emulator.requests if r.index is None] == []  # no control-plane call


def test_registry_opens_pinecone_urls_as_vector_indexes(
    pinecone_url: str, emulator: PineconeEmulator, index_name: str
) -> None:
    from shared_core.storage.registry import open_component

    idx = open_component(pinecone_url, "vectors")
    try:
        assert isinstance(idx, PineconeVectorIndex)
        assert (idx.index_name, idx.namespace, idx.dimension) == (index_name, "test", DIM)
        idx.upsert([_item("u1", "r1", 1)])
        assert emulator.indexes[index_name].namespaces["test"]
    finally:
        idx.close()


def test_url_parsing() -> None:
    kw = parse_pinecone_url(
        "pinecone://mem-prod?namespace=shard-7&host=http://127.0.0.1:5080"
        "&cloud=gcp&region=europe-west4&dimension=384&timeout=5&create=false"
    )
    assert kw == {
        "index_name": "mem-prod",
        "namespace": "shard-7",
        "host": "http://127.0.0.1:5080",
        "cloud": "gcp",
        "region": "europe-west4",
        "dimension": 384,
        "timeout": 5.0,
        "create_if_missing": False,
    }
    for bad in (
        "redis://mem",
        "pinecone://Bad_Name",
        "pinecone://mem?dimension=abc",
        "pinecone://mem?namespce=typo",
        "pinecone://mem?create=maybe",
    ):
        with pytest.raises(ConfigError):
            parse_pinecone_url(bad)


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from shared_core.errors import MissingDependencyError

    monkeypatch.setitem(sys.modules, "pinecone", None)  # makes ``import pinecone`` fail
    with pytest.raises(MissingDependencyError, match=r"\[pinecone\]"):
        PineconeVectorIndex("um-nosdk", api_key="k", dimension=8)


def test_missing_api_key_is_a_config_error(
    emulator: PineconeEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PINECONE_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="PINECONE_API_KEY"):
        open_pinecone(f"pinecone://um-nokey?host={emulator.control_host}&dimension=8")


def test_wrong_api_key_is_a_backend_error(emulator: PineconeEmulator) -> None:
    with pytest.raises(BackendError, match="401"):
        PineconeVectorIndex("um-wrongkey", api_key="not-the-key", host=emulator.control_host)


def test_unreachable_pinecone_is_backend_unavailable(pinecone_api_key: str) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(BackendUnavailableError):
        open_pinecone(f"pinecone://um-down?host=http://127.0.0.1:{port}&dimension=8&timeout=2")


# ----------------------------------------------------------------------------- reads/writes


def test_upsert_then_search_ranks_by_cosine(pinecone_index: PineconeVectorIndex) -> None:
    items = [_item("u1", f"r{i}", i) for i in range(10)]
    pinecone_index.upsert(items)
    hits = pinecone_index.search("u1", "default", _vec(3), k=4)
    assert len(hits) == 4
    assert hits[0].record_id == "r3"
    assert hits[0].similarity == pytest.approx(1.0, abs=1e-5)
    sims = [h.similarity for h in hits]
    assert sims == sorted(sims, reverse=True)
    expected = sorted(
        ((float(np.dot(_vec(3), _vec(i))), f"r{i}") for i in range(10)), reverse=True
    )[:4]
    assert [h.record_id for h in hits] == [r for _, r in expected]
    assert pinecone_index.search("u1", "default", _vec(3), k=0) == []


def test_upsert_is_idempotent_and_replaces_by_record_id(
    pinecone_index: PineconeVectorIndex, emulator: PineconeEmulator
) -> None:
    pinecone_index.upsert([_item("u1", "r1", 1), _item("u1", "r1", 2)])  # last wins
    pinecone_index.upsert([_item("u1", "r1", 2, kind=Kind.FACT, key="home.city")])
    vectors = _all_vectors(emulator, pinecone_index.index_name)
    assert len(vectors) == 1
    assert vectors[0][1]["kind"] == "fact"
    assert vectors[0][1]["key"] == "home.city"
    assert pinecone_index.search("u1", "default", _vec(2), k=1)[0].similarity == pytest.approx(
        1.0, abs=1e-5
    )


def test_filters_isolate_users_and_contexts(pinecone_index: PineconeVectorIndex) -> None:
    same = 7  # identical vectors everywhere: only the filter can tell them apart
    pinecone_index.upsert(
        [
            _item("alice", "a-default", same),
            _item("alice", "a-travel", same, ctx="travel"),
            _item("bob", "b-default", same),
            _item("bob", "b-travel", same, ctx="travel"),
        ]
    )

    def ids(user: str, ctx: str) -> list[str]:
        return [h.record_id for h in pinecone_index.search(user, ctx, _vec(same), k=10)]

    assert ids("alice", "default") == ["a-default"]
    assert ids("alice", "travel") == ["a-travel"]
    assert ids("bob", "default") == ["b-default"]
    assert ids("bob", "travel") == ["b-travel"]
    assert ids("carol", "default") == []
    assert pinecone_index.ids_for_user("alice") == {"a-default", "a-travel"}


def test_kinds_filter(pinecone_index: PineconeVectorIndex) -> None:
    pinecone_index.upsert(
        [
            _item("u1", "p", 1, kind=Kind.PREFERENCE),
            _item("u1", "f", 2, kind=Kind.FACT),
            _item("u1", "e", 3, kind=Kind.EPISODE),
        ]
    )
    got = {
        h.record_id
        for h in pinecone_index.search(
            "u1", "default", _vec(1), k=10, kinds=(Kind.FACT, Kind.EPISODE)
        )
    }
    assert got == {"f", "e"}
    assert pinecone_index.search("u1", "default", _vec(1), k=10, kinds=()) == []
    assert len(pinecone_index.search("u1", "default", _vec(1), k=10, kinds=None)) == 3


def test_metadata_never_contains_raw_text(
    pinecone_index: PineconeVectorIndex, emulator: PineconeEmulator
) -> None:
    pinecone_index.upsert(
        [_item("u1", f"r{i}", i, kind=k, key=f"k{i}") for i, k in enumerate(Kind)]
    )
    vectors = _all_vectors(emulator, pinecone_index.index_name)
    assert len(vectors) == len(Kind)
    for vid, meta in vectors:
        assert set(meta) == METADATA_KEYS
        assert vid == f"{user_hash('u1')}#{meta['record_id']}"
        assert meta["user_id"] == "u1" and meta["system_context"] == "default"
        assert meta["kind"] in {k.value for k in Kind}


def test_250_vectors_go_in_three_upsert_requests(
    pinecone_index: PineconeVectorIndex, emulator: PineconeEmulator
) -> None:
    emulator.reset_requests()
    pinecone_index.upsert([_item(f"u{i % 5}", f"r{i}", i) for i in range(250)])
    assert emulator.count_requests("/vectors/upsert", index=pinecone_index.index_name) == 3
    assert len(_all_vectors(emulator, pinecone_index.index_name)) == 250
    assert pinecone_index.count() == 250


def test_wide_vectors_are_split_by_request_size(
    make_pinecone_index: MakeIndex, emulator: PineconeEmulator
) -> None:
    dim = 3072  # 100 of these are ~6 MB of JSON; the emulator refuses requests over 2 MB
    idx = make_pinecone_index(dimension=dim)
    emulator.reset_requests()
    idx.upsert([_item("u1", f"r{i}", i, dim=dim) for i in range(100)])
    sizes = [
        r.body_bytes
        for r in emulator.requests
        if r.path == "/vectors/upsert" and r.index == idx.index_name
    ]
    assert len(sizes) >= 3
    assert all(r.status == 200 for r in emulator.requests if r.path == "/vectors/upsert")
    assert max(sizes) <= 2 * 1024 * 1024
    assert idx.count() == 100


def test_bad_input_raises_typed_errors_and_writes_nothing(
    pinecone_index: PineconeVectorIndex, emulator: PineconeEmulator
) -> None:
    good = _item("u1", "ok", 1)
    bad_items: list[tuple[type[Exception], VectorItem]] = [
        (InvalidInputError, _item("u1", "wrong-dim", 2, dim=DIM + 1)),
        (InvalidInputError, VectorItem(record_id="nan", user_id="u1", system_context="default",
                                       kind=Kind.FACT, key="k",
                                       vector=np.full(DIM, np.nan, dtype=np.float32))),
        (InvalidInputError, VectorItem(record_id="zero", user_id="u1", system_context="default",
                                       kind=Kind.FACT, key="k",
                                       vector=np.zeros(DIM, dtype=np.float32))),
        (InvalidIdError, _item("", "no-user", 3)),
        (InvalidIdError, _item("u1", "", 4)),
        (InvalidIdError, _item("u1", "récord", 5)),
        (InvalidIdError, _item("u1", "a#b", 6)),
        (InvalidIdError, _item("u1", "x" * 600, 7)),
    ]  # fmt: skip
    emulator.reset_requests()
    for exc, bad in bad_items:
        with pytest.raises(exc):
            pinecone_index.upsert([good, bad])
    assert emulator.count_requests("/vectors/upsert") == 0
    assert _all_vectors(emulator, pinecone_index.index_name) == []
    with pytest.raises(InvalidInputError):
        pinecone_index.search("u1", "default", _vec(1, DIM + 2), k=3)
    with pytest.raises(InvalidInputError):
        pinecone_index.search("u1", "default", _vec(1), k=-1)
    with pytest.raises(InvalidIdError):
        pinecone_index.search("", "default", _vec(1), k=1)
    with pytest.raises(InvalidIdError):
        pinecone_index.delete([""])


# ----------------------------------------------------------------------------- deletes


def test_delete_by_record_ids(pinecone_index: PineconeVectorIndex) -> None:
    pinecone_index.upsert([_item("u1", f"r{i}", i) for i in range(5)] + [_item("u2", "x", 9)])
    assert pinecone_index.delete(["r1", "r3", "x", "unknown"]) == 3
    assert pinecone_index.ids_for_user("u1") == {"r0", "r2", "r4"}
    assert pinecone_index.ids_for_user("u2") == set()
    assert pinecone_index.delete([]) == 0
    assert pinecone_index.delete(["r1"]) == 0


def test_delete_many_record_ids_pages_the_lookup(pinecone_index: PineconeVectorIndex) -> None:
    pinecone_index.upsert([_item("u1", f"r{i:03d}", i) for i in range(230)])
    assert pinecone_index.delete(f"r{i:03d}" for i in range(0, 230, 1) if i % 2 == 0) == 115
    assert len(pinecone_index.ids_for_user("u1")) == 115


@pytest.mark.parametrize("filter_delete", [True, False], ids=["filter-delete", "prefix-only"])
def test_delete_user_leaves_nothing(
    pinecone_index: PineconeVectorIndex,
    emulator: PineconeEmulator,
    caplog: pytest.LogCaptureFixture,
    filter_delete: bool,
) -> None:
    emulator.delete_by_filter_supported = filter_delete
    victim = "victim-7f3a@example.com"
    pinecone_index.upsert(
        [_item(victim, f"v{i}", i, ctx=("default", "travel")[i % 2]) for i in range(230)]
        + [_item("keeper", f"k{i}", 500 + i) for i in range(3)]
    )
    assert len(pinecone_index.ids_for_user(victim)) == 230
    with caplog.at_level(logging.INFO, logger="shared_core.storage.pinecone"):
        assert pinecone_index.delete_user(victim) == 230
    assert ("refuses delete-by-filter" in caplog.text) is (not filter_delete)
    # scan everything the emulator holds: no id, metadata value or key mentions the victim
    for vid, meta in _all_vectors(emulator, pinecone_index.index_name):
        assert not vid.startswith(user_hash(victim))
        assert all(victim not in str(v) for v in meta.values())
        assert meta["user_id"] == "keeper"
    assert pinecone_index.ids_for_user(victim) == set()
    assert pinecone_index.search(victim, "default", _vec(0), k=10) == []
    assert pinecone_index.ids_for_user("keeper") == {"k0", "k1", "k2"}
    assert pinecone_index.delete_user(victim) == 0


def test_delete_user_filter_sweep_removes_stray_vectors(
    pinecone_index: PineconeVectorIndex, emulator: PineconeEmulator, pinecone_api_key: str
) -> None:
    """A vector of the user under a foreign id (e.g. an old id scheme) is swept by filter."""
    pinecone_index.upsert([_item("u1", "r1", 1)])
    host = emulator.indexes[pinecone_index.index_name].host
    with Pinecone(api_key=pinecone_api_key) as pc, pc.index(host=host) as raw:
        raw.upsert(
            vectors=[{"id": "legacy-1", "values": _vec(2).tolist(), "metadata": {"user_id": "u1"}}],
            namespace="test",
        )
    assert pinecone_index.delete_user("u1") == 1
    assert _all_vectors(emulator, pinecone_index.index_name) == []


def test_namespaces_are_separate(make_pinecone_index: MakeIndex) -> None:
    shard_a = make_pinecone_index(namespace="shard-a")
    shard_b = make_pinecone_index(namespace="shard-b", index_name=shard_a.index_name)
    shard_a.upsert([_item("u1", "in-a", 1)])
    shard_b.upsert([_item("u1", "in-b", 1)])
    assert shard_a.ids_for_user("u1") == {"in-a"}
    assert [h.record_id for h in shard_b.search("u1", "default", _vec(1), k=5)] == ["in-b"]
    assert shard_a.delete_user("u1") == 1
    assert shard_b.ids_for_user("u1") == {"in-b"}


# ----------------------------------------------------------------------------- failures


def test_server_errors_become_typed_backend_errors(
    pinecone_index: PineconeVectorIndex, emulator: PineconeEmulator
) -> None:
    pinecone_index.upsert([_item("u1", "r1", 1)])
    emulator.inject_failures(1, status=400, path="/vectors/upsert")
    with pytest.raises(BackendError) as info:
        pinecone_index.upsert([_item("u1", "r2", 2)])
    assert not isinstance(info.value, BackendUnavailableError)
    # 503 is retried by the SDK (3 retries): 4 in a row exhaust it
    emulator.inject_failures(4, status=503, path="/query")
    with pytest.raises(BackendUnavailableError):
        pinecone_index.search("u1", "default", _vec(1), k=1)
    # one transient 503 is absorbed by the SDK's retry
    emulator.inject_failures(1, status=503, path="/query")
    assert [h.record_id for h in pinecone_index.search("u1", "default", _vec(1), k=1)] == ["r1"]


def test_closed_index_refuses_calls(pinecone_url: str) -> None:
    idx = open_pinecone(pinecone_url)
    idx.close()
    idx.close()  # idempotent
    with pytest.raises(BackendError, match="closed"):
        idx.search("u1", "default", _vec(1), k=1)
    with pytest.raises(BackendError, match="closed"):
        idx.upsert([_item("u1", "r1", 1)])


def test_concurrent_upserts_and_searches(pinecone_index: PineconeVectorIndex) -> None:
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            user = f"t{n}"
            pinecone_index.upsert([_item(user, f"{user}-{i}", n * 100 + i) for i in range(20)])
            hits = pinecone_index.search(user, "default", _vec(n * 100 + 5), k=3)
            assert hits[0].record_id == f"{user}-5"
            assert all(h.record_id.startswith(f"{user}-") for h in hits)
        except BaseException as exc:  # collected and re-raised in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert pinecone_index.count() == 160


# ----------------------------------------------------------------------------- latency


def test_query_latency_through_the_sdk(make_pinecone_index: MakeIndex) -> None:
    """p50/p95 of one filtered top-3 query, SDK -> emulator over loopback (1000 vectors, 384-d).

    See the numbers with ``-o log_cli=true --log-cli-level=INFO``.
    """
    dim = 384
    idx = make_pinecone_index(dimension=dim)
    idx.upsert([_item(f"u{i % 20}", f"r{i}", i, dim=dim) for i in range(1000)])
    for _ in range(5):  # warm the connection pool
        idx.search("u0", "default", _vec(0, dim), k=3)
    samples = []
    for q in range(200):
        t0 = time.perf_counter()
        hits = idx.search(f"u{q % 20}", "default", _vec(q, dim), k=3)
        samples.append((time.perf_counter() - t0) * 1000)
        assert len(hits) == 3
    p50 = statistics.median(samples)
    p95 = statistics.quantiles(samples, n=20)[-1]
    logging.getLogger(__name__).info("emulator query p50=%.2f ms p95=%.2f ms", p50, p95)
    assert p50 < 35, f"p50 {p50:.1f} ms: is TCP_NODELAY (disable_nagle_algorithm) lost?"


# ----------------------------------------------------------------------------- emulator


def _raw_post(host: str, path: str, key: str, body: dict[str, Any]) -> tuple[int, Any]:
    req = urllib.request.Request(
        host + path,
        data=json.dumps(body).encode(),
        headers={"Api-Key": key, "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read() or b"{}")
    except urllib.error.HTTPError as err:
        with err:
            return err.code, json.loads(err.read() or b"{}")


def test_emulator_validates_and_filters_like_the_service(
    make_pinecone_index: MakeIndex, emulator: PineconeEmulator, pinecone_api_key: str
) -> None:
    from pinecone.errors.exceptions import ApiError, PayloadTooLargeError, UnauthorizedError

    idx = make_pinecone_index(dimension=3)
    host = emulator.indexes[idx.index_name].host
    with Pinecone(api_key=pinecone_api_key) as pc, pc.index(host=host) as raw:
        raw.upsert(
            vectors=[
                {"id": "a", "values": [1, 0, 0], "metadata": {"g": ["x", "y"], "n": 1}},
                {"id": "b", "values": [0, 1, 0], "metadata": {"g": "z", "n": 5}},
                {"id": "c", "values": [0, 0, 1], "metadata": {"n": 9}},
            ]
        )

        def q(flt: dict[str, Any]) -> set[str]:
            return {m.id for m in raw.query(top_k=10, vector=[1, 1, 1], filter=flt).matches}

        assert q({"g": {"$eq": "x"}}) == {"a"}
        assert q({"g": "z"}) == {"b"}
        assert q({"g": {"$ne": "x"}}) == {"b", "c"}
        assert q({"g": {"$in": ["y", "z"]}}) == {"a", "b"}
        assert q({"g": {"$nin": ["y", "z"]}}) == {"c"}
        assert q({"n": {"$gte": 5}}) == {"b", "c"}
        assert q({"$or": [{"n": {"$lt": 2}}, {"n": {"$gt": 8}}]}) == {"a", "c"}
        assert q({"$and": [{"n": {"$gt": 1}}, {"g": {"$exists": True}}]}) == {"b"}
        bad_filters: list[dict[str, Any]] = [
            {"g": {"$regex": "x"}},
            {"g": {"$in": "x"}},
            {"$or": []},
        ]
        for bad_filter in bad_filters:
            with pytest.raises(ApiError, match="400"):
                raw.query(top_k=1, vector=[1, 0, 0], filter=bad_filter)
        with pytest.raises(ApiError, match="dimension 2 does not match"):
            raw.upsert(vectors=[{"id": "d", "values": [1, 0]}])
        # the SDK checks some things itself; send those raw to check the server side
        status, body = _raw_post(
            host,
            "/vectors/upsert",
            pinecone_api_key,
            {"vectors": [{"id": "d", "values": [1, 0, 0], "metadata": {"x": {"y": 1}}}]},
        )
        assert (status, "Metadata value" in body["message"]) == (400, True)
        status, body = _raw_post(
            host,
            "/vectors/upsert",
            pinecone_api_key,
            {"vectors": [{"id": f"v{i}", "values": [1, 0, 0]} for i in range(1001)]},
        )
        assert (status, "maximum is 1000" in body["message"]) == (400, True)
        status, body = _raw_post(
            host, "/vectors/delete", pinecone_api_key, {"ids": ["a"], "deleteAll": True}
        )
        assert status == 400
        with pytest.raises(PayloadTooLargeError):
            raw.upsert(
                vectors=[
                    {"id": f"w{i}", "values": [1, 0, 0], "metadata": {"t": "x" * 30_000}}
                    for i in range(80)
                ]
            )
        assert raw.describe_index_stats().total_vector_count == 3  # nothing partial
        pages = list(raw.list(limit=2))
        assert [[v.id for v in p.vectors] for p in pages] == [["a", "b"], ["c"]]
    with (
        Pinecone(api_key="wrong") as pc,
        pc.index(host=host) as bad_key,
        pytest.raises(UnauthorizedError),
    ):
        bad_key.describe_index_stats()


# ----------------------------------------------------------------------------- live


@pytest.mark.integration
@pytest.mark.skipif(
    not (os.environ.get("PINECONE_API_KEY") and os.environ.get("USERMEMORY_PINECONE_LIVE") == "1"),
    reason="live Pinecone test: set PINECONE_API_KEY and USERMEMORY_PINECONE_LIVE=1 "
    "(optionally USERMEMORY_PINECONE_INDEX, default 'usermemory-live-test')",
)
def test_live_pinecone_round_trip() -> None:  # pragma: no cover - needs the real service
    name = os.environ.get("USERMEMORY_PINECONE_INDEX", "usermemory-live-test")
    namespace = f"live-{uuid.uuid4().hex[:12]}"
    user = f"live-user-{uuid.uuid4().hex[:8]}"
    with PineconeVectorIndex(name, namespace=namespace, dimension=DIM) as idx:
        try:
            idx.upsert([_item(user, f"r{i}", i) for i in range(5)])

            def eventually(check: Callable[[], bool]) -> None:
                deadline = time.monotonic() + 60
                while not check():
                    assert time.monotonic() < deadline, "Pinecone did not converge in 60 s"
                    time.sleep(1)

            eventually(lambda: idx.ids_for_user(user) == {f"r{i}" for i in range(5)})
            eventually(
                lambda: [h.record_id for h in idx.search(user, "default", _vec(2), k=1)] == ["r2"]
            )
            assert idx.delete_user(user) == 5
            eventually(lambda: idx.ids_for_user(user) == set())
        finally:
            idx.delete_user(user)
