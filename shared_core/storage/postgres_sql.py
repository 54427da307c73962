"""SQL, schema migrations and row mapping shared by the PostgreSQL stores.

Used by :mod:`shared_core.storage.postgres` and :mod:`shared_core.storage.pgvector`;
nothing here opens a connection. The driver
(psycopg 3) is imported lazily so that importing this module never needs the extra.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..clock import as_utc
from ..entities import (
    AuditEntry,
    Conflict,
    Kind,
    MemoryRecord,
    Provenance,
    Scope,
    Source,
    Status,
    UserState,
)
from ..errors import ConfigError, InvalidInputError, MissingDependencyError, map_backend_errors
from ..ids import user_digest
from .migrations import MIGRATIONS_TABLE, Dialect, Migration

__all__ = [
    "COLUMNS",
    "POSTGRES_MIGRATIONS",
    "postgres_dialect",
    "record_params",
    "row_to_record",
    "split_postgres_url",
    "to_tsquery_literal",
    "to_tsvector_literal",
    "user_hash",
]

SCHEMA_RE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
OUR_PARAMS = (
    "schema", "pool_min", "pool_max", "dimension",
    "read_timeout", "connect_timeout", "probe_interval",
)  # fmt: skip

COLUMNS: tuple[str, ...] = (
    "id", "user_id", "system_context", "kind", "key", "scope", "scope_ref", "value",
    "normalized", "source", "confidence", "version", "status", "created_at", "updated_at",
    "valid_until", "permanent", "hard", "explicit", "evidence", "supersedes", "provenance",
    "metadata",
)  # fmt: skip
COLS = ", ".join(COLUMNS)
_PLACEHOLDERS = ", ".join(f"%({c})s" for c in (*COLUMNS, "search"))
_UPDATES = ", ".join(f"{c} = EXCLUDED.{c}" for c in (*COLUMNS[1:], "search"))

_TABLES = (
    """CREATE TABLE records (
  id text PRIMARY KEY, user_id text NOT NULL, system_context text NOT NULL,
  kind text NOT NULL, key text NOT NULL, scope text NOT NULL, scope_ref text NOT NULL,
  value text NOT NULL, normalized text NOT NULL, source text NOT NULL,
  confidence double precision NOT NULL, version integer NOT NULL, status text NOT NULL,
  created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, valid_until timestamptz,
  permanent boolean NOT NULL, hard boolean NOT NULL, explicit boolean NOT NULL,
  evidence integer NOT NULL, supersedes text, provenance jsonb NOT NULL,
  metadata jsonb NOT NULL, search tsvector NOT NULL)""",
    "CREATE UNIQUE INDEX records_active_slot ON records"
    " (user_id, system_context, kind, key, scope_ref) WHERE status = 'active'",
    "CREATE INDEX records_user_ctx ON records (user_id, system_context, status, updated_at DESC)",
    "CREATE INDEX records_user_key ON records (user_id, key)",
    "CREATE INDEX records_search ON records USING gin (search)",
    "CREATE TABLE records_archive (LIKE records INCLUDING DEFAULTS INCLUDING CONSTRAINTS,"
    " archived_at timestamptz NOT NULL, PRIMARY KEY (id))",
    "CREATE INDEX records_archive_user ON records_archive"
    " (user_id, system_context, updated_at DESC)",
    "CREATE INDEX records_archive_search ON records_archive USING gin (search)",
    "CREATE TABLE profiles (user_id text PRIMARY KEY, profile jsonb NOT NULL DEFAULT '{}',"
    " updated_at timestamptz NOT NULL)",
    """CREATE TABLE audit (seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE,
  user_id text NOT NULL, action text NOT NULL, record_id text, key text, actor text NOT NULL,
  at timestamptz NOT NULL, session_id text, turn_id text, detail jsonb NOT NULL)""",
    "CREATE INDEX audit_user ON audit (user_id, at, seq)",
    """CREATE TABLE conflicts (id text PRIMARY KEY, user_id text NOT NULL,
  system_context text NOT NULL, key text NOT NULL, record_ids text[] NOT NULL,
  reason text NOT NULL, question text NOT NULL, detected_at timestamptz NOT NULL,
  resolved_at timestamptz)""",
    "CREATE INDEX conflicts_user ON conflicts (user_id, system_context)",
    """CREATE TABLE users (user_id text PRIMARY KEY, memory_enabled boolean NOT NULL DEFAULT true,
  sessions integer NOT NULL DEFAULT 0, turns integer NOT NULL DEFAULT 0,
  first_seen timestamptz, last_seen timestamptz, last_session_id text)""",
    "CREATE TABLE tombstones (user_hash text PRIMARY KEY, erased_at timestamptz NOT NULL,"
    " counts jsonb NOT NULL)",
)

# jsonb_set only creates the LAST missing level of a path: these create (and prune)
# intermediate objects so profile -> context -> scope -> key can be set in one call
# (released in migration 2, dropped with the profile document by migration 3).
_PROFILE_FUNCTIONS = (
    """CREATE FUNCTION um_jsonb_set_path(doc jsonb, path text[], val jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE i integer;
BEGIN
  doc := COALESCE(doc, '{}'::jsonb);
  FOR i IN 1 .. cardinality(path) - 1 LOOP
    IF jsonb_typeof(doc #> path[1:i]) IS DISTINCT FROM 'object' THEN
      doc := jsonb_set(doc, path[1:i], '{}'::jsonb, true);
    END IF;
  END LOOP;
  RETURN jsonb_set(doc, path, val, true);
END $$""",
    """CREATE FUNCTION um_jsonb_unset_path(doc jsonb, path text[]) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE i integer;
BEGIN
  doc := COALESCE(doc, '{}'::jsonb) #- path;
  FOR i IN REVERSE cardinality(path) - 1 .. 1 LOOP
    IF doc #> path[1:i] = '{}'::jsonb THEN
      doc := doc #- path[1:i];
    END IF;
  END LOOP;
  RETURN doc;
END $$""",
)

#: The PostgreSQL schema, in order. Never edit a released step: append a new one.
POSTGRES_MIGRATIONS: tuple[Migration, ...] = (
    Migration(id=1, name="initial_schema", statements=_TABLES),
    Migration(id=2, name="profile_functions", statements=_PROFILE_FUNCTIONS),
    # profile() reads the records (it filters by expiry, decay and recallability, which the
    # document could not); keeping the document cost every write (benchmarks/pg_profile.py)
    Migration(
        id=3,
        name="drop_profile_document",
        statements=(
            "DROP TABLE IF EXISTS profiles",
            "DROP FUNCTION IF EXISTS um_jsonb_set_path(jsonb, text[], jsonb)",
            "DROP FUNCTION IF EXISTS um_jsonb_unset_path(jsonb, text[])",
        ),
    ),
    # The write fence (erasure epoch + write generation; keyed by the id hash like the
    # tombstone, so it outlives an erase) and the queue of erasures other stores owe. The
    # queue's raw id column is not called user_id: erase_user clears every user_id table.
    Migration(
        id=4,
        name="write_fence_and_erase_queue",
        statements=(
            "CREATE TABLE IF NOT EXISTS user_fence (user_hash text PRIMARY KEY,"
            " epoch bigint NOT NULL DEFAULT 0, gen bigint NOT NULL DEFAULT 0,"
            " erased_at timestamptz)",
            "CREATE TABLE IF NOT EXISTS erase_queue (user_hash text NOT NULL,"
            " store text NOT NULL, subject text NOT NULL, queued_at timestamptz NOT NULL,"
            " PRIMARY KEY (user_hash, store))",
        ),
    ),
)


def postgres_dialect(schema: str, table: str = MIGRATIONS_TABLE) -> Dialect:
    """The migration runner's dialect; the advisory lock serialises concurrent migrators.

    ``table`` is the bookkeeping table (another one for a component with its own list).
    """
    return Dialect(
        name="postgres",
        placeholder="%s",
        begin=("BEGIN", f"SELECT pg_advisory_xact_lock(hashtext('usermemory:{schema}'))"),
        create_table=(
            f"CREATE TABLE IF NOT EXISTS {table} (id integer PRIMARY KEY,"
            " name text NOT NULL UNIQUE, checksum text NOT NULL, applied_at text NOT NULL)"
        ),
        table=table,
    )


UPSERT_RECORD = (
    f"INSERT INTO records ({COLS}, search) VALUES ({_PLACEHOLDERS}) "
    f"ON CONFLICT (id) DO UPDATE SET {_UPDATES} "
    "WHERE records.version = EXCLUDED.version RETURNING id"
)
INSERT_AUDIT = (
    "INSERT INTO audit (id, user_id, action, record_id, key, actor, at, session_id,"
    " turn_id, detail) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (id) DO NOTHING"
)
UPSERT_CONFLICT = (
    "INSERT INTO conflicts (id, user_id, system_context, key, record_ids, reason,"
    " question, detected_at, resolved_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)"
    " ON CONFLICT (id) DO UPDATE SET record_ids = EXCLUDED.record_ids,"
    " reason = EXCLUDED.reason, question = EXCLUDED.question, resolved_at = EXCLUDED.resolved_at"
)
UPSERT_USER = (
    "INSERT INTO users (user_id, memory_enabled, sessions, turns, first_seen, last_seen,"
    " last_session_id) VALUES (%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (user_id) DO UPDATE SET"
    " memory_enabled = EXCLUDED.memory_enabled, sessions = EXCLUDED.sessions,"
    " turns = EXCLUDED.turns, first_seen = EXCLUDED.first_seen,"
    " last_seen = EXCLUDED.last_seen, last_session_id = EXCLUDED.last_session_id"
)
#: Add an observe's counters in the store (never a read-modify-write in Python).
TOUCH_USER = (
    "INSERT INTO users (user_id, memory_enabled, sessions, turns, first_seen, last_seen,"
    " last_session_id) VALUES (%(u)s, true, %(sessions)s, %(turns)s, %(at)s, %(at)s, %(sid)s)"
    " ON CONFLICT (user_id) DO UPDATE SET sessions = users.sessions + EXCLUDED.sessions,"
    " turns = users.turns + EXCLUDED.turns,"
    " first_seen = COALESCE(users.first_seen, EXCLUDED.first_seen),"
    " last_seen = EXCLUDED.last_seen,"
    " last_session_id = COALESCE(EXCLUDED.last_session_id, users.last_session_id)"
)
#: Move a user's write generation (row-locked until the transaction ends); returns it.
BUMP_FENCE = (
    "INSERT INTO user_fence (user_hash, gen) VALUES (%s, 1) ON CONFLICT (user_hash)"
    " DO UPDATE SET gen = user_fence.gen + 1 RETURNING epoch, gen"
)
ERASE_FENCE = (
    "INSERT INTO user_fence (user_hash, epoch, gen, erased_at) VALUES (%s, 1, 1, %s)"
    " ON CONFLICT (user_hash) DO UPDATE SET epoch = user_fence.epoch + 1,"
    " gen = user_fence.gen + 1,"
    " erased_at = GREATEST(user_fence.erased_at, EXCLUDED.erased_at)"
)
#: Which rows ``archive_older_than`` moves (documented in :mod:`shared_core.storage.postgres`).
ARCHIVABLE = (
    "updated_at < %(cutoff)s AND NOT permanent AND NOT hard AND (status <> 'active' "
    "OR kind = 'episode' OR NOT explicit OR (valid_until IS NOT NULL AND valid_until <= %(now)s))"
)
LEXICAL_PART = (
    "SELECT id, ts_rank_cd(search, q) AS score, updated_at FROM {table},"
    " CAST(%(q)s AS tsquery) q WHERE user_id = %(u)s AND system_context = %(ctx)s"
    " AND status = ANY(%(st)s) AND search @@ q"
)
USERS = (
    "SELECT user_id FROM users UNION SELECT user_id FROM records UNION "
    "SELECT user_id FROM records_archive UNION SELECT user_id FROM audit UNION "
    "SELECT user_id FROM conflicts ORDER BY 1"
)
USER_TABLES = (
    "SELECT c.table_name FROM information_schema.columns c"
    " JOIN information_schema.tables t USING (table_schema, table_name)"
    " WHERE c.table_schema = %s AND c.column_name = 'user_id'"
    " AND t.table_type = 'BASE TABLE' ORDER BY 1"
)
AUDIT_COLS = "id, user_id, action, record_id, key, actor, at, session_id, turn_id, detail"
CONFLICT_COLS = (
    "id, user_id, system_context, key, record_ids, reason, question, detected_at, resolved_at"
)
USER_COLS = "user_id, memory_enabled, sessions, turns, first_seen, last_seen, last_session_id"


def driver() -> tuple[Any, Any]:
    """``(psycopg, psycopg_pool)``, or MissingDependencyError naming the [postgres] extra."""
    try:
        import psycopg
        import psycopg_pool
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise MissingDependencyError(exc.name or "psycopg", "postgres") from exc
    return psycopg, psycopg_pool


@contextmanager
def pg_errors(backend: str = "postgresql") -> Iterator[None]:
    """Translate driver errors at the boundary.

    Connection problems (``OperationalError``, pool timeouts) become
    BackendUnavailableError; values PostgreSQL cannot store (NUL characters, lone
    surrogates) InvalidInputError; any other psycopg error BackendError.
    """
    psycopg, _ = driver()
    with map_backend_errors(backend, (psycopg.OperationalError,), (psycopg.Error,)):
        try:
            yield
        except (psycopg.DataError, UnicodeEncodeError) as exc:
            raise InvalidInputError(f"{backend} rejected a value: {exc}") from exc


def split_postgres_url(url: str) -> tuple[str, dict[str, str]]:
    """Split our own query parameters (``schema``, ``pool_*``, ``dimension``) off a URL.

    Args:
        url: ``postgresql://`` or ``postgres://`` URL.

    Returns:
        The libpq URL (scheme normalised to ``postgresql``) and our parameters.

    Raises:
        ConfigError: not a PostgreSQL URL.
    """
    parts = urlsplit(url)
    if parts.scheme not in {"postgresql", "postgres"}:
        raise ConfigError(f"not a PostgreSQL URL: {url!r}")
    ours: dict[str, str] = {}
    rest: list[tuple[str, str]] = []
    for k, v in parse_qsl(parts.query, keep_blank_values=True):
        if k in OUR_PARAMS:
            ours[k] = v
        else:
            rest.append((k, v))
    return urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(rest), "")), ours


def _escape_lexeme(token: str) -> str:
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def _usable(tokens: Iterable[str]) -> list[str]:
    # tsvector lexemes must be non-empty, shorter than 2 KiB and free of NUL.
    return [t for t in tokens if t and "\x00" not in t and len(t.encode()) < 2047]


def to_tsvector_literal(weighted: Sequence[tuple[str, str]]) -> str:
    """A ``tsvector`` literal from ``(text, weight)`` parts tokenized by ``lexical.tokenize``.

    Every token becomes a quoted lexeme with its position and weight, so PostgreSQL's
    parser (which cannot segment Chinese) never re-splits the text.
    """
    from .lexical import tokenize

    out: list[str] = []
    pos = 0
    for text, weight in weighted:
        for tok in _usable(tokenize(text)):
            pos = min(pos + 1, 16383)
            out.append(f"{_escape_lexeme(tok)}:{pos}{weight}")
    return " ".join(out)


def to_tsquery_literal(query: str) -> str:
    """An OR ``tsquery`` literal of the query's tokens, each quoted: never query syntax."""
    from .lexical import tokenize_query

    return " | ".join(_escape_lexeme(t) for t in dict.fromkeys(_usable(tokenize_query(query))))


def user_hash(user_id: str) -> str:
    """The tombstone key of a user: sha256 of the id, hex."""
    return user_digest(user_id).hex()


# PostgreSQL text and jsonb cannot hold NUL. Text is stored through a reversible escape:
# U+E000 (private use) becomes U+E000 "e" and NUL becomes U+E000 "0"; every other
# character is unchanged. The encoding is a prefix code, so ``starts_with`` on encoded
# keys matches exactly the raw prefixes, and equality is preserved.
_ESC = "\ue000"
_UNESC = re.compile("\ue000(.)", re.DOTALL)


def enc(text: str) -> str:
    """Encode a string for a text/jsonb column (identity unless it holds NUL or U+E000)."""
    if "\x00" not in text and _ESC not in text:
        return text
    return text.replace(_ESC, _ESC + "e").replace("\x00", _ESC + "0")


def dec(text: str) -> str:
    """Inverse of :func:`enc`."""
    if _ESC not in text:
        return text
    return _UNESC.sub(lambda m: _ESC if m.group(1) == "e" else "\x00", text)


def enc_opt(text: str | None) -> str | None:
    """:func:`enc` that passes ``None`` through."""
    return None if text is None else enc(text)


def dec_opt(text: str | None) -> str | None:
    """:func:`dec` that passes ``None`` through."""
    return None if text is None else dec(text)


def enc_json(value: Any) -> Any:
    """Encode every string (keys too) of a JSON-able value; reject what JSON cannot hold."""
    if isinstance(value, str):
        return enc(value)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise InvalidInputError(f"JSON object keys must be strings, got {k!r}")
            out[enc(k)] = enc_json(v)
        return out
    if isinstance(value, list | tuple):
        return [enc_json(v) for v in value]
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidInputError("JSON cannot hold NaN or infinity")
        return value
    raise InvalidInputError(f"not JSON-serialisable: {type(value).__name__}")


def dec_json(value: Any) -> Any:
    """Inverse of :func:`enc_json`."""
    if isinstance(value, str):
        return dec(value)
    if isinstance(value, dict):
        return {dec(k): dec_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [dec_json(v) for v in value]
    return value


def record_params(rec: MemoryRecord) -> dict[str, Any]:
    """Query parameters of one record row (encoded, with its tsvector literal).

    Raises:
        InvalidInputError: a field of the wrong type, an unknown enum value, metadata that
            is not JSON, or a lone surrogate.
    """
    from psycopg.types.json import Jsonb

    if not isinstance(rec, MemoryRecord):
        raise InvalidInputError(f"expected a MemoryRecord, got {type(rec).__name__}")
    for name in ("id", "user_id", "key", "value", "normalized", "system_context", "scope_ref"):
        v = getattr(rec, name)
        if not isinstance(v, str):
            raise InvalidInputError(f"record {name} must be a string")
        try:
            v.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidInputError(f"record {name} is not valid Unicode") from exc
    try:
        return {
            "id": enc(rec.id), "user_id": enc(rec.user_id),
            "system_context": enc(rec.system_context), "kind": Kind(rec.kind).value,
            "key": enc(rec.key), "scope": Scope(rec.scope).value, "scope_ref": enc(rec.scope_ref),
            "value": enc(rec.value), "normalized": enc(rec.normalized),
            "source": Source(rec.source).value, "confidence": float(rec.confidence),
            "version": int(rec.version), "status": Status(rec.status).value,
            "created_at": as_utc(rec.created_at), "updated_at": as_utc(rec.updated_at),
            "valid_until": as_utc(rec.valid_until) if rec.valid_until else None,
            "permanent": bool(rec.permanent), "hard": bool(rec.hard),
            "explicit": bool(rec.explicit), "evidence": int(rec.evidence),
            "supersedes": enc_opt(rec.supersedes),
            "provenance": Jsonb(enc_json(rec.provenance.to_dict())),
            "metadata": Jsonb(enc_json(dict(rec.metadata))),
            "search": to_tsvector_literal([
                (re.sub(r"[._:/-]+", " ", rec.key), "A"),
                (rec.value, "B"),
                (rec.normalized if rec.normalized != rec.value else "", "B"),
                (rec.provenance.span or "", "C"),
            ]),
        }  # fmt: skip
    except (ValueError, TypeError, AttributeError) as exc:
        raise InvalidInputError(f"invalid record {rec.id!r}: {exc}") from exc


def row_to_record(row: Sequence[Any]) -> MemoryRecord:
    """A :class:`MemoryRecord` from a row selected with :data:`COLS`."""
    d = dict(zip(COLUMNS, row, strict=False))
    return MemoryRecord(
        id=dec(d["id"]), user_id=dec(d["user_id"]), system_context=dec(d["system_context"]),
        kind=Kind(d["kind"]), key=dec(d["key"]), scope=Scope(d["scope"]),
        scope_ref=dec(d["scope_ref"]), value=dec(d["value"]), normalized=dec(d["normalized"]),
        source=Source(d["source"]), confidence=float(d["confidence"]), version=int(d["version"]),
        status=Status(d["status"]), created_at=as_utc(d["created_at"]),
        updated_at=as_utc(d["updated_at"]),
        valid_until=as_utc(d["valid_until"]) if d["valid_until"] is not None else None,
        permanent=bool(d["permanent"]), hard=bool(d["hard"]), explicit=bool(d["explicit"]),
        evidence=int(d["evidence"]), supersedes=dec_opt(d["supersedes"]),
        provenance=Provenance.from_dict(dec_json(d["provenance"] or {})),
        metadata=dec_json(d["metadata"] or {}),
    )  # fmt: skip


def row_to_audit(r: Sequence[Any]) -> AuditEntry:
    """An :class:`AuditEntry` from a row selected with :data:`AUDIT_COLS`."""
    return AuditEntry(
        id=dec(r[0]), user_id=dec(r[1]), action=dec(r[2]), record_id=dec_opt(r[3]),
        key=dec_opt(r[4]), actor=dec(r[5]), at=as_utc(r[6]), session_id=dec_opt(r[7]),
        turn_id=dec_opt(r[8]), detail=dec_json(r[9] or {}),
    )  # fmt: skip


def audit_params(a: AuditEntry) -> tuple[Any, ...]:
    """Parameters of :data:`INSERT_AUDIT` for one entry (encoded)."""
    from psycopg.types.json import Jsonb

    if not isinstance(a, AuditEntry) or not isinstance(a.user_id, str):
        raise InvalidInputError("audit entries must be AuditEntry with a string user_id")
    try:
        return (
            enc(a.id), enc(a.user_id), enc(a.action), enc_opt(a.record_id), enc_opt(a.key),
            enc(a.actor), as_utc(a.at), enc_opt(a.session_id), enc_opt(a.turn_id),
            Jsonb(enc_json(dict(a.detail))),
        )  # fmt: skip
    except (TypeError, AttributeError) as exc:
        raise InvalidInputError(f"invalid audit entry: {exc}") from exc


def conflict_params(c: Conflict) -> tuple[Any, ...]:
    """Parameters of :data:`UPSERT_CONFLICT` for one conflict (encoded)."""
    if not isinstance(c, Conflict) or not isinstance(c.user_id, str):
        raise InvalidInputError("conflicts must be Conflict with a string user_id")
    return (
        enc(c.id), enc(c.user_id), enc(c.system_context), enc(c.key),
        [enc(x) for x in c.record_ids], enc(c.reason), enc(c.question), as_utc(c.detected_at),
        as_utc(c.resolved_at) if c.resolved_at else None,
    )  # fmt: skip


def row_to_conflict(r: Sequence[Any]) -> Conflict:
    """A :class:`Conflict` from a row selected with :data:`CONFLICT_COLS`."""
    return Conflict(
        id=dec(r[0]), user_id=dec(r[1]), system_context=dec(r[2]), key=dec(r[3]),
        record_ids=tuple(dec(x) for x in r[4]), reason=dec(r[5]), question=dec(r[6]),
        detected_at=as_utc(r[7]), resolved_at=as_utc(r[8]) if r[8] is not None else None,
    )  # fmt: skip


def touch_params(t: Any) -> dict[str, Any]:
    """Parameters of :data:`TOUCH_USER` for a :class:`~.protocols.UserTouch` (encoded)."""
    return {
        "u": enc(t.user_id), "sessions": int(t.sessions), "turns": int(t.turns),
        "at": as_utc(t.at), "sid": enc_opt(t.session_id),
    }  # fmt: skip


def user_params(s: UserState) -> tuple[Any, ...]:
    """Parameters of :data:`UPSERT_USER` (encoded)."""
    if not isinstance(s, UserState) or not isinstance(s.user_id, str):
        raise InvalidInputError("user_state must be a UserState with a string user_id")
    return (
        enc(s.user_id), bool(s.memory_enabled), int(s.sessions), int(s.turns),
        as_utc(s.first_seen) if s.first_seen else None,
        as_utc(s.last_seen) if s.last_seen else None, enc_opt(s.last_session_id),
    )  # fmt: skip


def row_to_user(r: Sequence[Any]) -> UserState:
    """A :class:`UserState` from a row selected with :data:`USER_COLS`."""
    return UserState(
        user_id=dec(r[0]), memory_enabled=bool(r[1]), sessions=int(r[2]), turns=int(r[3]),
        first_seen=as_utc(r[4]) if r[4] else None, last_seen=as_utc(r[5]) if r[5] else None,
        last_session_id=dec_opt(r[6]),
    )  # fmt: skip


def find_query(flt: Any, *, include_archive: bool) -> tuple[str, dict[str, Any]]:
    """SQL and parameters of ``find(RecordFilter)``, newest first."""
    head = ["user_id = %(user_id)s"]
    where: list[str] = []
    p: dict[str, Any] = {"user_id": enc(flt.user_id)}

    def among(col: str, name: str, values: Sequence[Any] | None, neg: bool = False) -> None:
        if values is None:
            return
        where.append(f"{col} <> ALL(%({name})s)" if neg else f"{col} = ANY(%({name})s)")
        p[name] = [v.value if hasattr(v, "value") else enc(v) for v in values]

    if flt.system_context is not None:
        head.append("system_context = %(ctx)s")
        p["ctx"] = enc(flt.system_context)
    among("status", "statuses", flt.statuses)
    among("kind", "kinds", flt.kinds)
    if flt.exclude_kinds:
        among("kind", "xkinds", flt.exclude_kinds, neg=True)
    among("key", "keys", flt.keys)
    if flt.key_prefixes is not None:
        where.append(
            "EXISTS (SELECT 1 FROM unnest(%(prefixes)s::text[]) x WHERE starts_with(key, x))"
        )
        p["prefixes"] = [enc(x) for x in flt.key_prefixes]
    among("scope_ref", "refs", flt.scope_refs)
    if flt.value_normalized is not None:
        where.append("normalized = %(norm)s")
        p["norm"] = enc(flt.value_normalized)
    cond = " AND ".join(where) or "TRUE"
    if flt.also_ids:  # the search hits, OR-ed with the predicates (same user, context)
        cond = f"({cond}) OR id = ANY(%(also_ids)s)"
        p["also_ids"] = [enc(x) for x in flt.also_ids]
    cond = f"{' AND '.join(head)} AND ({cond})"
    q = f"SELECT {COLS} FROM records WHERE {cond}"
    if include_archive:
        q += f" UNION ALL SELECT {COLS} FROM records_archive WHERE {cond}"
    q += " ORDER BY updated_at DESC, version DESC, id DESC"
    if flt.limit is not None:
        q += " LIMIT %(limit)s"
        p["limit"] = max(int(flt.limit), 0)
    return q, p
