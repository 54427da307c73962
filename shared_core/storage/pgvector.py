"""pgvector :class:`~shared_core.storage.protocols.VectorIndex`: embeddings next to the records.

Table ``<schema>.embeddings(record_id PK, user_id, system_context, kind, key,
embedding vector(dim))`` with a btree on ``(user_id, system_context)``, made by the
migration runner from :func:`pgvector_migrations` once the dimension is known and recorded
in its own ``_usermemory_vector_migrations`` (the records' ``_usermemory_migrations`` in
the same schema would reject ids from another list). A table made before by the ad-hoc DDL
is the same table: its migration's ``IF NOT EXISTS`` statements are no-ops and it is
recorded on the next open. Every search is
exact: the btree selects one user's rows and ``ORDER BY embedding <=> q LIMIT k`` sorts
them by cosine distance. At per-user sizes (hundreds to a few thousand vectors) this is
both fast and 100% accurate; an HNSW index would post-filter ``WHERE user_id = ...`` and
can return nothing on pgvector 0.6, so none is created.

When the server has no ``vector`` extension (e.g. a stock PostgreSQL 15), opening the
index logs "pgvector not available; use a separate vector index" once per process and
raises :class:`~shared_core.errors.BackendUnavailableError`;
:meth:`PgVectorIndex.try_open` returns ``None`` instead so the caller can fall back to the
embedded or Pinecone index. Nothing but ids, user/context/kind/key and the vector is
stored (never raw text).
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _forksafe
from ..clock import Clock
from ..config import MemoryConfig
from ..entities import Kind
from ..errors import BackendUnavailableError, ConfigError, InvalidInputError
from .migrations import Migration, run_migrations
from .postgres_pool import DEFAULT_READ_TIMEOUT, PgPool, pool_options
from .postgres_sql import (
    SCHEMA_RE,
    dec,
    driver,
    enc,
    pg_errors,
    postgres_dialect,
    split_postgres_url,
)
from .protocols import Vector, VectorHit, VectorItem

if TYPE_CHECKING:
    import psycopg

__all__ = [
    "VECTOR_MIGRATIONS_TABLE",
    "PgVectorIndex",
    "open_pgvector",
    "open_postgres_vectors",
    "pgvector_migrations",
]

log = logging.getLogger(__name__)

_UPSERT = (
    "INSERT INTO embeddings (record_id, user_id, system_context, kind, key, embedding)"
    " VALUES (%s, %s, %s, %s, %s, %s::vector) ON CONFLICT (record_id) DO UPDATE SET"
    " user_id = EXCLUDED.user_id, system_context = EXCLUDED.system_context,"
    " kind = EXCLUDED.kind, key = EXCLUDED.key, embedding = EXCLUDED.embedding"
)
UNAVAILABLE_MESSAGE = "pgvector not available; use a separate vector index"
#: pgvector's own bookkeeping table, next to the records' ``_usermemory_migrations``.
VECTOR_MIGRATIONS_TABLE = "_usermemory_vector_migrations"


def pgvector_migrations(dimension: int) -> tuple[Migration, ...]:
    """pgvector's schema for vectors of ``dimension``. Never edit a step: append one.

    ``IF NOT EXISTS`` keeps tables made by the DDL of earlier versions (identical) valid.
    """
    return (
        Migration(
            id=1,
            name="embeddings_table",
            statements=(
                "CREATE TABLE IF NOT EXISTS embeddings (record_id text PRIMARY KEY,"
                " user_id text NOT NULL, system_context text NOT NULL, kind text NOT NULL,"
                f" key text NOT NULL, embedding vector({int(dimension)}) NOT NULL)",
                "CREATE INDEX IF NOT EXISTS embeddings_user"
                " ON embeddings (user_id, system_context)",
            ),
        ),
    )


_warned = False
_warn_lock = threading.Lock()
_forksafe.renew_lock(globals(), "_warn_lock")


def _warn_once(detail: str) -> None:
    global _warned
    with _warn_lock:
        if not _warned:
            _warned = True
            log.warning("%s (%s)", UNAVAILABLE_MESSAGE, detail)


def vector_literal(vector: Vector | Sequence[float], dimension: int | None = None) -> str:
    """The pgvector text form ``[x1,x2,...]`` of a finite 1-D vector.

    Raises:
        InvalidInputError: not 1-D, wrong dimension, empty, zero or not finite.
    """
    arr = np.asarray(vector, dtype=np.float32)
    if arr.ndim != 1 or arr.size == 0:
        raise InvalidInputError(f"a vector must be 1-D and non-empty, got shape {arr.shape}")
    if dimension is not None and arr.size != dimension:
        raise InvalidInputError(f"vector has dimension {arr.size}, the index has {dimension}")
    if not np.isfinite(arr).all():
        raise InvalidInputError("vector contains NaN or infinity")
    if not np.any(arr):
        raise InvalidInputError("a zero vector has no direction (cosine is undefined)")
    return "[" + ",".join(map(repr, arr.tolist())) + "]"


def open_pgvector(
    url: str,
    *,
    config: MemoryConfig | None = None,
    clock: Clock | None = None,
    dimension: int | None = None,
) -> PgVectorIndex:
    """Registry factory: a :class:`PgVectorIndex` for a ``postgresql://`` URL.

    Args:
        url: ``postgresql://user@host/db?schema=usermemory&dimension=384`` (the same schema
            as the records lets ``erase_user`` clear the embeddings in the same transaction).
        config: unused (the registry's uniform signature).
        clock: unused (the registry's uniform signature).
        dimension: embedding size; overrides the URL's; ``None`` takes it from an existing
            table or the first upsert.

    Raises:
        BackendUnavailableError: unreachable server, or no pgvector extension (the caller
            falls back to another vector index).
        ConfigError: a malformed URL or a dimension that differs from the table's.
    """
    del config, clock
    conninfo, ours = split_postgres_url(url)
    try:
        dim = (
            dimension
            if dimension is not None
            else int(ours["dimension"])
            if "dimension" in ours
            else None
        )
        pool_max = int(ours.get("pool_max", "10"))
    except ValueError as exc:
        raise ConfigError(f"dimension/pool_max must be integers in {url!r}") from exc
    return PgVectorIndex(
        conninfo,
        dimension=dim,
        schema=ours.get("schema", "usermemory"),
        max_size=pool_max,
        **pool_options(ours, url),
    )


def open_postgres_vectors(
    url: str, *, config: MemoryConfig | None = None, clock: Clock | None = None
) -> Any:
    """Registry factory: the vector index of a ``postgresql://`` records URL.

    pgvector in the records' database and schema when the server has the ``vector``
    extension (``forget`` then erases the embeddings in the records' transaction). Without
    it, the documented choice is an in-process index, announced by a WARNING on every open:
    its vectors are lost when the process exits, so dense recall misses what earlier
    processes wrote until ``UserMemory.reindex()`` rebuilds them from the records. Install
    pgvector, or name a persistent index in the spec (``StorageSpec(vectors=
    "sqlite:///vectors.db")`` or ``"pinecone://..."``), to keep them.

    Raises:
        BackendUnavailableError: the server cannot be reached.
        ConfigError: a malformed URL.
    """
    from .vectors import SqliteVectorIndex

    conninfo, ours = split_postgres_url(url)
    index = PgVectorIndex.try_open(
        conninfo, schema=ours.get("schema", "usermemory"), max_size=4, **pool_options(ours, url)
    )
    if index is not None:
        return index
    log.warning(
        "PostgreSQL at %s has no pgvector extension: dense vectors are kept IN PROCESS and"
        " lost on restart (run UserMemory.reindex() at start-up, install pgvector, or pass"
        " StorageSpec(vectors='sqlite:///vectors.db'))",
        _host_of(conninfo),
    )
    return SqliteVectorIndex(":memory:", clock=clock)


def _host_of(conninfo: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(conninfo)
    return f"{parts.hostname or 'localhost'}{parts.path}" if parts.scheme else "the server"


class PgVectorIndex:
    """Exact per-user cosine search in PostgreSQL with pgvector.

    Args:
        conninfo: libpq URL or ``key=value`` string.
        dimension: embedding size (``None``: from the existing table or the first upsert).
        schema: schema of the ``embeddings`` table (created if missing).
        min_size: connections the pool keeps open.
        max_size: most connections the pool opens.
        timeout: seconds to wait for a pooled connection.
        connect_timeout: libpq connect timeout in seconds.
        read_timeout / probe_interval: bounded waits and breaker, see
            :mod:`shared_core.storage.postgres_pool`.

    Raises:
        BackendUnavailableError: the server is unreachable or lacks the ``vector`` extension.
        ConfigError: invalid schema, or ``dimension`` differs from the existing table's.
    """

    def __init__(
        self,
        conninfo: str,
        *,
        dimension: int | None = None,
        schema: str = "usermemory",
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 10.0,
        connect_timeout: int = 5,
        read_timeout: float | None = DEFAULT_READ_TIMEOUT,
        probe_interval: float = 5.0,
    ) -> None:
        if not SCHEMA_RE.match(schema):
            raise ConfigError(f"invalid schema name {schema!r}: use [a-z_][a-z0-9_]*")
        if dimension is not None and dimension < 1:
            raise ConfigError("dimension must be >= 1")
        pg_module, _ = driver()
        self.schema = schema
        self.dimension: int | None = dimension
        ext_schema, existing = self._bootstrap(pg_module, conninfo, connect_timeout)
        if existing is not None:
            if dimension is not None and dimension != existing:
                raise ConfigError(f"{schema}.embeddings has dimension {existing}, not {dimension}")
            self.dimension = existing
        self._pool = PgPool(
            conninfo,
            options=f"-c search_path={schema},{ext_schema},public -c timezone=UTC",
            name="pgvector",
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            connect_timeout=connect_timeout,
            read_timeout=read_timeout,
            probe_interval=probe_interval,
        )
        try:
            if self.dimension is not None:  # also records a table made by older versions
                self._create_table(self.dimension)
        except BaseException:
            self._pool.close()
            raise

    @classmethod
    def try_open(cls, conninfo: str, **kwargs: Any) -> PgVectorIndex | None:
        """Like the constructor, but ``None`` (logged once) when pgvector is not installed.

        Connection failures still raise BackendUnavailableError.
        """
        try:
            return cls(conninfo, **kwargs)
        except BackendUnavailableError as exc:
            if UNAVAILABLE_MESSAGE in str(exc):
                return None
            raise

    def _bootstrap(
        self, psycopg: Any, conninfo: str, connect_timeout: int
    ) -> tuple[str, int | None]:
        """Create the extension (if possible) and schema; return (extension schema, dim)."""
        with (
            pg_errors("pgvector"),
            psycopg.connect(conninfo, autocommit=True, connect_timeout=connect_timeout) as conn,
        ):
            available = conn.execute(
                "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"
            ).fetchone()
            if available is None:
                _warn_once("the server has no 'vector' extension")
                raise BackendUnavailableError(UNAVAILABLE_MESSAGE)
            # IF NOT EXISTS DDL races between processes: serialise it (released on close).
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"usermemory:{self.schema}",))
            try:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
            except psycopg.Error as exc:
                _warn_once(f"CREATE EXTENSION vector failed: {exc}")
                raise BackendUnavailableError(f"{UNAVAILABLE_MESSAGE}: {exc}") from exc
            row = conn.execute(
                "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n"
                " ON n.oid = e.extnamespace WHERE e.extname = 'vector'"
            ).fetchone()
            from psycopg import sql

            conn.execute(
                sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema))
            )
            dim = conn.execute(
                "SELECT a.atttypmod FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
                " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s"
                " AND c.relname = 'embeddings' AND a.attname = 'embedding'",
                (self.schema,),
            ).fetchone()
        if row is None or not SCHEMA_RE.match(row[0]):
            raise BackendUnavailableError(f"{UNAVAILABLE_MESSAGE}: unusable extension schema")
        return str(row[0]), (int(dim[0]) if dim is not None and dim[0] > 0 else None)

    def _create_table(self, dimension: int) -> None:
        """Apply :func:`pgvector_migrations` (the runner opens its own transactions)."""
        with self._tx() as conn:
            conn.autocommit = True
            try:
                run_migrations(
                    conn,
                    pgvector_migrations(dimension),
                    dialect=postgres_dialect(self.schema, VECTOR_MIGRATIONS_TABLE),
                )
            finally:
                conn.autocommit = False

    @contextmanager
    def _tx(self) -> Iterator[psycopg.Connection[Any]]:
        with self._pool.connection() as conn:
            yield conn

    def upsert(self, items: Sequence[VectorItem]) -> None:
        """Insert or replace the vectors of these records (one transaction).

        Raises:
            InvalidInputError: a vector of the wrong dimension or not finite.
        """
        if not items:
            return
        if self.dimension is None:
            first = np.asarray(items[0].vector)
            if first.ndim != 1 or first.size == 0:
                raise InvalidInputError("a vector must be 1-D and non-empty")
            self.dimension = int(first.size)
            self._create_table(self.dimension)
        try:
            rows = self._rows(items)
        except (ValueError, TypeError, AttributeError) as exc:
            if isinstance(exc, InvalidInputError):
                raise
            raise InvalidInputError(f"invalid vector item: {exc}") from exc
        with self._tx() as conn, conn.cursor() as cur:
            cur.executemany(_UPSERT, rows)

    def _rows(self, items: Sequence[VectorItem]) -> list[tuple[str, ...]]:
        return [
            (enc(it.record_id), enc(it.user_id), enc(it.system_context), Kind(it.kind).value,
             enc(it.key), vector_literal(it.vector, self.dimension))
            for it in items
        ]  # fmt: skip

    def search(
        self,
        user_id: str,
        system_context: str,
        vector: Vector,
        *,
        k: int,
        kinds: tuple[Kind, ...] | None = None,
    ) -> list[VectorHit]:
        """Exact top ``k`` of this user's vectors in this context by cosine similarity."""
        if k <= 0 or self.dimension is None:
            return []
        p: dict[str, Any] = {
            "v": vector_literal(vector, self.dimension),
            "u": enc(user_id),
            "ctx": enc(system_context),
            "k": int(k),
        }
        kind_cond = ""
        if kinds is not None:
            kind_cond = " AND kind = ANY(%(kinds)s)"
            p["kinds"] = [Kind(x).value for x in kinds]
        sql_text = (
            "SELECT record_id, embedding <=> q AS dist FROM embeddings, CAST(%(v)s AS vector) q"
            f" WHERE user_id = %(u)s AND system_context = %(ctx)s{kind_cond}"
            " ORDER BY dist, record_id LIMIT %(k)s"
        )
        with self._tx() as conn:
            rows = conn.execute(sql_text.encode(), p).fetchall()
        out = []
        for rid, dist in rows:
            d = float(dist)
            out.append(VectorHit(dec(rid), 0.0 if math.isnan(d) else 1.0 - d))
        return out

    def delete(self, record_ids: Iterable[str]) -> int:
        """Delete these records' vectors; return how many existed."""
        ids = [enc(i) for i in dict.fromkeys(record_ids)]
        if not ids or self.dimension is None:
            return 0
        with self._tx() as conn:
            cur = conn.execute("DELETE FROM embeddings WHERE record_id = ANY(%s)", (ids,))
            return max(cur.rowcount, 0)

    def delete_user(self, user_id: str) -> int:
        """Delete every vector of the user; return how many."""
        if self.dimension is None:
            return 0
        with self._tx() as conn:
            cur = conn.execute("DELETE FROM embeddings WHERE user_id = %s", (enc(user_id),))
            return max(cur.rowcount, 0)

    def ids_for_user(self, user_id: str) -> set[str]:
        """Record ids indexed for the user."""
        if self.dimension is None:
            return set()
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT record_id FROM embeddings WHERE user_id = %s", (enc(user_id),)
            )
            return {dec(r[0]) for r in rows}

    def after_fork(self) -> None:
        """In a forked child: a pool of its own (see :meth:`PgPool.after_fork`)."""
        self._pool.after_fork()

    def close(self) -> None:
        """Close the connection pool (idempotent)."""
        self._pool.close()

    def __enter__(self) -> PgVectorIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
