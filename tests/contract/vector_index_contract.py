"""Behaviour every :class:`~shared_core.storage.protocols.VectorIndex` must have.

Subclass :class:`VectorIndexContract` in a ``Test*`` class and provide an ``index`` fixture
yielding a fresh index (any dimension; the tests use :data:`DIM`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from shared_core.entities import Kind, new_id
from shared_core.errors import InvalidInputError
from shared_core.storage.protocols import VectorIndex, VectorItem

DIM = 8


def uid(prefix: str = "u") -> str:
    return f"{prefix}-{new_id()[:12]}"


def vec(*values: float) -> npt.NDArray[np.float32]:
    """A DIM-long vector starting with ``values`` (zero padded)."""
    out = np.zeros(DIM, dtype=np.float32)
    out[: len(values)] = values
    return out


def item(
    user_id: str,
    record_id: str,
    v: npt.NDArray[np.float32],
    *,
    ctx: str = "default",
    kind: Kind = Kind.PREFERENCE,
    key: str = "k",
) -> VectorItem:
    return VectorItem(
        record_id=record_id, user_id=user_id, system_context=ctx, kind=kind, key=key, vector=v
    )


class VectorIndexContract:
    """The VectorIndex contract; subclasses provide the ``index`` fixture."""

    def test_is_a_vector_index(self, index: VectorIndex) -> None:
        assert isinstance(index, VectorIndex)

    def test_search_orders_by_cosine_similarity(self, index: VectorIndex) -> None:
        u = uid()
        index.upsert(
            [
                item(u, "east", vec(1, 0)),
                item(u, "north", vec(0, 1)),
                item(u, "northeast", vec(1, 1)),
                item(u, "west", vec(-1, 0)),
            ]
        )
        hits = index.search(u, "default", vec(1, 0.1), k=3)
        assert [h.record_id for h in hits] == ["east", "northeast", "north"]
        assert hits[0].similarity == pytest.approx(1 / np.sqrt(1.01), abs=1e-5)
        assert all(-1.0 - 1e-6 <= h.similarity <= 1.0 + 1e-6 for h in hits)
        full = index.search(u, "default", vec(1, 0), k=10)
        assert [h.record_id for h in full][-1] == "west"
        assert full[-1].similarity == pytest.approx(-1.0, abs=1e-5)

    def test_vectors_are_normalised(self, index: VectorIndex) -> None:
        u = uid()
        index.upsert([item(u, "big", vec(250, 0, 0)), item(u, "tiny", vec(0, 0.001))])
        hits = index.search(u, "default", vec(3, 0, 0), k=1)
        assert hits[0].record_id == "big"
        assert hits[0].similarity == pytest.approx(1.0, abs=1e-5)
        assert index.search(u, "default", vec(0, 7), k=1)[0].similarity == pytest.approx(
            1.0, abs=1e-5
        )

    def test_search_is_scoped_to_user_and_context(self, index: VectorIndex) -> None:
        a, b = uid(), uid()
        index.upsert(
            [
                item(a, "a1", vec(1, 0)),
                item(a, "a-work", vec(1, 0), ctx="work"),
                item(b, "b1", vec(1, 0)),
            ]
        )
        assert [h.record_id for h in index.search(a, "default", vec(1, 0), k=10)] == ["a1"]
        assert [h.record_id for h in index.search(a, "work", vec(1, 0), k=10)] == ["a-work"]
        assert [h.record_id for h in index.search(b, "default", vec(1, 0), k=10)] == ["b1"]
        assert index.search(uid(), "default", vec(1, 0), k=10) == []
        assert index.search(b, "work", vec(1, 0), k=10) == []

    def test_kinds_filter(self, index: VectorIndex) -> None:
        u = uid()
        index.upsert(
            [
                item(u, "p", vec(1, 0), kind=Kind.PREFERENCE),
                item(u, "f", vec(1, 0.1), kind=Kind.FACT),
                item(u, "e", vec(1, 0.2), kind=Kind.EPISODE),
            ]
        )
        got = index.search(u, "default", vec(1, 0), k=5, kinds=(Kind.FACT, Kind.EPISODE))
        assert [h.record_id for h in got] == ["f", "e"]
        assert index.search(u, "default", vec(1, 0), k=5, kinds=(Kind.CONSTRAINT,)) == []

    def test_k_bounds(self, index: VectorIndex) -> None:
        u = uid()
        index.upsert([item(u, f"r{i}", vec(1, i)) for i in range(5)])
        assert len(index.search(u, "default", vec(1, 0), k=2)) == 2
        assert len(index.search(u, "default", vec(1, 0), k=50)) == 5
        assert index.search(u, "default", vec(1, 0), k=0) == []

    def test_upsert_replaces_by_record_id(self, index: VectorIndex) -> None:
        u = uid()
        index.upsert([item(u, "r", vec(1, 0)), item(u, "s", vec(0.9, 0.5))])
        assert index.search(u, "default", vec(1, 0), k=1)[0].record_id == "r"
        index.upsert([item(u, "r", vec(0, 1))])
        assert index.search(u, "default", vec(1, 0), k=1)[0].record_id == "s"
        assert index.ids_for_user(u) == {"r", "s"}

    def test_delete_and_delete_user(self, index: VectorIndex) -> None:
        a, b = uid(), uid()
        index.upsert([item(a, "a1", vec(1)), item(a, "a2", vec(0, 1)), item(b, "b1", vec(1))])
        assert index.delete(["a1", "missing"]) == 1
        assert index.ids_for_user(a) == {"a2"}
        assert [h.record_id for h in index.search(a, "default", vec(1, 0), k=5)] == ["a2"]
        assert index.delete([]) == 0
        assert index.delete_user(a) == 1
        assert index.ids_for_user(a) == set()
        assert index.search(a, "default", vec(1), k=5) == []
        assert index.ids_for_user(b) == {"b1"}
        assert index.delete_user(a) == 0

    def test_bad_vectors_are_invalid_input(self, index: VectorIndex) -> None:
        u = uid()
        index.upsert([item(u, "ok", vec(1))])
        assert index.dimension == DIM
        for bad in (
            np.zeros(DIM, dtype=np.float32),
            np.ones(DIM + 1, dtype=np.float32),
            np.full(DIM, np.nan, dtype=np.float32),
            np.ones((2, DIM), dtype=np.float32),
        ):
            with pytest.raises(InvalidInputError):
                index.upsert([item(u, "ok", vec(0, 1)), item(u, "bad", bad)])
        assert index.ids_for_user(u) == {"ok"}
        with pytest.raises(InvalidInputError):
            index.search(u, "default", np.ones(DIM + 2, dtype=np.float32), k=1)

    def test_hostile_user_ids(self, index: VectorIndex) -> None:
        suffix = new_id()[:6]
        # ids pass shared_core.ids.check_id at every entry point (no NUL or line breaks)
        users = [f"o'r\"%_\\ 🧠{i}{suffix}" for i in range(3)]
        for i, u in enumerate(users):
            index.upsert([item(u, f"rec-{i}-{suffix}", vec(1, i))])
        for i, u in enumerate(users):
            assert index.ids_for_user(u) == {f"rec-{i}-{suffix}"}
            assert [h.record_id for h in index.search(u, "default", vec(1), k=5)] == [
                f"rec-{i}-{suffix}"
            ]
