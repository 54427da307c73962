"""Pinecone's wire side for :mod:`shared_core.storage.pinecone`: the URL and its
parameters, vector ids (``<user_hash>#<record_id>``), request limits and the SDK's error
types."""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..entities import Kind
from ..errors import ConfigError, InvalidInputError, MissingDependencyError
from ..ids import user_digest

__all__ = [
    "DENSE_FIELD",
    "LIST_PAGE",
    "LOOKUP_CHUNK",
    "MAX_BATCH_BYTES",
    "MAX_BATCH_VECTORS",
    "MAX_DELETE_IDS",
    "MAX_TOP_K",
    "parse_pinecone_url",
    "user_hash",
]

DENSE_FIELD = "_values"  # the reserved schema field a 2026-07 vector index is addressed by
MAX_BATCH_VECTORS = 100  # Pinecone recommends upsert batches of up to 100 vectors
MAX_BATCH_BYTES = 2_000_000  # and caps a request at 2 MB
MAX_DELETE_IDS = 1000  # ids per delete request
LIST_PAGE = 100  # the largest page ``list`` returns
LOOKUP_CHUNK = 100  # record ids resolved per fetch_by_metadata request
MAX_TOP_K = 10_000
_ID_SEP = "#"
_HASH_LEN = 32
_MAX_VECTOR_ID = 512
_INDEX_NAME_RE = re.compile(r"^[a-z0-9]([a-z0-9-]{0,43}[a-z0-9])?$")
_URL_PARAMS = frozenset(
    {"namespace", "host", "index_host", "cloud", "region", "dimension", "create", "timeout",
     "api_key", "metric"}
)  # fmt: skip


def user_hash(user_id: str) -> str:
    """The id prefix of a user's vectors: the first 32 hex digits of SHA-256 of the id."""
    return user_digest(user_id).hex()[:_HASH_LEN]


def _vector_id(user_id: str, record_id: str) -> str:
    return f"{user_hash(user_id)}{_ID_SEP}{record_id}"


def _record_id(vector_id: str) -> str:
    return vector_id.split(_ID_SEP, 1)[1] if _ID_SEP in vector_id else vector_id


def _import_pinecone() -> ModuleType:
    try:
        import pinecone
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise MissingDependencyError("pinecone", "pinecone") from exc
    return pinecone


def _errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(unavailable, failed) exception types of the SDK, for :func:`map_backend_errors`."""
    from pinecone.errors.exceptions import (
        PineconeConnectionError,
        PineconeError,
        PineconeTimeoutError,
        ServiceError,
    )

    return (PineconeConnectionError, PineconeTimeoutError, ServiceError), (PineconeError,)


def _kind(value: object) -> str:
    try:
        return Kind(str(value)).value
    except ValueError as exc:
        raise InvalidInputError(f"unknown kind {value!r}") from exc


def parse_pinecone_url(url: str) -> dict[str, Any]:
    """Split a ``pinecone://INDEX?...`` URL into :class:`PineconeVectorIndex` arguments.

    Args:
        url: the backend URL (see the module docstring for the parameters).

    Returns:
        Keyword arguments for :class:`PineconeVectorIndex` (``index_name`` included).

    Raises:
        ConfigError: wrong scheme, bad index name, unknown or malformed parameter.
    """
    parts = urlsplit(url)
    if parts.scheme != "pinecone":
        raise ConfigError(f"not a pinecone:// URL: {parts.scheme}://")
    name = parts.netloc
    if not _INDEX_NAME_RE.match(name):
        raise ConfigError(
            f"bad Pinecone index name {name!r}: 1-45 lowercase letters, digits or '-'"
        )
    raw = parse_qs(parts.query, keep_blank_values=True)
    unknown = sorted(set(raw) - _URL_PARAMS)
    if unknown:
        raise ConfigError(f"unknown pinecone:// URL parameter(s): {', '.join(unknown)}")
    q = {k: v[-1] for k, v in raw.items()}
    out: dict[str, Any] = {"index_name": name}
    for key in ("namespace", "host", "index_host", "cloud", "region", "api_key", "metric"):
        if key in q:
            out[key] = q[key]
    if "dimension" in q:
        try:
            out["dimension"] = int(q["dimension"])
        except ValueError as exc:
            raise ConfigError(f"dimension must be an integer, got {q['dimension']!r}") from exc
    if "timeout" in q:
        try:
            out["timeout"] = float(q["timeout"])
        except ValueError as exc:
            raise ConfigError(f"timeout must be a number, got {q['timeout']!r}") from exc
    if "create" in q:
        flag = q["create"].lower()
        if flag not in ("true", "false", "1", "0", "yes", "no"):
            raise ConfigError(f"create must be true or false, got {q['create']!r}")
        out["create_if_missing"] = flag in ("true", "1", "yes")
    return out
