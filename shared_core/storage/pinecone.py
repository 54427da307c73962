"""Pinecone as the :class:`~shared_core.storage.protocols.VectorIndex` (``[pinecone]`` extra).

Selected by URL::

    pinecone://INDEX?namespace=NS&cloud=aws&region=us-east-1&dimension=384

Query parameters (all optional):

- ``namespace``: the Pinecone namespace every call uses (default: the index's default
  namespace ``""``). Use one namespace per deployment or per tenant shard; every search
  is additionally filtered by user id and system context, so users never share results.
- ``host``: the control-plane host (default ``https://api.pinecone.io``); e.g. a local
  emulator at ``http://127.0.0.1:PORT``.
- ``index_host``: the index's data-plane host; skips the describe call and index creation.
- ``cloud``/``region``: where a missing serverless index is created (``aws``/``us-east-1``).
- ``dimension``: vector width; a missing index is created with it (metric cosine). Without
  it the index is created on the first upsert with the width of the first vector.
- ``create``: ``false`` to never create the index (default ``true``).
- ``timeout``: seconds per HTTP attempt (default 30).
- ``api_key``: accepted, but prefer the ``PINECONE_API_KEY`` environment variable or the
  ``api_key=`` argument so the key stays out of URLs and logs.

What is stored: one vector per memory record, with id ``<user_hash>#<record_id>``
(``user_hash`` = the first 32 hex digits of SHA-256 of the user id) and metadata
``user_id``, ``system_context``, ``kind``, ``key`` and ``record_id`` only, never the value
or any conversation text. Searches filter ``{"user_id": {"$eq": u}, "system_context":
{"$eq": c}}`` (plus ``kind`` ``$in`` when kinds are given). Upserts go in requests of at
most 100 vectors and ~2 MB.

Erasure (:meth:`PineconeVectorIndex.delete_user`) lists the user's vector ids by the
``<user_hash>#`` prefix (``list`` works on serverless indexes), deletes them by id, then
sweeps with a delete by metadata filter ``{"user_id": {"$eq": u}}``; indexes that refuse
delete-by-filter (older serverless projects answer 400) rely on the prefix listing alone,
which is why vector ids carry the user hash. Pinecone is eventually consistent: a vector
written a moment ago may be missing from ``list``/``query`` for a short while.
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import numpy as np

from ..clock import Clock
from ..config import MemoryConfig
from ..entities import Kind
from ..errors import (
    BackendError,
    ConfigError,
    InvalidIdError,
    InvalidInputError,
    map_backend_errors,
)
from ..ids import check_id
from .pinecone_wire import (
    _ID_SEP,
    _INDEX_NAME_RE,
    _MAX_VECTOR_ID,
    DENSE_FIELD,
    LIST_PAGE,
    LOOKUP_CHUNK,
    MAX_BATCH_BYTES,
    MAX_BATCH_VECTORS,
    MAX_DELETE_IDS,
    MAX_TOP_K,
    _errors,
    _import_pinecone,
    _kind,
    _record_id,
    _vector_id,
    parse_pinecone_url,
    user_hash,
)
from .protocols import Vector, VectorHit, VectorItem

if TYPE_CHECKING:
    from pinecone import Index, Pinecone

__all__ = ["PineconeVectorIndex", "open_pinecone", "parse_pinecone_url", "user_hash"]

logger = logging.getLogger(__name__)


#: HTTP clients inherited across ``os.fork()``: never used or closed by the child.
_INHERITED: list[Any] = []


class PineconeVectorIndex:
    """A :class:`~shared_core.storage.protocols.VectorIndex` on a Pinecone serverless index.

    Args:
        index_name: the Pinecone index (created if missing and ``create_if_missing``).
        api_key: API key; defaults to ``PINECONE_API_KEY``.
        namespace: namespace for every call ("" = the default namespace).
        host: control-plane host (default: Pinecone's public API).
        index_host: data-plane host of the index; skips describe/create.
        cloud: cloud of a newly created serverless index.
        region: region of a newly created serverless index.
        dimension: vector width; ``None`` = read it from the index, or create the index
            on the first upsert with the width of the first vector.
        metric: only ``"cosine"`` is supported (searches return cosine similarity).
        create_if_missing: create the serverless index when it does not exist.
        timeout: seconds per HTTP attempt.
        create_timeout: seconds to wait for a new index to become ready.
        batch_max_vectors: most vectors per upsert request (at most 1000).
        batch_max_bytes: most estimated JSON bytes per upsert request.

    Raises:
        ConfigError: missing API key, bad settings, or an existing index that does not
            match (other dimension or metric, not a vector index).
        MissingDependencyError: the ``pinecone`` package is not installed.
        BackendUnavailableError: Pinecone cannot be reached.
    """

    dimension: int | None

    def __init__(
        self,
        index_name: str,
        *,
        api_key: str | None = None,
        namespace: str = "",
        host: str | None = None,
        index_host: str | None = None,
        cloud: str = "aws",
        region: str = "us-east-1",
        dimension: int | None = None,
        metric: str = "cosine",
        create_if_missing: bool = True,
        timeout: float = 30.0,
        create_timeout: int = 300,
        batch_max_vectors: int = MAX_BATCH_VECTORS,
        batch_max_bytes: int = MAX_BATCH_BYTES,
    ) -> None:
        if not _INDEX_NAME_RE.match(index_name or ""):
            raise ConfigError(f"bad Pinecone index name {index_name!r}")
        if metric != "cosine":
            raise ConfigError(f"only the cosine metric is supported, got {metric!r}")
        if dimension is not None and (isinstance(dimension, bool) or dimension < 1):
            raise ConfigError(f"dimension must be a positive integer, got {dimension!r}")
        if not 1 <= batch_max_vectors <= 1000:
            raise ConfigError("batch_max_vectors must be between 1 and 1000")
        if batch_max_bytes < 10_000:
            raise ConfigError("batch_max_bytes must be at least 10000")
        if not isinstance(namespace, str):
            raise ConfigError("namespace must be a string")
        key = api_key or os.environ.get("PINECONE_API_KEY", "")
        if not key:
            raise ConfigError(
                "no Pinecone API key: pass api_key=... or set PINECONE_API_KEY "
                "(an emulator needs one too)"
            )
        sdk = _import_pinecone()
        self._unavailable, self._failed = _errors()
        self.index_name = index_name
        self.namespace = namespace
        self.dimension = dimension
        self._cloud, self._region = cloud, region
        self._create_if_missing = create_if_missing
        self._create_timeout = create_timeout
        self._batch_max_vectors = batch_max_vectors
        self._batch_max_bytes = batch_max_bytes
        self._filter_delete_supported = True
        self._index: Index | None = None
        self._index_host = ""
        self._create_lock = threading.Lock()
        self._closed = False
        self._client_args: dict[str, Any] = {
            "api_key": key,
            "host": host or None,
            "timeout": timeout,
        }
        with self._errors():
            self._pc: Pinecone = sdk.Pinecone(**self._client_args)
        try:
            with self._errors():
                if index_host:
                    self._index_host = index_host
                    self._index = self._pc.index(host=index_host)
                    if self.dimension is None:
                        self.dimension = self._index.describe_index_stats().dimension
                else:
                    self._connect()
        except BaseException:
            self.close()  # do not leak the HTTP pools of a half-built instance
            raise

    @classmethod
    def from_url(cls, url: str, *, api_key: str | None = None) -> PineconeVectorIndex:
        """Open the index a ``pinecone://`` URL names (see :func:`parse_pinecone_url`).

        Args:
            url: ``pinecone://INDEX?namespace=...&dimension=...``.
            api_key: overrides the URL's ``api_key`` and ``PINECONE_API_KEY``.

        Returns:
            The connected index.
        """
        kwargs = parse_pinecone_url(url)
        if api_key:
            kwargs["api_key"] = api_key
        return cls(**kwargs)

    # ------------------------------------------------------------------ setup

    def _errors(self) -> AbstractContextManager[None]:
        return map_backend_errors("pinecone", unavailable=self._unavailable, failed=self._failed)

    def _connect(self) -> None:
        """Describe the index (creating it if allowed and possible) and open the data plane."""
        from pinecone.errors.exceptions import ConflictError, NotFoundError

        try:
            model = self._pc.indexes.describe(self.index_name)
        except NotFoundError:
            if not self._create_if_missing:
                raise ConfigError(
                    f"Pinecone index {self.index_name!r} does not exist (create=false)"
                ) from None
            if self.dimension is None:
                logger.info(
                    "Pinecone index %r is missing; it will be created on the first upsert",
                    self.index_name,
                )
                return
            try:
                model = self._create(self.dimension)
            except ConflictError:  # created concurrently by another process
                model = self._pc.indexes.describe(self.index_name)
        self._adopt(model)

    def _create(self, dimension: int) -> Any:
        logger.info(
            "creating Pinecone serverless index %r (dimension %d, cosine, %s/%s)",
            self.index_name,
            dimension,
            self._cloud,
            self._region,
        )
        return self._pc.indexes.create(
            name=self.index_name,
            schema={
                "fields": {
                    DENSE_FIELD: {
                        "type": "dense_vector",
                        "dimension": dimension,
                        "metric": "cosine",
                    }
                }
            },
            deployment={"deployment_type": "managed", "cloud": self._cloud, "region": self._region},
            timeout=self._create_timeout,
        )

    def _adopt(self, model: Any) -> None:
        """Check an existing index fits, then open its data plane."""
        field = model.schema.fields.get(DENSE_FIELD)
        dim = getattr(field, "dimension", None)
        metric = getattr(field, "metric", None)
        if not isinstance(dim, int) or metric is None:
            raise ConfigError(
                f"Pinecone index {self.index_name!r} is not a dense vector index "
                f"(schema fields: {sorted(model.schema.fields)})"
            )
        if str(metric).lower() != "cosine":
            raise ConfigError(
                f"Pinecone index {self.index_name!r} uses metric {metric!r}; cosine is required"
            )
        if self.dimension is not None and self.dimension != dim:
            raise ConfigError(
                f"Pinecone index {self.index_name!r} has dimension {dim}, not {self.dimension}"
            )
        self.dimension = dim
        if not model.host:
            raise BackendError(f"Pinecone index {self.index_name!r} has no host yet")
        self._index_host = model.host
        self._index = self._pc.index(host=model.host)

    def _ensure_index(self, dimension: int) -> Index:
        with self._create_lock:  # one lazy creation per instance, even across threads
            if self._index is None:
                from pinecone.errors.exceptions import ConflictError

                try:
                    model = self._create(dimension)
                except ConflictError:  # another process created it first
                    model = self._pc.indexes.describe(self.index_name)
                self._adopt(model)
            assert self._index is not None
            return self._index

    def after_fork(self) -> None:
        """In a forked child: HTTP clients of this process (no request is made here).

        The SDK's HTTP pools keep connections alive, and after a fork those sockets are
        shared with the parent: two processes reading one socket get each other's
        answers. The inherited clients are kept, never used or closed (closing them
        would shut sockets the parent still uses)."""
        self._create_lock = threading.Lock()
        if self._closed:
            return
        _INHERITED.append((self._pc, self._index))
        sdk = _import_pinecone()
        with self._errors():
            self._pc = sdk.Pinecone(**self._client_args)
            self._index = self._pc.index(host=self._index_host) if self._index_host else None

    def _check_open(self) -> None:
        if self._closed:
            raise BackendError("the Pinecone vector index is closed")

    # ------------------------------------------------------------------ validation

    def _as_values(self, vector: object, what: str, dimension: int | None = None) -> list[float]:
        dimension = dimension if dimension is not None else self.dimension
        try:
            arr = np.asarray(vector, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(f"{what} is not a numeric vector") from exc
        if arr.ndim != 1 or arr.size == 0:
            raise InvalidInputError(f"{what} must be a non-empty 1-D vector")
        if dimension is not None and arr.size != dimension:
            raise InvalidInputError(
                f"{what} has dimension {arr.size}; the index has dimension {dimension}"
            )
        if not np.all(np.isfinite(arr)):
            raise InvalidInputError(f"{what} contains NaN or infinity")
        if not np.any(arr):
            raise InvalidInputError(f"{what} is all zeros (no cosine similarity)")
        values: list[float] = arr.tolist()
        return values

    def _prepare(self, item: VectorItem, dimension: int) -> dict[str, Any]:
        if not isinstance(item, VectorItem):
            raise InvalidInputError(f"expected a VectorItem, got {type(item).__name__}")
        user_id = check_id(item.user_id, "user_id")
        record_id = check_id(item.record_id, "record_id")
        if not record_id.isascii() or _ID_SEP in record_id or "\x00" in record_id:
            raise InvalidIdError(f"record_id must be ASCII without '#': {record_id!r}")
        vid = _vector_id(user_id, record_id)
        if len(vid) > _MAX_VECTOR_ID:
            raise InvalidIdError(f"record_id is too long ({len(record_id)} characters)")
        context = check_id(item.system_context, "system_context")
        if not isinstance(item.key, str):
            raise InvalidInputError("key must be a string")
        return {
            "id": vid,
            "values": self._as_values(item.vector, f"vector of record {record_id}", dimension),
            "metadata": {
                "user_id": user_id,
                "system_context": context,
                "kind": _kind(item.kind),
                "key": item.key,
                "record_id": record_id,
            },
        }

    def _batches(self, vectors: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
        """Split into requests of at most ``batch_max_vectors`` and ~``batch_max_bytes``."""
        batch: list[dict[str, Any]] = []
        size = 0
        for v in vectors:
            # JSON size of one vector: ids/metadata exactly, floats at their repr length.
            est = len(json.dumps({"id": v["id"], "metadata": v["metadata"]})) + sum(
                len(repr(x)) + 2 for x in v["values"]
            )
            if batch and (
                len(batch) >= self._batch_max_vectors or size + est > self._batch_max_bytes
            ):
                yield batch
                batch, size = [], 0
            batch.append(v)
            size += est
        if batch:
            yield batch

    # ------------------------------------------------------------------ VectorIndex

    def upsert(self, items: Sequence[VectorItem]) -> None:
        """Index (or re-index) vectors; every item is validated before anything is sent.

        Args:
            items: vectors with their user, context, kind, key and record id.

        Raises:
            InvalidInputError: a bad id, a vector of the wrong dimension, NaN or all zeros.
            BackendError: Pinecone refused a request (earlier batches stay written;
                upserts are idempotent, so retrying the call is safe).
        """
        self._check_open()
        items = list(items)
        if not items:
            return
        dim = self.dimension
        if dim is None:  # no index yet: the first vector decides its width
            dim = len(self._as_values(getattr(items[0], "vector", None), "first vector"))
        by_id: dict[str, dict[str, Any]] = {}
        for item in items:
            prepared = self._prepare(item, dim)
            by_id[prepared["id"]] = prepared  # last one wins, like Pinecone
        with self._errors():
            index = self._ensure_index(dim)
            for batch in self._batches(list(by_id.values())):
                index.upsert(vectors=batch, namespace=self.namespace)
        logger.debug("upserted %d vectors into Pinecone %r", len(by_id), self.index_name)

    def search(
        self,
        user_id: str,
        system_context: str,
        vector: Vector,
        *,
        k: int,
        kinds: tuple[Kind, ...] | None = None,
    ) -> list[VectorHit]:
        """Top ``k`` of this user's vectors in this context by cosine similarity.

        Args:
            user_id: whose vectors to search.
            system_context: the context (agent/app) to search in.
            vector: the query embedding.
            k: how many hits at most (capped at 10000).
            kinds: restrict to these kinds (``None`` = any; empty = none).

        Returns:
            Hits, most similar first.
        """
        self._check_open()
        check_id(user_id, "user_id")
        check_id(system_context, "system_context")
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise InvalidInputError(f"k must be a non-negative integer, got {k!r}")
        values = self._as_values(vector, "query vector")
        if k == 0 or self._index is None or (kinds is not None and not kinds):
            return []
        flt: dict[str, Any] = {
            "user_id": {"$eq": user_id},
            "system_context": {"$eq": system_context},
        }
        if kinds is not None:
            flt["kind"] = {"$in": sorted({_kind(x) for x in kinds})}
        with self._errors():
            res = self._index.query(
                vector=values,
                top_k=min(k, MAX_TOP_K),
                namespace=self.namespace,
                filter=flt,
                include_values=False,
                include_metadata=False,
            )
        return [
            VectorHit(record_id=_record_id(m.id), similarity=max(-1.0, min(1.0, float(m.score))))
            for m in res.matches
            if math.isfinite(m.score)
        ]

    def _delete_vector_ids(self, vector_ids: Sequence[str]) -> None:
        assert self._index is not None
        for start in range(0, len(vector_ids), MAX_DELETE_IDS):
            chunk = list(vector_ids[start : start + MAX_DELETE_IDS])
            self._index.delete(ids=chunk, namespace=self.namespace)

    def delete(self, record_ids: Iterable[str]) -> int:
        """Remove the vectors of these records (whoever they belong to).

        Vector ids embed the user hash, so the records are first looked up by their
        ``record_id`` metadata (``fetch_by_metadata``), then deleted by id.

        Args:
            record_ids: record ids; unknown ones are ignored.

        Returns:
            How many vectors were deleted.
        """
        self._check_open()
        ids = sorted({check_id(r, "record_id") for r in record_ids})
        if not ids or self._index is None:
            return 0
        found: set[str] = set()
        with self._errors():
            for start in range(0, len(ids), LOOKUP_CHUNK):
                chunk = ids[start : start + LOOKUP_CHUNK]
                token: str | None = None
                while True:
                    res = self._index.fetch_by_metadata(
                        filter={"record_id": {"$in": chunk}},
                        namespace=self.namespace,
                        limit=1000,
                        pagination_token=token,
                    )
                    found.update(res.vectors)
                    token = res.pagination.next if res.pagination else None
                    if not token:
                        break
            self._delete_vector_ids(sorted(found))
        return len(found)

    def _list_ids(self, prefix: str) -> list[str]:
        assert self._index is not None
        out: list[str] = []
        token: str | None = None
        while True:
            page = self._index.list_paginated(
                prefix=prefix, limit=LIST_PAGE, pagination_token=token, namespace=self.namespace
            )
            out.extend(v.id for v in page.vectors if v.id)
            token = page.pagination.next if page.pagination else None
            if not token:
                return out

    def ids_for_user(self, user_id: str) -> set[str]:
        """Record ids indexed for the user (by listing the ``<user_hash>#`` id prefix).

        Args:
            user_id: the user.

        Returns:
            The record ids.
        """
        self._check_open()
        check_id(user_id, "user_id")
        if self._index is None:
            return set()
        with self._errors():
            return {_record_id(v) for v in self._list_ids(user_hash(user_id) + _ID_SEP)}

    def delete_user(self, user_id: str) -> int:
        """Erase every vector of the user (all contexts) from the namespace.

        Lists the ``<user_hash>#`` prefix and deletes those ids, then sweeps with a
        delete by metadata filter on ``user_id``; where the index refuses filter deletes
        (400), the prefix listing alone is used and that is logged once.

        Args:
            user_id: the user to erase.

        Returns:
            How many vectors were found by prefix and deleted.
        """
        self._check_open()
        check_id(user_id, "user_id")
        if self._index is None:
            return 0
        from pinecone.errors.exceptions import ApiError

        with self._errors():
            vids = self._list_ids(user_hash(user_id) + _ID_SEP)
            self._delete_vector_ids(vids)
            if self._filter_delete_supported:
                try:
                    self._index.delete(
                        filter={"user_id": {"$eq": user_id}}, namespace=self.namespace
                    )
                except ApiError as exc:
                    if exc.status_code != 400:
                        raise
                    self._filter_delete_supported = False
                    logger.info(
                        "Pinecone index %r refuses delete-by-filter (%s); "
                        "erasing by id prefix only",
                        self.index_name,
                        exc,
                    )
        return len(vids)

    def count(self) -> int:
        """How many vectors the namespace holds (``describe_index_stats``)."""
        self._check_open()
        if self._index is None:
            return 0
        with self._errors():
            stats = self._index.describe_index_stats()
        ns = stats.namespaces.get(self.namespace)
        return int(ns.vector_count) if ns is not None else 0

    def close(self) -> None:
        """Release the HTTP connection pools; further calls raise BackendError."""
        if self._closed:
            return
        self._closed = True
        if self._index is not None:
            self._index.close()
        self._pc.close()

    def __enter__(self) -> PineconeVectorIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (
            f"PineconeVectorIndex(index={self.index_name!r}, namespace={self.namespace!r}, "
            f"dimension={self.dimension})"
        )


def open_pinecone(
    url: str,
    *,
    config: MemoryConfig | None = None,
    clock: Clock | None = None,
    api_key: str | None = None,
) -> PineconeVectorIndex:
    """Registry factory for ``pinecone://`` URLs.

    Args:
        url: ``pinecone://INDEX?namespace=...`` (see :func:`parse_pinecone_url`).
        config: unused (accepted for the uniform factory signature).
        clock: unused (accepted for the uniform factory signature).
        api_key: overrides ``PINECONE_API_KEY`` and the URL's ``api_key``.

    Returns:
        The connected :class:`PineconeVectorIndex`.
    """
    del config, clock
    return PineconeVectorIndex.from_url(url, api_key=api_key)
