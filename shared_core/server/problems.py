"""RFC 9457 problem details: one stable code per error, both ways over the wire.

The server turns each :class:`~shared_core.errors.UserMemoryError` into a problem document
``{"type", "title", "status", "detail", "code"}`` (``application/problem+json``); the client
turns the document back into the same exception class, so ``except InvalidInputError``
works the same embedded and over HTTP. Framework-free (no FastAPI import).
"""

from __future__ import annotations

from typing import Any

from .. import errors as E

__all__ = ["PROBLEM_TYPE", "error_for", "problem", "problem_for_exception"]

PROBLEM_TYPE = "urn:usermemory:problem:"

# code -> (HTTP status, title, exception class the client raises)
CODES: dict[str, tuple[int, str, type[E.UserMemoryError]]] = {
    "invalid_id": (422, "Invalid id", E.InvalidIdError),
    "text_too_large": (413, "Text too large", E.TextTooLargeError),
    "invalid_input": (422, "Invalid input", E.InvalidInputError),
    "malformed_request": (422, "Malformed request", E.InvalidInputError),
    "body_too_large": (413, "Request body too large", E.InvalidInputError),
    "memory_disabled": (409, "Memory disabled", E.MemoryDisabledError),
    "not_found": (404, "Not found", E.NotFoundError),
    "conflict": (409, "Concurrent update", E.ConflictError),
    "extraction_failed": (502, "Extraction failed", E.ExtractionError),
    "backend_unavailable": (503, "Backend unavailable", E.BackendUnavailableError),
    "backend_error": (500, "Backend error", E.BackendError),
    "config_error": (500, "Server configuration error", E.ConfigError),
    "missing_dependency": (501, "Missing dependency", E.UserMemoryError),
    "unauthorized": (401, "Unauthorized", E.UserMemoryError),
    "token_expired": (401, "Token expired", E.UserMemoryError),
    "user_forbidden": (403, "Forbidden", E.UserMemoryError),
    "context_forbidden": (403, "Forbidden", E.UserMemoryError),
    "forbidden": (403, "Forbidden", E.UserMemoryError),
    "rate_limited": (429, "Too many requests", E.UserMemoryError),
    "method_not_allowed": (405, "Method not allowed", E.UserMemoryError),
    "unsupported_media_type": (415, "Unsupported media type", E.InvalidInputError),
    "internal_error": (500, "Internal error", E.UserMemoryError),
}

# most specific first: subclasses before their bases
_BY_CLASS: tuple[tuple[type[E.UserMemoryError], str], ...] = (
    (E.InvalidIdError, "invalid_id"),
    (E.TextTooLargeError, "text_too_large"),
    (E.InvalidInputError, "invalid_input"),
    (E.UnknownBackendError, "config_error"),
    (E.ConfigError, "config_error"),
    (E.MissingDependencyError, "missing_dependency"),
    (E.MemoryDisabledError, "memory_disabled"),
    (E.NotFoundError, "not_found"),
    (E.ConflictError, "conflict"),
    (E.ExtractionError, "extraction_failed"),
    (E.BackendUnavailableError, "backend_unavailable"),
    (E.BackendError, "backend_error"),
)


def problem(code: str, detail: str, *, status: int | None = None) -> dict[str, Any]:
    """The problem document for ``code`` (its default status unless ``status`` is given)."""
    default_status, title, _ = CODES.get(code, CODES["internal_error"])
    return {
        "type": PROBLEM_TYPE + code,
        "title": title,
        "status": status or default_status,
        "detail": detail,
        "code": code,
    }


def problem_for_exception(exc: E.UserMemoryError) -> dict[str, Any]:
    """The problem document for a core error."""
    code = next((c for cls, c in _BY_CLASS if isinstance(exc, cls)), "internal_error")
    return problem(code, str(exc))


class ServerError(E.UserMemoryError):
    """A problem answered by the server that has no closer class in the error tree.

    Attributes: ``status`` (HTTP), ``code`` (stable problem code), ``problem`` (the document).
    """

    def __init__(self, message: str, *, status: int, code: str, problem: dict[str, Any]) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.problem = problem


def error_for(status: int, body: Any) -> E.UserMemoryError:
    """The exception a client raises for an error response (``body``: its parsed JSON)."""
    doc = body if isinstance(body, dict) else {}
    code = str(doc.get("code") or "internal_error")
    detail = str(doc.get("detail") or doc.get("title") or f"HTTP {status}")
    cls = CODES.get(code, CODES["internal_error"])[2]
    if cls is E.UserMemoryError:
        return ServerError(f"{code}: {detail}", status=status, code=code, problem=doc)
    if cls is E.MissingDependencyError:  # pragma: no cover - not in CODES
        return ServerError(detail, status=status, code=code, problem=doc)
    err = cls(detail)
    err.status = status  # type: ignore[attr-defined]
    err.code = code  # type: ignore[attr-defined]
    return err
