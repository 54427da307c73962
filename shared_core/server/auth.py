"""API keys, tenants, end-user tokens and the request audit log of the memory server.

* **API keys** (``umk_<id>.<secret>``) belong to one tenant and name the
  ``system_context`` values they may read and write (``*`` = all). Only a SHA-256 of the
  secret is stored; the plain key is shown once, by ``usermemory keys create``. Secrets are
  256 random bits, so a fast hash is enough (no dictionary to guess from).
* **Tenants** namespace user ids: tenant ``acme``'s user ``u1`` is stored as ``acme/u1``,
  so two tenants' ``u1`` never meet. The tenant comes from the key, never from the request.
* **End-user tokens** are short-lived HS256 JWTs (PyJWT) minted by an API key for one user.
  They reach only that user, and die with the key that minted them.
* **Request log**: every request is recorded with the key id that made it.

The tables live in their own database (``USERMEMORY_KEYS_URL``: ``sqlite:///path`` or
``postgresql://...``; default a ``server.db`` next to the embedded memory file), created by
the project's migration runner (PostgreSQL: in schema ``usermemory_server``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .. import _forksafe
from ..errors import (
    BackendUnavailableError,
    ConfigError,
    InvalidInputError,
    NotFoundError,
    UnknownBackendError,
)
from ..storage.migrations import SQLITE, Dialect, Migration, run_migrations
from ..storage.sqlite_base import leave_inherited

__all__ = [
    "ALL_CONTEXTS",
    "ApiKey",
    "AuthError",
    "KeyStore",
    "Principal",
    "check_tenant",
    "default_keys_url",
    "external_user",
    "internal_user",
]

ALL_CONTEXTS = "*"
_TENANT_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
_KEY_RE = re.compile(r"umk_([0-9a-f]{16})\.([A-Za-z0-9_-]{20,100})")
_PG_SCHEMA = "usermemory_server"
TOKEN_TYPE = "usermemory.user"

_MIGRATIONS = (
    Migration(
        id=1,
        name="server_keys",
        statements=(
            "CREATE TABLE IF NOT EXISTS api_keys (id TEXT PRIMARY KEY, tenant TEXT NOT NULL,"
            " name TEXT NOT NULL, secret_hash TEXT NOT NULL, contexts TEXT NOT NULL,"
            " created_at TEXT NOT NULL, revoked_at TEXT)",
            "CREATE TABLE IF NOT EXISTS server_secret (id INTEGER PRIMARY KEY,"
            " secret TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS request_log (at TEXT NOT NULL, key_id TEXT,"
            " tenant TEXT, user_id TEXT, method TEXT NOT NULL, path TEXT NOT NULL,"
            " status INTEGER NOT NULL, ms REAL NOT NULL)",
            "CREATE INDEX IF NOT EXISTS request_log_key ON request_log (key_id, at)",
        ),
    ),
)


class AuthError(Exception):
    """A request's credentials are missing, unknown, revoked, expired or not allowed here.

    ``status`` is 401 (who are you?) or 403 (you may not); ``code`` is the stable problem code.
    """

    def __init__(self, detail: str, *, status: int = 401, code: str = "unauthorized") -> None:
        super().__init__(detail)
        self.status = status
        self.code = code


def check_tenant(tenant: Any) -> str:
    """A tenant id: 1-63 characters of ``a-z 0-9 _ -``, starting with a letter or digit."""
    if not isinstance(tenant, str) or not _TENANT_RE.fullmatch(tenant):
        raise InvalidInputError(
            f"tenant must be 1-63 characters of a-z, 0-9, '_' or '-'; got {tenant!r}"
        )
    return tenant


def internal_user(tenant: str, user_id: str) -> str:
    """The stored user id of tenant ``tenant``'s user ``user_id`` (``tenant/user_id``)."""
    return f"{tenant}/{user_id}"


def external_user(tenant: str, stored: str) -> str | None:
    """Inverse of :func:`internal_user`; ``None`` when ``stored`` is another tenant's."""
    prefix = f"{tenant}/"
    return stored[len(prefix) :] if stored.startswith(prefix) else None


@dataclass(frozen=True, slots=True)
class ApiKey:
    """One application key (never holds the secret)."""

    id: str
    tenant: str
    name: str
    contexts: tuple[str, ...]
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def all_contexts(self) -> bool:
        return ALL_CONTEXTS in self.contexts

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tenant": self.tenant,
            "name": self.name,
            "contexts": list(self.contexts),
            "created_at": self.created_at.isoformat(),
            "revoked_at": self.revoked_at.isoformat() if self.revoked_at else None,
        }


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a tenant's API key, or one end user of a tenant (``user_id`` set)."""

    tenant: str
    key_id: str
    contexts: tuple[str, ...]
    user_id: str | None = None  # set for end-user tokens: the only user they reach

    @property
    def is_end_user(self) -> bool:
        return self.user_id is not None

    def may_use_context(self, system_context: str) -> bool:
        return ALL_CONTEXTS in self.contexts or system_context in self.contexts

    def check_context(self, system_context: str) -> None:
        if not self.may_use_context(system_context):
            raise AuthError(
                f"this credential may not use system_context {system_context!r}",
                status=403,
                code="context_forbidden",
            )

    def check_user(self, user_id: str) -> str:
        """The stored id of ``user_id`` for this principal; 403 for another end user."""
        if self.user_id is not None and user_id != self.user_id:
            raise AuthError(
                "an end-user token reaches only its own user", status=403, code="user_forbidden"
            )
        return internal_user(self.tenant, user_id)

    def check_user_wide(self) -> None:
        """Erase, export, import and the memory switch span every context of a user."""
        if not self.is_end_user and ALL_CONTEXTS not in self.contexts:
            raise AuthError(
                "this call spans every system_context; it needs a key with contexts '*'",
                status=403,
                code="context_forbidden",
            )


def default_keys_url() -> str:
    """``USERMEMORY_KEYS_URL`` or ``server.db`` in the user data directory."""
    env = os.environ.get("USERMEMORY_KEYS_URL")
    if env:
        return env
    import platformdirs

    path = Path(platformdirs.user_data_dir("usermemory", appauthor=False)) / "server.db"
    return f"sqlite:///{path}"


#: queued request-log lines written at once by the request that queues the last one (the
#: server's flusher normally writes them every second, off the event loop)
_LOG_QUEUE_MAX = 5000


#: PostgreSQL connections inherited across ``os.fork()``: never used or closed by the child
#: (closing one would send Terminate on the socket the parent still uses).
_INHERITED: list[Any] = []


class _NotCached(Exception):
    """``cached_only``: the answer needs a database read."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _dt(v: Any) -> datetime | None:
    return datetime.fromisoformat(v) if isinstance(v, str) else v


class KeyStore:
    """API keys, the token signing secret and the request log, in SQLite or PostgreSQL.

    Args:
        url: ``sqlite:///path.db``, ``sqlite:///:memory:`` or ``postgresql://...``;
            default :func:`default_keys_url`.
        cache_seconds: how long a verified key is trusted before it is read again. A revoke
            through this object takes effect at once; one made by another process (the CLI)
            within this many seconds.
    """

    def __init__(self, url: str | None = None, *, cache_seconds: float = 1.0) -> None:
        self.url = url or default_keys_url()
        self._lock = threading.Lock()  # the database connection
        # the key cache and the queued log lines have their own locks: the event loop
        # touches them on every request and must never wait for a database write
        self._cache_lock = threading.Lock()
        self._cache: dict[str, tuple[float, ApiKey | None, str]] = {}
        self._cache_seconds = cache_seconds
        self._log_lock = threading.Lock()
        self._log: list[tuple[Any, ...]] = []
        self._secret: bytes | None = None
        self._pid = os.getpid()
        self._closed = False
        self._in_call = False  # a thread is inside a database call (read at a fork)
        self._reopen = False  # after a fork: this process opens its own connection first
        self._unusable: str | None = None  # after a fork: why it cannot (the reason raised)
        self._path = ""
        dialect: Dialect
        if self.url.startswith("sqlite:///"):
            self._path = self.url[len("sqlite:///") :]
            if self._path != ":memory:":
                Path(self._path).parent.mkdir(parents=True, exist_ok=True)
            self._ph = "?"
            dialect = SQLITE
        elif self.url.startswith(("postgresql://", "postgres://")):
            self._ph = "%s"
            from ..storage.postgres_sql import postgres_dialect

            dialect = postgres_dialect(_PG_SCHEMA)
        else:
            raise UnknownBackendError(
                f"keys URL must be sqlite:///... or postgresql://..., got {self.url!r}"
            )
        self._conn: Any = self._connect()
        with self._lock:
            run_migrations(self._conn, _MIGRATIONS, dialect=dialect)
        _forksafe.track(self)  # a server built before a fork (gunicorn --preload)

    def _connect(self) -> Any:
        """A new connection of this process."""
        if self._ph == "?":
            conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 5000")
            if self._path != ":memory:":
                conn.execute("PRAGMA journal_mode = WAL")
            return conn
        try:
            import psycopg
        except ImportError as exc:
            from ..errors import MissingDependencyError

            raise MissingDependencyError("psycopg", "postgres") from exc
        pg = psycopg.connect(self.url, autocommit=True)
        pg.execute(f"CREATE SCHEMA IF NOT EXISTS {_PG_SCHEMA}")
        pg.execute(f"SET search_path TO {_PG_SCHEMA}")
        return pg

    def after_fork(self) -> None:
        """In a child process after ``os.fork()`` (a server app built before the fork:
        gunicorn ``--preload``): new locks, an empty log queue (the parent writes the lines
        it queued, once) and a database connection of this process, opened on first use.

        The parent's connection is never used by the child. SQLite: the idle inherited
        handle is closed in the child (see
        :func:`~shared_core.storage.sqlite_base.leave_inherited`), or, if a thread was
        inside a database call at the fork, left alone and every call of this store
        raises :class:`BackendUnavailableError` in this process. PostgreSQL: the inherited
        connection is kept referenced and never closed (that would end the parent's
        session). The key cache and the token secret are kept (the parent's, still valid).
        """
        if self._pid == os.getpid():
            return
        self._pid = os.getpid()
        busy = self._in_call  # the lock alone may be held between two calls: not busy
        self._lock = threading.Lock()
        self._cache_lock = threading.Lock()
        self._log_lock = threading.Lock()
        self._log = []
        if self._closed or self._reopen:
            return
        if self._ph == "?":
            fate = leave_inherited(self._conn, busy=busy, in_memory=self._path == ":memory:")
            if fate == "stranded":
                self._unusable = (
                    f"the key store {self.url!r} was in use by another thread when this "
                    "process was forked; build the server app in this process"
                )
            self._reopen = fate != "kept"
        else:
            _INHERITED.append(self._conn)
            self._reopen = True

    def _connection(self) -> Any:
        """This process's connection (under ``_lock``), opened first after a fork."""
        if self._reopen:
            if self._unusable is not None:
                raise BackendUnavailableError(self._unusable)
            self._conn = self._connect()
            self._reopen = False
        return self._conn

    def _q(self, sql: str) -> str:
        return sql.replace("?", self._ph)

    def _exec(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            conn = self._connection()
            self._in_call = True
            try:
                cur = conn.execute(self._q(sql), tuple(params))
                try:
                    return list(cur.fetchall()) if cur.description else []
                finally:
                    cur.close()
            finally:
                self._in_call = False

    # -- keys ------------------------------------------------------------------------------------
    def create_key(
        self, tenant: str, *, name: str = "", contexts: Iterable[str] = (ALL_CONTEXTS,)
    ) -> tuple[ApiKey, str]:
        """Create a key; returns it and the plain key (shown once, never stored)."""
        tenant = check_tenant(tenant)
        ctx = tuple(dict.fromkeys(contexts))
        if not ctx or any(not isinstance(c, str) or not c.strip() for c in ctx):
            raise InvalidInputError("contexts must be non-empty names (or '*')")
        key_id = secrets.token_hex(8)
        secret = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        self._exec(
            "INSERT INTO api_keys (id, tenant, name, secret_hash, contexts, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (key_id, tenant, name, _hash(secret), json.dumps(list(ctx)), now.isoformat()),
        )
        return ApiKey(key_id, tenant, name, ctx, now), f"umk_{key_id}.{secret}"

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke a key (its end-user tokens die with it). Raises NotFoundError if unknown."""
        rows = self._exec("SELECT id FROM api_keys WHERE id = ?", (key_id,))
        if not rows:
            raise NotFoundError(f"no API key {key_id!r}")
        self._exec(
            "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            (datetime.now(UTC).isoformat(), key_id),
        )
        with self._cache_lock:
            self._cache.clear()
        key = self.get(key_id)
        assert key is not None
        return key

    def get(self, key_id: str) -> ApiKey | None:
        rows = self._exec(
            "SELECT id, tenant, name, contexts, created_at, revoked_at, secret_hash"
            " FROM api_keys WHERE id = ?",
            (key_id,),
        )
        return self._row_key(rows[0]) if rows else None

    def _row_key(self, r: tuple[Any, ...]) -> ApiKey:
        created = _dt(r[4])
        assert created is not None
        return ApiKey(str(r[0]), str(r[1]), str(r[2]), tuple(json.loads(r[3])), created, _dt(r[5]))

    def list_keys(self, tenant: str | None = None) -> list[ApiKey]:
        sql = "SELECT id, tenant, name, contexts, created_at, revoked_at FROM api_keys"
        rows = (
            self._exec(sql + " WHERE tenant = ? ORDER BY created_at", (tenant,))
            if tenant
            else self._exec(sql + " ORDER BY created_at")
        )
        return [self._row_key(r) for r in rows]

    def _active_key(self, key_id: str, *, cached_only: bool = False) -> tuple[ApiKey | None, str]:
        """The live key and its stored digest (``None``: unknown or revoked), from the
        cache when it was read less than ``cache_seconds`` ago; with ``cached_only``,
        :class:`_NotCached` instead of a database read."""
        now = time.monotonic()
        with self._cache_lock:
            hit = self._cache.get(key_id)
        if hit is not None and now - hit[0] < self._cache_seconds:
            return hit[1], hit[2]
        if cached_only:
            raise _NotCached
        rows = self._exec(
            "SELECT id, tenant, name, contexts, created_at, revoked_at, secret_hash"
            " FROM api_keys WHERE id = ?",
            (key_id,),
        )
        key = self._row_key(rows[0]) if rows else None
        digest = str(rows[0][6]) if rows else ""
        if key is not None and key.revoked_at is not None:
            key = None
        with self._cache_lock:
            if len(self._cache) > 10_000:
                self._cache.clear()
            self._cache[key_id] = (now, key, digest)
        return key, digest

    def verify_key(self, plain: str, *, cached_only: bool = False) -> ApiKey:
        """The live key for a plain key; raises :class:`AuthError` (401) otherwise."""
        m = _KEY_RE.fullmatch(plain)
        if m is None:
            raise AuthError("malformed API key")
        key, digest = self._active_key(m.group(1), cached_only=cached_only)
        if key is None or not hmac.compare_digest(digest, _hash(m.group(2))):
            raise AuthError("unknown or revoked API key")
        return key

    # -- end-user tokens -------------------------------------------------------------------------
    def _signing_secret(self, *, cached_only: bool = False) -> bytes:
        if self._secret is None:
            if cached_only:
                raise _NotCached
            rows = self._exec("SELECT secret FROM server_secret WHERE id = 1")
            if not rows:
                env = os.environ.get("USERMEMORY_TOKEN_SECRET")
                if env is not None and len(env) < 32:
                    raise ConfigError("USERMEMORY_TOKEN_SECRET must be at least 32 characters")
                candidate = env or secrets.token_urlsafe(48)
                if self._ph == "?":
                    self._exec(
                        "INSERT OR IGNORE INTO server_secret (id, secret) VALUES (1, ?)",
                        (candidate,),
                    )
                else:
                    self._exec(
                        "INSERT INTO server_secret (id, secret) VALUES (1, %s)"
                        " ON CONFLICT (id) DO NOTHING",
                        (candidate,),
                    )
                rows = self._exec("SELECT secret FROM server_secret WHERE id = 1")
            self._secret = str(rows[0][0]).encode()
        return self._secret

    def mint_token(
        self, key: ApiKey, user_id: str, *, ttl_seconds: int = 900
    ) -> tuple[str, datetime]:
        """A signed token letting ``user_id`` (of the key's tenant) see only themselves."""
        import jwt

        if not isinstance(ttl_seconds, int) or not 1 <= ttl_seconds <= 86_400:
            raise InvalidInputError("ttl_seconds must be an int in [1, 86400]")
        now = datetime.now(UTC)
        exp = now + timedelta(seconds=ttl_seconds)
        claims = {
            "typ": TOKEN_TYPE,
            "sub": user_id,
            "ten": key.tenant,
            "kid": key.id,
            "iat": int(now.timestamp()),
            "exp": int(exp.timestamp()),
        }
        return jwt.encode(claims, self._signing_secret(), algorithm="HS256"), exp

    def verify_token(self, token: str, *, cached_only: bool = False) -> Principal:
        """The end user a token stands for; :class:`AuthError` if bad, expired or revoked."""
        import jwt

        secret = self._signing_secret(cached_only=cached_only)
        try:
            claims = jwt.decode(
                token,
                secret,
                algorithms=["HS256"],
                options={"require": ["exp", "sub", "ten", "kid", "typ"]},
            )
        except jwt.ExpiredSignatureError as exc:
            raise AuthError("the end-user token has expired", code="token_expired") from exc
        except jwt.PyJWTError as exc:
            raise AuthError(f"invalid end-user token: {exc}") from exc
        if claims.get("typ") != TOKEN_TYPE or not isinstance(claims.get("sub"), str):
            raise AuthError("not a UserMemory end-user token")
        key, _ = self._active_key(str(claims["kid"]), cached_only=cached_only)
        if key is None or key.tenant != claims["ten"]:
            raise AuthError("the key that issued this token was revoked")
        return Principal(
            tenant=key.tenant, key_id=key.id, contexts=(ALL_CONTEXTS,), user_id=claims["sub"]
        )

    def authenticate(self, credential: str) -> Principal:
        """A principal from an ``Authorization: Bearer`` value: an API key or a user token."""
        return self._authenticate(credential, cached_only=False)

    def authenticate_cached(self, credential: str) -> Principal | None:
        """:meth:`authenticate` when it needs no database read (the key was read less than
        ``cache_seconds`` ago), else ``None``: the caller then runs :meth:`authenticate` in
        a worker thread. The server's event loop calls this on every request (a dict look-up
        and a SHA-256), so most requests skip a thread hop. Same checks, same errors."""
        try:
            return self._authenticate(credential, cached_only=True)
        except _NotCached:
            return None

    def _authenticate(self, credential: str, *, cached_only: bool) -> Principal:
        if credential.startswith("umk_"):
            key = self.verify_key(credential, cached_only=cached_only)
            return Principal(tenant=key.tenant, key_id=key.id, contexts=key.contexts)
        return self.verify_token(credential, cached_only=cached_only)

    # -- request log -----------------------------------------------------------------------------
    def log_request(
        self,
        *,
        key_id: str | None,
        tenant: str | None,
        user_id: str | None,
        method: str,
        path: str,
        status: int,
        ms: float,
    ) -> None:
        """Queue one request line; written in batches by :meth:`flush_log`."""
        row = (
            datetime.now(UTC).isoformat(),
            key_id,
            tenant,
            user_id,
            method,
            path[:500],
            status,
            ms,
        )
        with self._log_lock:
            self._log.append(row)
            full = len(self._log) >= _LOG_QUEUE_MAX
        if full:  # the server's flusher writes every second; this bounds the queue without it
            self.flush_log()

    def flush_log(self) -> int:
        """Write the queued request lines; returns how many."""
        with self._lock:  # held while writing: a flush that returned has written its rows
            with self._log_lock:  # held only for the swap: log_request never waits on a write
                rows, self._log = self._log, []
            if not rows:
                return 0
            sql = self._q(
                "INSERT INTO request_log (at, key_id, tenant, user_id, method, path, status, ms)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            )
            conn = self._connection()
            self._in_call = True
            try:
                if self._ph == "?":
                    conn.executemany(sql, rows)
                else:
                    with conn.cursor() as cur:
                        cur.executemany(sql, rows)
            finally:
                self._in_call = False
        return len(rows)

    def request_log(
        self, *, tenant: str | None = None, key_id: str | None = None, limit: int = 1000
    ) -> list[dict[str, Any]]:
        """The most recent request lines, newest first."""
        self.flush_log()
        where, params = [], []
        if tenant is not None:
            where.append("tenant = ?")
            params.append(tenant)
        if key_id is not None:
            where.append("key_id = ?")
            params.append(key_id)
        sql = "SELECT at, key_id, tenant, user_id, method, path, status, ms FROM request_log"
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = self._exec(sql + f" ORDER BY at DESC LIMIT {int(limit)}", params)
        cols = ("at", "key_id", "tenant", "user_id", "method", "path", "status", "ms")
        return [dict(zip(cols, r, strict=True)) for r in rows]

    def ping(self) -> None:
        self._exec("SELECT 1")

    def close(self) -> None:
        if self._closed:
            return
        try:
            self.flush_log()
        finally:
            _forksafe.untrack(self)
            with self._lock:
                self._closed = True
                if not self._reopen:  # forked, no connection of its own yet: none to close
                    self._conn.close()
