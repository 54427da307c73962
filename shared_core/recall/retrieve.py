"""Read-path step 2: hybrid retrieval, always scoped to one user and one system_context.

Three channels, each a ranked list of record ids with a raw score:

* ``key``     - structured lookup of the keys the rewriter mapped the query to (score 1);
* ``lexical`` - BM25 over the user's records. Two scores per hit: the raw BM25 score
  (:attr:`Retrieved.bm25`), which *ranks* (IDF-weighted, so a rare word the query shares
  with a turn counts more than a common one), and *query-term coverage*, the share of the
  query's content tokens found in the record, which *calibrates*: BM25's absolute scale
  depends on the size of one user's corpus, coverage does not, so the fused relevance
  keeps an absolute meaning and recall can abstain;
* ``dense``   - cosine similarity of embeddings; left out for a query the embedder cannot
  represent (a mostly-Chinese query with an English-only model such as MiniLM, see
  :func:`shared_core.embed.represents`), where its cosines are noise.

A prefix the rewriter maps a generic word to ("like" -> ``taste.``) can match dozens of
records; a key hit is worth ``1`` when its prefix matches at most
:data:`KEY_SPECIFIC_MATCHES` records and proportionally less beyond, so a broad category
does not bury the turns that answer the question.

Only the channels of the :class:`~shared_core.recall.fuse.RetrievalConfig` run: a channel
left out is not queried (no lexical search, no query embedding, no vector search).

The searches return ids and scores; the user's records are then read ONCE
(``records.find`` with the search hits in ``RecordFilter.also_ids``): the hits, the keys
the query names, with ``history=True`` (``context()``) every version of every key and
the hard constraints, and when the query names
calendar days (:mod:`.intent`) every episode of the context, from which the episodes of
those days are picked (:attr:`Retrieved.dated`): "what did we talk about on April 27th?"
shares no word with the turns it asks about. A plain ``recall()`` reads the hard
constraints in a second read only when an inferred interest or taste they could suppress
is among the candidates.

With ``include_archive=True`` (a store with ``supports_archive``, see
:class:`~shared_core.storage.protocols.ArchiveRecordStore`) the lexical search and the
read also cover the store's archive and :attr:`Retrieved.archived` holds the ids that
came from it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

import numpy as np

from ..embed import represents
from ..entities import NON_ENTITY_KINDS, Kind, MemoryRecord, Status
from ..errors import BackendError, InvalidInputError
from ..llm import Embedder
from ..storage.lexical import tokenize, tokenize_query
from ..storage.protocols import (
    ArchiveRecordStore,
    LexicalHit,
    RecordFilter,
    RecordStore,
    VectorHit,
    VectorIndex,
)
from .fuse import CHANNELS, ChannelHits, RetrievalConfig
from .rewrite import ParsedQuery
from .select import SUPPRESSIBLE

__all__ = [
    "HISTORY_STATUSES",
    "KEY_SPECIFIC_MATCHES",
    "Candidates",
    "Retrieved",
    "coverage",
    "embedding_parts",
    "entity_head",
    "no_archive_message",
    "record_text",
    "retrieve",
    "supports_archive",
]

log = logging.getLogger(__name__)

#: a key prefix matching at most this many records is specific (key score 1)
KEY_SPECIFIC_MATCHES = 3
#: the statuses ``context()`` reads: the current values and the versions they replaced
HISTORY_STATUSES = (Status.ACTIVE, Status.SUPERSEDED, Status.REVOKED)


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
    bm25: dict[str, float] = field(default_factory=dict)  # raw BM25 score per lexical hit
    dated: set[str] = field(default_factory=set)  # episodes of the days the query names
    rows: list[MemoryRecord] = field(default_factory=list)  # the one read, newest first


@dataclass(frozen=True, slots=True)
class Candidates:
    """What :meth:`~shared_core.UserMemory.gather` found for one query, not yet ranked.

    ``channels`` are the ranked hits of each channel that ran; ``records`` every record
    the one read returned (the hits, and the structured records the ranking and
    ``context()`` use). :meth:`~shared_core.UserMemory.rank` turns it into results.
    """

    user_id: str
    system_context: str
    scope_refs: tuple[str, ...]
    session_id: str | None
    now: datetime
    k: int
    kinds: tuple[Kind, ...] | None
    query: ParsedQuery
    retrieval: RetrievalConfig
    retrieved: Retrieved

    @property
    def channels(self) -> list[ChannelHits]:
        """The hits of each channel that ran (a channel left out of the config is absent)."""
        return self.retrieved.channels

    @property
    def records(self) -> Mapping[str, MemoryRecord]:
        """Every record read for this query, by id."""
        return self.retrieved.loaded


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
    head = entity_head(rec.key, rec.value)
    return (head, rec.provenance.span) if rec.provenance.span else (head,)


def entity_head(key: str, value: str) -> str:
    """The key-and-value text of an entity in :func:`embedding_parts`."""
    return f"{_key_words(key)} {value}"


def coverage(query_tokens: Sequence[str], rec: MemoryRecord) -> float:
    """Share of distinct query content tokens that occur in the record, in [0, 1]."""
    q = set(query_tokens)
    if not q:
        return 0.0
    return len(q.intersection(_text_tokens(record_text(rec)))) / len(q)


@functools.lru_cache(maxsize=8192)
def _text_tokens(text: str) -> tuple[str, ...]:
    """The tokens of a record's text, memoised: every recall scores its lexical hits
    again, and segmenting a Chinese turn takes ~40 us (an English one ~8 us). A tuple of
    strings, so the cache adds nothing to the garbage collector's work (a set would)."""
    return tuple(tokenize(text))


def retrieve(
    *,
    records: RecordStore,
    vectors: VectorIndex,
    embedder: Embedder,
    query: ParsedQuery,
    user_id: str,
    system_context: str,
    scope_refs: tuple[str, ...],
    pool: int,
    kinds: tuple[Kind, ...] | None = None,
    include_archive: bool = False,
    channels: Sequence[str] = CHANNELS,
    history: bool = False,
) -> Retrieved:
    """Run the configured retrievers, then read every record the query needs in ONE read.

    The lexical and dense searches return ids and scores; the one ``records.find`` then
    lists, by predicate, the user's structured records the ranking and ``context()`` need
    (hard constraints always; the keys the query names; with ``history`` every version of
    every key, all scopes; every episode when the query names a day) and, by id
    (``RecordFilter.also_ids``), the search hits. A channel left out of ``channels`` is not
    queried at all.

    Args:
        history: also list superseded and revoked versions and every scope
            (``context()``'s asked-about keys, stale turns and standing profile).
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
    rq, intent = query.rewritten, query.intent

    lex: list[LexicalHit] = []
    if "lexical" in channels:
        if archive is None:
            lex = records.lexical_search(user_id, system_context, rq.text, limit=pool)
        else:
            lex = archive.lexical_search(
                user_id, system_context, rq.text, limit=pool, include_archive=True
            )
    dense: list[VectorHit] = []
    if "dense" in channels:
        try:
            if represents(embedder, rq.text):
                qvec = np.asarray(embedder.embed([rq.text])[0], dtype=np.float32)
                dense = vectors.search(user_id, system_context, qvec, k=pool, kinds=kinds)
            # else: an English-only model's vector of a Chinese query is noise
        except BackendError as exc:
            # the key and lexical channels still answer from the durable store
            log.warning("dense retrieval unavailable, recalling without it: %s", exc)
            out.degraded = True

    flt = _one_read(
        user_id,
        system_context,
        scope_refs,
        prefixes=rq.key_prefixes if "key" in channels else (),
        history=history,
        dated=bool(intent.dates),
        hits=tuple(dict.fromkeys([*(h.record_id for h in lex), *(h.record_id for h in dense)])),
    )
    if flt.statuses == () and not flt.also_ids:  # nothing found, nothing to read
        rows: list[MemoryRecord] = []
    else:
        rows = records.find(flt) if archive is None else archive.find(flt, include_archive=True)
    if not _has_constraints(flt) and any(r.key.startswith(SUPPRESSIBLE) for r in rows):
        # an inferred interest/taste is a candidate: the hard rules that may suppress it
        # are read too (the one case recall() reads twice; context() always reads them)
        seen = {r.id for r in rows}
        more = RecordFilter(
            user_id=user_id,
            system_context=system_context,
            kinds=(Kind.CONSTRAINT,),
            scope_refs=scope_refs,
        )
        got = records.find(more) if archive is None else archive.find(more, include_archive=True)
        rows = rows + [r for r in got if r.id not in seen]
    out.rows = rows
    out.loaded = {r.id: r for r in rows}

    if "key" in channels and rq.key_prefixes:
        refs = set(scope_refs)
        keyed = [
            r
            for r in rows
            if r.status is Status.ACTIVE
            and r.kind not in NON_ENTITY_KINDS
            and r.scope_ref in refs
            and r.key.startswith(rq.key_prefixes)
        ]
        out.channels.append(ChannelHits("key", _key_scores(keyed, rq.key_prefixes)))
    if "lexical" in channels:
        out.bm25 = {h.record_id: h.score for h in lex if h.record_id in out.loaded}
        q_tokens = tokenize_query(rq.text)
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
    if "dense" in channels:
        out.channels.append(
            ChannelHits(
                "dense", [(h.record_id, h.similarity) for h in dense if h.record_id in out.loaded]
            )
        )
    if intent.dates:
        days, refs = set(intent.dates), set(scope_refs)
        for rec in rows:
            if rec.kind is Kind.EPISODE and rec.scope_ref in refs:
                when = rec.provenance.at or rec.created_at
                if (when.month, when.day) in days:
                    out.dated.add(rec.id)
    if archive is not None and out.loaded:
        out.archived = archive.archived_ids(list(out.loaded))
    return out


def _one_read(
    user_id: str,
    system_context: str,
    scope_refs: tuple[str, ...],
    *,
    prefixes: tuple[str, ...],
    history: bool,
    dated: bool,
    hits: tuple[str, ...],
) -> RecordFilter:
    """The filter of the read path's one records read (the narrowest that serves the query).

    The hits come by id; ``context()`` (``history``) needs every version of every key in
    every scope, a query that names a day every episode, the key channel the keys the
    query names. Hard constraints come with ``history`` and named days; for a plain
    ``recall()`` they are read only when an inference they could suppress is a candidate.
    """
    if dated:  # every record of the context: the day's episodes are found in the read
        return RecordFilter(
            user_id=user_id,
            system_context=system_context,
            statuses=HISTORY_STATUSES if history else (Status.ACTIVE,),
            also_ids=hits,
        )
    if history:
        return RecordFilter(
            user_id=user_id,
            system_context=system_context,
            statuses=HISTORY_STATUSES,
            exclude_kinds=NON_ENTITY_KINDS,
            also_ids=hits,
        )
    if prefixes:
        return RecordFilter(
            user_id=user_id,
            system_context=system_context,
            key_prefixes=prefixes,
            exclude_kinds=NON_ENTITY_KINDS,
            scope_refs=scope_refs,
            also_ids=hits,
        )
    # the hits only (no record has no status)
    return RecordFilter(user_id=user_id, system_context=system_context, statuses=(), also_ids=hits)


def _has_constraints(flt: RecordFilter) -> bool:
    """Whether the predicate of ``flt`` lists every active constraint of the scopes."""
    return (
        flt.statuses != () and flt.key_prefixes is None and Kind.CONSTRAINT not in flt.exclude_kinds
    )


def _key_scores(keyed: Sequence[MemoryRecord], prefixes: Sequence[str]) -> list[tuple[str, float]]:
    """1 for a record under a specific prefix, ``KEY_SPECIFIC_MATCHES / n`` under a broad one."""
    counts = {p: sum(r.key.startswith(p) for r in keyed) for p in prefixes}
    out = []
    for rec in keyed:
        n = min((c for p, c in counts.items() if c and rec.key.startswith(p)), default=1)
        out.append((rec.id, min(1.0, KEY_SPECIFIC_MATCHES / n)))
    return out
