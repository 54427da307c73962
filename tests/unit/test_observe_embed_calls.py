"""One observed turn, one embedder call (shared_core/_write.py, ingest/classify.py).

With a MiniLM-class embedder the statement classifier embeds a turn's rule notes and
unread sentences before the commit embeds the episode and the records. Both now go in
one call (``classify.classify_turn(..., also=...)``); the stored records and vectors are
those of the former sequence (classifier call, then index call).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from shared_core import MemoryConfig, UserMemory
from shared_core.embed import CachingEmbedder, CallableEmbedder, OnnxEmbedder
from shared_core.entities import Candidate
from shared_core.ingest import classify

AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

#: Single-sentence user turns on which the classifier embeds something and stores nothing
#: new: a rule note it cannot map, a sentence no rule read, both beside a rule hit.
CLASSIFIER_TURNS = [
    "I have a fear of heights",
    "I don't own a car",
    "I'm from Germany but I live in Vienna",
    "Aisle seat always, I have long legs",
    "I work nights, so I sleep during the day",
]
#: Single-sentence turns the rules read whole (the classifier embeds nothing).
RULE_TURNS = ["Best way to reach me is Telegram.", "I'm allergic to penicillin"]


def _random_vectors(texts: list[str]) -> np.ndarray:
    """A vector per text, fixed by the text and near-orthogonal to every other one."""
    return np.stack(
        [
            np.random.default_rng(int.from_bytes(hashlib.sha256(t.encode()).digest()[:8])).normal(
                size=64
            )
            for t in texts
        ]
    )


@pytest.fixture(scope="module")
def fake_minilm() -> CallableEmbedder:
    """MiniLM-class by name (the classifier runs), never close to a prototype."""
    emb = CallableEmbedder(_random_vectors, dimension=64, name="test-minilm-random")
    classify.PrototypeClassifier(emb).predict("warm up")  # prototypes: once per process
    return emb


@pytest.fixture(scope="module")
def minilm() -> Iterator[OnnxEmbedder]:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tokenizers")
    emb = OnnxEmbedder(threads=1)  # exported once into the user cache dir
    classify.PrototypeClassifier(emb).predict("warm up")
    yield emb


def _calls_per_turn(embedder: CachingEmbedder, turns: Sequence[str], **config: Any) -> list[int]:
    embedder.clear_cache()
    out: list[int] = []
    cfg = MemoryConfig(**config) if config else None
    with UserMemory("sqlite:///:memory:", embedder=embedder, config=cfg) as mem:
        for n, text in enumerate(turns):
            before = embedder.model_calls
            mem.observe(f"u{n}", text, session_id="s", turn_id=f"t{n}", at=AT)
            out.append(embedder.model_calls - before)
    return out


def test_a_turn_the_classifier_reads_costs_one_embedder_call(
    fake_minilm: CallableEmbedder,
) -> None:
    calls = _calls_per_turn(fake_minilm, [*CLASSIFIER_TURNS, *RULE_TURNS])
    assert calls == [1] * len(calls)


@pytest.mark.parametrize("pii_mode", ["mask_episodes", "mask_all"])
def test_one_call_also_with_redacted_episodes_and_records(
    fake_minilm: CallableEmbedder, pii_mode: str
) -> None:
    turns = ["I don't own a car, write to me at kim.lee@example.org"]
    assert _calls_per_turn(fake_minilm, turns, pii_mode=pii_mode) == [1]


def test_without_a_cache_the_commit_texts_are_not_embedded_ahead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cache-less embedder could not serve the commit what the classifier's call
    embedded: the classifier's call then holds only its own sentences, each once (the
    former sequence embedded a note whose words are its sentence twice)."""
    texts: list[str] = []

    def fn(batch: list[str]) -> np.ndarray:
        texts.extend(batch)
        return _random_vectors(batch)

    emb = CallableEmbedder(fn, dimension=64, name="test-minilm-nocache", cache_size=0)
    classify.PrototypeClassifier(emb).predict("warm up")

    def encoded() -> list[str]:
        texts.clear()
        with UserMemory("sqlite:///:memory:", embedder=emb) as mem:
            mem.observe("u", "I don't own a car", session_id="s", turn_id="t", at=AT)
        return sorted(texts)

    now = encoded()
    with monkeypatch.context() as m:
        m.setattr(classify, "classify_turn", _sequential)
        assert Counter(now) < Counter(encoded())


@pytest.mark.embeddings
@pytest.mark.parametrize("text", [*CLASSIFIER_TURNS, *RULE_TURNS])
def test_one_onnx_call_per_single_sentence_turn(minilm: OnnxEmbedder, text: str) -> None:
    assert _calls_per_turn(minilm, [text]) == [1]


@pytest.mark.embeddings
def test_a_classified_memory_adds_only_its_key_value_text(
    minilm: OnnxEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The classified memory's key-value text exists only once the turn is classified:
    its one text is a second call, everything else went into the first."""
    minilm.clear_cache()
    batches: list[list[str]] = []
    encode = minilm._encode

    def spy(batch: list[str]) -> Any:
        batches.append(list(batch))
        return encode(batch)

    text = "Google Pay is how I settle everything these days."
    monkeypatch.setattr(minilm, "_encode", spy)
    with UserMemory("sqlite:///:memory:", embedder=minilm) as mem:
        changes = mem.observe("u", text, session_id="s", turn_id="t", at=AT)
    assert any(c.key == "payment.method.google_pay" for c in changes)
    assert len(batches) == 2
    assert text in batches[0]
    assert len(batches[1]) == 1 and "google" in batches[1][0].lower()


# ------------------------------------------------------------------ same records, vectors
def _sequential(
    text: str, cands: Sequence[Candidate], clf: classify.PrototypeClassifier, **_: Any
) -> list[Candidate]:
    """The former classifier step: its own embedder calls, sentence by sentence."""
    out = classify.reclassify(cands, clf)
    return out + classify.classify_unread(text, out, clf)


TURNS = [
    *CLASSIFIER_TURNS,
    *RULE_TURNS,
    "Tables make comparisons so much easier for my brain to follow.",
    "Google Pay is how I settle everything these days.",
    "honestly just whatsapp me, i dont do emails",
    "my email's j.ortiz88@gmail.com btw",
    "Pork, I don't eat. I also can't sleep in twin beds. My dog is called Rex.",
    "有事微信找我就行",
    "Do tables make comparisons easier to follow?",
]


def _stored(
    embedder: CachingEmbedder, **config: Any
) -> tuple[list[tuple[Any, ...]], dict[tuple[str, str, str], np.ndarray]]:
    embedder.clear_cache()
    vectors: dict[tuple[str, str, str], np.ndarray] = {}
    cfg = MemoryConfig(**config) if config else None
    with UserMemory("sqlite:///:memory:", embedder=embedder, config=cfg) as mem:
        upsert = mem.vectors.upsert

        def keep(items: Any) -> None:
            for it in items:
                vectors[(it.user_id, it.kind.value, it.key)] = np.array(it.vector)
            upsert(items)

        mem.vectors.upsert = keep  # type: ignore[method-assign]
        users = ["a", "b"]
        for n, text in enumerate(TURNS):  # one user turn by turn, one all along
            for user in (users[0], f"{users[1]}{n}"):
                mem.observe(user, text, session_id="s", turn_id=f"t{n}", at=AT)
        records = [
            (
                user,
                r["kind"],
                r["key"],
                r["value"],
                r["normalized"],
                r["status"],
                r["confidence"],
                r["provenance"].get("actor"),
                r["provenance"].get("span"),
            )
            for user in [users[0], *(f"{users[1]}{n}" for n in range(len(TURNS)))]
            for r in mem.export(user)["records"]
        ]
    return sorted(records, key=repr), vectors


@pytest.mark.embeddings
@pytest.mark.parametrize("pii_mode", ["off", "mask_all"])
def test_the_records_and_vectors_are_those_of_the_former_sequence(
    minilm: OnnxEmbedder, monkeypatch: pytest.MonkeyPatch, pii_mode: str
) -> None:
    records, vectors = _stored(minilm, pii_mode=pii_mode)
    assert any(r[7] == "extractor:classifier" for r in records)  # the classifier stored some
    with monkeypatch.context() as m:
        m.setattr(classify, "classify_turn", _sequential)
        old_records, old_vectors = _stored(minilm, pii_mode=pii_mode)
    assert records == old_records
    assert vectors.keys() == old_vectors.keys()
    for key, vec in vectors.items():
        np.testing.assert_allclose(vec, old_vectors[key], atol=1e-6, err_msg=str(key))
