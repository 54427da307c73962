"""Read-path step 2: hybrid retrieval, always scoped to one user and one system_context.

Three channels, each a ranked list of record ids with a raw score:

* ``key``     - structured lookup of the keys the rewriter mapped the query to (score 1);
* ``lexical`` - BM25 over the user's records (order), scored by *query-term coverage*:
  the share of the query's content tokens found in the record. BM25's absolute scale
  depends on the size of one user's corpus; coverage does not, so it can be calibrated
  and compared across users and channels (and lets recall abstain);
* ``dense``   - cosine similarity of embeddings; left out for a query the embedder cannot
  represent (a mostly-Chinese query with an English-only model such as MiniLM, see
  :func:`shared_core.embed.represents`), where its cosines are noise.

With ``include_archive=True`` (a store with ``supports_archive``, see
:class:`~shared_core.storage.protocols.ArchiveRecordStore`) the key, lexical and load
steps also read the store's archive and :attr:`Retrieved.archived` holds the ids that
came from it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from ..embed import represents
from ..entities import NON_ENTITY_KINDS, Kind, MemoryRecord
from ..errors import BackendError, InvalidInputError
from ..llm import Embedder
from ..storage.lexical import tokenize
from ..storage.protocols import ArchiveRecordStore, RecordFilter, RecordStore, VectorIndex
from .fuse import ChannelHits
from .rewrite import RewrittenQuery

__all__ = [
    "Retrieved",
    "coverage",
    "embedding_parts",
    "no_archive_message",
    "record_text",
    "retrieve",
    "supports_archive",
]

log = logging.getLogger(__name__)


def supports_archive(records: object) -> bool:
    """Whether ``records`` declares an archive reads can opt into (``supports_archive``)."""
    return getattr(records, "supports_archive", False) is True and isinstance(
        records, ArchiveRecordStore
    )


def no_archive_message(records: object) -> str:
    """The error text for ``include_archive=True`` on a store without an archive."""
    return (
        f"this record store has no archive ({type(records).__name__}); include_archive=True "
        "needs one that supports it, e.g. PostgreSQL (postgresql://...)"
    )


@dataclass(slots=True)
class Retrieved:
    channels: list[ChannelHits]
    loaded: dict[str, MemoryRecord] = field(default_factory=dict)
    degraded: bool = False  # the dense channel failed and was skipped
    archived: set[str] = field(default_factory=set)  # loaded ids read from the archive


def record_text(rec: MemoryRecord) -> str:
    """The text a record is matched on: key words, value and the source span."""
    if rec.kind is Kind.EPISODE:
        return rec.value
    return f"{_key_words(rec.key)} {rec.value} {rec.provenance.span or ''}"


def _key_words(key: str) -> str:
    """``allergy.medication`` -> ``allergy medication`` (what a key says, as words)."""
    return key.replace(".", " ").replace("_", " ")


def embedding_parts(rec: MemoryRecord) -> tuple[str, ...]:
    """The texts whose vectors, summed and normalised, index ``rec`` in the dense channel.

    An entity is embedded as its key and value *and* the sentence it was said in, as two
    texts whose vectors are added, not as one concatenated text: the sentence is usually
    the turn itself (the episode written with it), so the embedder's cache serves it and a
    turn costs one model run, not one per memory plus one; key-value texts are short and
    recur across users. Measured on the evaluation set (MiniLM): dense-only accuracy
    58.7 -> 65.4 % (English), the hybrid unchanged, and observe's model time about a third
    lower. Episodes are their text.
    """
    if rec.kind is Kind.EPISODE:
        return (rec.value,)
    head = f"{_key_words(rec.key)} {rec.value}"
    return (head, rec.provenance.span) if rec.provenance.span else (head,)


def coverage(query_tokens: Sequence[str], rec: MemoryRecord) -> float:
    """Share of distinct query content tokens that occur in the record, in [0, 1]."""
    q = set(query_tokens)
    if not q:
        return 0.0
    have = set(tokenize(record_text(rec)))
    return len(q & have) / len(q)


def retrieve(
    *,
    records: RecordStore,
    vectors: VectorIndex,
    embedder: Embedder,
    query: RewrittenQuery,
    user_id: str,
    system_context: str,
    scope_refs: tuple[str, ...],
    pool: int,
    kinds: tuple[Kind, ...] | None = None,
    include_archive: bool = False,
) -> Retrieved:
    """Run the three retrievers and load every hit's record.

    Args:
        include_archive: also read the store's archive. The caller checks
            :func:`supports_archive` first; the flag is passed to the store only when True,
            so stores without an archive never see it.
    """
    out = Retrieved(channels=[])
    archive: ArchiveRecordStore | None = None
    if include_archive:
        if not supports_archive(records):
            raise InvalidInputError(no_archive_message(records))
        archive = cast(ArchiveRecordStore, records)

    def find(flt: RecordFilter) -> list[MemoryRecord]:
        return records.find(flt) if archive is None else archive.find(flt, include_archive=True)

    def get(ids: Sequence[str]) -> list[MemoryRecord]:
        return records.get(ids) if archive is None else archive.get(ids, include_archive=True)

    if query.key_prefixes:
        keyed = find(
            RecordFilter(
                user_id=user_id,
                system_context=system_context,
                key_prefixes=query.key_prefixes,
                exclude_kinds=NON_ENTITY_KINDS,
                scope_refs=scope_refs,
            )
        )
        out.loaded.update((r.id, r) for r in keyed)
        out.channels.append(ChannelHits("key", [(r.id, 1.0) for r in keyed]))

    if archive is None:
        lex = records.lexical_search(user_id, system_context, query.text, limit=pool)
    else:
        lex = archive.lexical_search(
            user_id, system_context, query.text, limit=pool, include_archive=True
        )
    need = [h.record_id for h in lex if h.record_id not in out.loaded]
    out.loaded.update((r.id, r) for r in get(need))
    q_tokens = tokenize(query.text)
    out.channels.append(
        ChannelHits(
            "lexical",
            [
                (h.record_id, coverage(q_tokens, out.loaded[h.record_id]))
                for h in lex
                if h.record_id in out.loaded
            ],
        )
    )

    try:
        if represents(embedder, query.text):
            qvec = np.asarray(embedder.embed([query.text])[0], dtype=np.float32)
            dense = vectors.search(user_id, system_context, qvec, k=pool, kinds=kinds)
        else:  # an English-only model's vector of a Chinese query is noise
            dense = []
    except BackendError as exc:
        # the key and lexical channels still answer from the durable store
        log.warning("dense retrieval unavailable, recalling without it: %s", exc)
        out.degraded = True
        dense = []
    out.channels.append(ChannelHits("dense", [(h.record_id, h.similarity) for h in dense]))
    need = [h.record_id for h in dense if h.record_id not in out.loaded]
    out.loaded.update((r.id, r) for r in get(need))
    if archive is not None and out.loaded:
        out.archived = archive.archived_ids(list(out.loaded))
    return out
