"""Embedders: hashing (always), callable wrapper, real MiniLM and ONNX (marked ``embeddings``)."""

from __future__ import annotations

import importlib.util
import logging
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from shared_core.embed import (
    MINILM_DIMENSION,
    MINILM_MODEL,
    CallableEmbedder,
    HashingEmbedder,
    OnnxEmbedder,
    SentenceTransformerEmbedder,
    default_embedder,
    length_groups,
)
from shared_core.embed import select as embed_select
from shared_core.errors import ConfigError, InvalidInputError, MissingDependencyError
from shared_core.llm import Embedder

ROOT = Path(__file__).resolve().parents[2]


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


# --------------------------------------------------------------------------- import laziness


def test_import_does_not_load_torch_or_models() -> None:
    code = (
        "import sys, shared_core.embed as e\n"
        "for m in ('torch', 'sentence_transformers', 'onnxruntime', 'transformers'):\n"
        "    assert m not in sys.modules, m\n"
        "emb = e.SentenceTransformerEmbedder()\n"
        "assert emb.dimension == 384 and not emb.loaded\n"
        "assert 'torch' not in sys.modules\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_missing_sentence_transformers_raises_missing_dependency() -> None:
    code = (
        "import sys\n"
        "sys.modules['sentence_transformers'] = None\n"
        "import importlib.util\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda n, *a: None if n in "
        "('sentence_transformers', 'onnxruntime') else real(n, *a)\n"
        "from shared_core.embed import SentenceTransformerEmbedder, default_embedder\n"
        "from shared_core.errors import MissingDependencyError\n"
        "try:\n"
        "    SentenceTransformerEmbedder().embed(['x'])\n"
        "except MissingDependencyError as exc:\n"
        "    assert exc.extra == 'embeddings', exc\n"
        "else:\n"
        "    raise SystemExit('no error')\n"
        "print(type(default_embedder()).__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "HashingEmbedder"
    assert "HashingEmbedder" in out.stderr  # the one-time logged warning


# --------------------------------------------------------------------------- hashing


def test_hashing_shapes_norms_and_protocol() -> None:
    emb = HashingEmbedder(dimension=128)
    assert isinstance(emb, Embedder)
    vecs = emb.embed(["I prefer dark mode", "我喜欢喝咖啡", "", "!!!"])
    assert vecs.shape == (4, 128) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, rtol=1e-5)
    assert emb.embed([]).shape == (0, 128)


def test_hashing_is_deterministic_across_processes() -> None:
    code = (
        "from shared_core.embed import HashingEmbedder\n"
        "print(HashingEmbedder(64).embed(['Berlin coffee 咖啡'])[0].round(6).tolist())\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        ).stdout
        for seed in ("1", "2")
    ]
    here = HashingEmbedder(64).embed(["Berlin coffee 咖啡"])[0].round(6).tolist()
    assert runs[0] == runs[1] == f"{here}\n"


def test_hashing_lexical_similarity_en_and_zh() -> None:
    emb = HashingEmbedder()
    q, near, far = emb.embed(
        ["sms notifications", "send me notification by SMS", "my credit card is blue"]
    )
    assert _cos(q, near) > 0.4 > _cos(q, far)
    zq, znear, zfar = emb.embed(["喜欢喝咖啡", "我每天都喝咖啡", "明天去上海出差"])
    assert _cos(zq, znear) > 0.3 > _cos(zq, zfar)
    # casefold + NFKC: full-width and upper-case forms map to the same features
    a, b = emb.embed(["ＳＭＳ Alerts", "sms alerts"])
    assert _cos(a, b) > 0.999


def test_hashing_rejects_bad_input_and_config() -> None:
    emb = HashingEmbedder()
    with pytest.raises(InvalidInputError):
        emb.embed("a bare string")
    with pytest.raises(InvalidInputError):
        emb.embed(["ok", 3])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError):
        emb.embed(None)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        HashingEmbedder(dimension=4)


# --------------------------------------------------------------------------- callable + cache


class _Counting:
    """A deterministic toy model that records each batch it sees."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        return [[float(len(t)), float(sum(map(ord, t)) % 97), 1.0] for t in texts]


def test_callable_embedder_caches_dedups_batches_and_keeps_order() -> None:
    fn = _Counting()
    emb = CallableEmbedder(fn, dimension=3, name="toy", batch_size=2, cache_size=10)
    assert isinstance(emb, Embedder)
    out = emb.embed(["a", "bb", "a", "ccc", "bb"])
    assert out.shape == (5, 3)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-6)
    assert fn.batches == [["a", "bb"], ["ccc"]]  # unique misses only, in batches of 2
    np.testing.assert_array_equal(out[0], out[2])
    np.testing.assert_array_equal(out[1], out[4])
    again = emb.embed(["ccc", "a", "dddd"])
    assert fn.batches[-1] == ["dddd"]  # only the miss goes to the model
    np.testing.assert_array_equal(again[0], out[3])
    np.testing.assert_array_equal(again[1], out[0])
    assert (emb.model_calls, emb.cache_misses, emb.cache_hits) == (3, 4, 4)


def test_cache_is_bounded_lru() -> None:
    fn = _Counting()
    emb = CallableEmbedder(fn, dimension=3, name="toy", cache_size=2)
    emb.embed(["a"])
    emb.embed(["b"])
    emb.embed(["a"])  # refresh a; b is now least recently used
    emb.embed(["c"])  # evicts b
    calls = len(fn.batches)
    emb.embed(["a", "c"])
    assert len(fn.batches) == calls
    emb.embed(["b"])
    assert fn.batches[-1] == ["b"]
    emb.clear_cache()
    emb.embed(["a"])
    assert fn.batches[-1] == ["a"]


def test_cached_vectors_are_not_mutated_by_callers() -> None:
    emb = CallableEmbedder(_Counting(), dimension=3, name="toy")
    first = emb.embed(["x"])
    first[0, 0] = 123.0
    assert emb.embed(["x"])[0, 0] != 123.0


def test_callable_embedder_rejects_wrong_output() -> None:
    wrong_dim = CallableEmbedder(lambda ts: [[1.0, 2.0]] * len(ts), dimension=3, name="w")
    with pytest.raises(ConfigError, match="shape"):
        wrong_dim.embed(["x"])
    nan = CallableEmbedder(lambda ts: [[float("nan"), 1.0]] * len(ts), dimension=2, name="n")
    with pytest.raises(ConfigError, match="non-finite"):
        nan.embed(["x"])
    assert len(nan._cache) == 0  # nothing bad was cached
    with pytest.raises(ConfigError):
        CallableEmbedder("not callable", dimension=2, name="x")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        CallableEmbedder(lambda ts: ts, dimension=2, name="")
    with pytest.raises(ConfigError):
        wrong_dim.dimension = 5


def test_callable_embedder_is_thread_safe() -> None:
    fn = _Counting()
    emb = CallableEmbedder(fn, dimension=3, name="toy", cache_size=1000)
    texts = [f"text {i % 50}" for i in range(400)]
    results: list[np.ndarray] = []

    def work(chunk: list[str]) -> None:
        results.append(emb.embed(chunk))

    threads = [threading.Thread(target=work, args=(texts[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.shape == (100, 3) for r in results)
    seen = sum(len(b) for b in fn.batches)
    assert 50 <= seen <= 200  # each text encoded once, or at most once per racing thread


# --------------------------------------------------------------------------- default_embedder


def test_default_embedder_env_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USERMEMORY_EMBEDDER", "hashing")
    assert isinstance(default_embedder(), HashingEmbedder)
    monkeypatch.setenv("USERMEMORY_EMBEDDER", "minilm")
    emb = default_embedder()
    assert isinstance(emb, SentenceTransformerEmbedder) and emb.name == MINILM_MODEL
    assert not emb.loaded
    monkeypatch.setenv("USERMEMORY_EMBEDDER", "onnx")
    assert isinstance(default_embedder(), OnnxEmbedder)
    monkeypatch.setenv("USERMEMORY_EMBEDDER", "bogus")
    with pytest.raises(ConfigError):
        default_embedder()
    monkeypatch.delenv("USERMEMORY_EMBEDDER")
    auto = default_embedder()
    # onnxruntime is installed here (the [embeddings] extra brings it): MiniLM via ONNX,
    # sentence-transformers standing by in case the export cannot run
    assert isinstance(auto, OnnxEmbedder)
    assert isinstance(auto.fallback, SentenceTransformerEmbedder)
    assert auto.name == f"onnx:{MINILM_MODEL}"


def test_default_embedder_without_onnx_export_tools_uses_sentence_transformers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("USERMEMORY_EMBEDDER", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # nothing exported yet
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "onnxscript" else real(name, *a),
    )
    assert isinstance(default_embedder(), SentenceTransformerEmbedder)
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "onnxruntime" else real(name, *a),
    )
    assert isinstance(default_embedder(), SentenceTransformerEmbedder)


def test_onnx_embedder_falls_back_when_the_export_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[list[str]] = []

    def fn(texts: list[str]) -> list[list[float]]:
        calls.append(list(texts))
        return [[1.0, float(len(t)), 0.0] for t in texts]

    fallback = CallableEmbedder(fn, dimension=3, name="toy", cache_size=0)
    # an empty local directory is no model: the export fails without any download
    onnx = OnnxEmbedder(tmp_path / "empty", cache_dir=tmp_path / "cache", fallback=fallback)
    (tmp_path / "empty").mkdir()
    with caplog.at_level(logging.WARNING, logger="shared_core.embed"):
        got = onnx.embed(["ab", "abcd"])
        onnx.embed(["xyz"])
    assert onnx.using_fallback and not onnx.exported
    assert got.shape == (2, 3) and onnx.dimension == 3
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, rtol=1e-6)
    assert calls == [["ab", "abcd"], ["xyz"]]
    assert sum("ONNX export" in r.getMessage() for r in caplog.records) == 1
    # without a fallback the same failure is a typed error
    bare = OnnxEmbedder(tmp_path / "empty", cache_dir=tmp_path / "cache2")
    with pytest.raises(ConfigError):
        bare.embed(["x"])
    with pytest.raises(ConfigError, match="fallback must be"):
        OnnxEmbedder(cache_dir=tmp_path / "c3", fallback=HashingEmbedder())  # type: ignore[arg-type]


def test_default_embedder_falls_back_with_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("USERMEMORY_EMBEDDER", raising=False)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: (
            None if name in ("sentence_transformers", "onnxruntime") else real(name, *a)
        ),
    )
    monkeypatch.setattr(embed_select, "_warned_fallback", False)
    with caplog.at_level(logging.WARNING, logger="shared_core.embed"):
        assert isinstance(default_embedder(), HashingEmbedder)
        assert isinstance(default_embedder(), HashingEmbedder)
    assert sum("HashingEmbedder" in r.getMessage() for r in caplog.records) == 1
    monkeypatch.setenv("USERMEMORY_EMBEDDER", "minilm")
    with pytest.raises(MissingDependencyError):
        default_embedder()


@pytest.mark.embeddings
def test_unloadable_model_is_a_config_error(tmp_path: Path) -> None:
    emb = SentenceTransformerEmbedder(tmp_path)  # an empty local directory: no download
    assert emb.name == str(tmp_path)
    with pytest.raises(ConfigError, match="cannot load embedding model"):
        emb.embed(["x"])
    onnx = OnnxEmbedder(tmp_path, cache_dir=tmp_path / "cache")
    with pytest.raises(ConfigError):
        onnx.embed(["x"])
    assert not onnx.exported and not any((tmp_path / "cache").glob(".export-*"))


def test_sentence_transformer_config_validation() -> None:
    with pytest.raises(ConfigError):
        SentenceTransformerEmbedder(threads=0)
    with pytest.raises(ConfigError):
        SentenceTransformerEmbedder(batch_size=0)
    with pytest.raises(ConfigError):
        SentenceTransformerEmbedder(cache_size=-1)


# --------------------------------------------------------------------------- real MiniLM


@pytest.fixture(scope="module")
def minilm() -> Iterator[SentenceTransformerEmbedder]:
    import torch

    before = torch.get_num_threads()
    emb = SentenceTransformerEmbedder(threads=1)
    emb.embed(["warm up"])
    assert torch.get_num_threads() == 1
    yield emb
    torch.set_num_threads(before)


@pytest.mark.embeddings
def test_minilm_semantic_sanity(minilm: SentenceTransformerEmbedder) -> None:
    q, sms, card = minilm.embed(["text me", "SMS notifications", "credit card"])
    assert q.shape == (MINILM_DIMENSION,)
    assert float(q @ sms) > float(q @ card)
    zq, zcoffee, ztrip = minilm.embed(["I love drinking coffee", "espresso and latte", "a trip"])
    assert float(zq @ zcoffee) > float(zq @ ztrip)


@pytest.mark.embeddings
def test_minilm_batch_equals_single_and_order(minilm: SentenceTransformerEmbedder) -> None:
    minilm.clear_cache()
    texts = ["short", "a much longer sentence about vegetarian food", "我喜欢喝咖啡"]
    batch = minilm.embed(texts)
    assert batch.dtype == np.float32 and batch.shape == (3, MINILM_DIMENSION)
    np.testing.assert_allclose(np.linalg.norm(batch, axis=1), 1.0, rtol=1e-5)
    minilm.clear_cache()
    singles = np.stack([minilm.embed([t])[0] for t in texts])
    np.testing.assert_allclose(batch, singles, atol=1e-5)
    reversed_ = minilm.embed(texts[::-1])
    np.testing.assert_array_equal(reversed_[::-1], minilm.embed(texts))


@pytest.mark.embeddings
def test_minilm_cache_hits_skip_the_model(minilm: SentenceTransformerEmbedder) -> None:
    minilm.clear_cache()
    calls = minilm.model_calls
    first = minilm.embed(["prefers SMS", "prefers email", "prefers SMS"])
    assert minilm.model_calls == calls + 1
    second = minilm.embed(["prefers email", "prefers SMS"])
    assert minilm.model_calls == calls + 1
    np.testing.assert_array_equal(second[1], first[0])


@pytest.mark.embeddings
def test_minilm_edge_inputs(minilm: SentenceTransformerEmbedder) -> None:
    assert minilm.embed([]).shape == (0, MINILM_DIMENSION)
    with pytest.raises(InvalidInputError):
        minilm.embed([b"bytes"])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError):
        minilm.embed("text me")
    out = minilm.embed(["", "word " * 2000])  # empty and over-length texts still embed
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-5)


@pytest.mark.embeddings
@pytest.mark.slow  # exports the model to ONNX from scratch (~15 s)
def test_onnx_matches_sentence_transformers(
    minilm: SentenceTransformerEmbedder, tmp_path_factory: pytest.TempPathFactory
) -> None:
    cache_dir = tmp_path_factory.mktemp("onnx")
    onnx = OnnxEmbedder(cache_dir=cache_dir, threads=1)
    assert onnx.dimension == MINILM_DIMENSION and not onnx.exported
    texts = [
        "text me",
        "SMS notifications",
        "我喜欢喝咖啡，不喜欢茶",
        "long " * 400,
        "",
    ]
    got = onnx.embed(texts)
    minilm.clear_cache()
    want = minilm.embed(texts)
    cos = (got * want).sum(axis=1)
    assert cos.min() > 0.9999, cos
    assert onnx.exported and (onnx.model_dir / "tokenizer.json").is_file()
    # a second instance reuses the export and needs no torch work
    again = OnnxEmbedder(cache_dir=cache_dir, threads=1)
    assert again.exported
    np.testing.assert_allclose(again.embed(texts[:2]), got[:2], atol=1e-6)
    # mixed lengths go to the model in length groups; each row equals its text alone
    single = np.vstack([OnnxEmbedder(cache_dir=cache_dir, cache_size=0).embed([t]) for t in texts])
    np.testing.assert_allclose(single, got, atol=1e-5)


def test_length_groups_pad_little_and_cover_every_text() -> None:
    # a 40-token turn and three 6-8-token memories: the memories share a call, the turn
    # gets its own (padding them to 40 would cost 3 x ~33 tokens, more than one call)
    groups = length_groups([40, 6, 8, 7])
    assert groups == [[1, 3, 2], [0]]
    # equal lengths always share a call
    assert length_groups([12, 12, 12]) == [[0, 1, 2]]
    # without a call overhead only equal widths are grouped
    assert length_groups([5, 6, 5], overhead=0) == [[0, 2], [1]]
    # a long group stops growing once the padding of all its rows outweighs a call
    lengths = [10, 11, 12, 13, 14]
    groups = length_groups(lengths, overhead=2)
    assert sorted(i for g in groups for i in g) == list(range(5))
    assert groups == [[0, 1, 2], [3, 4]]
    assert length_groups([]) == []
