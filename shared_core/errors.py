"""The one error tree of UserMemory.

Every error the library raises on purpose derives from :class:`UserMemoryError`,
and also from the builtin whose meaning fits, so ``except ValueError`` keeps
working for callers that do not know this library::

    UserMemoryError
    ├── InvalidInputError (ValueError)        bad text, ids, types, sizes
    │   ├── InvalidIdError                    user/session/turn/device ids
    │   └── TextTooLargeError                 text over the configured limit
    ├── ConfigError (ValueError)              bad configuration or URL
    │   └── UnknownBackendError               no backend for a URL scheme
    ├── MissingDependencyError (ImportError)  an optional extra is not installed
    ├── MemoryDisabledError                   writes refused: memory_enabled is off
    ├── NotFoundError (KeyError)              no such record / user / session
    ├── ConflictError                         a write's retry budget ran out
    │   └── UserErasedError                   the user was erased while the write ran
    ├── ExtractionError                       an extractor produced unusable output
    └── BackendError (RuntimeError)           a store failed
        └── BackendUnavailableError           a store cannot be reached
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = [
    "BackendError",
    "BackendUnavailableError",
    "ConfigError",
    "ConflictError",
    "ExtractionError",
    "InvalidIdError",
    "InvalidInputError",
    "MemoryDisabledError",
    "MissingDependencyError",
    "NotFoundError",
    "TextTooLargeError",
    "UnknownBackendError",
    "UserErasedError",
    "UserMemoryError",
    "map_backend_errors",
]


class UserMemoryError(Exception):
    """Root of every error raised by UserMemory on purpose."""


class InvalidInputError(UserMemoryError, ValueError):
    """An argument is of the wrong type, empty, malformed or out of range."""


class InvalidIdError(InvalidInputError):
    """A user, session, turn or device id is not acceptable."""


class TextTooLargeError(InvalidInputError):
    """A text is longer than ``MemoryConfig.max_text_chars``."""


class ConfigError(UserMemoryError, ValueError):
    """The configuration or a backend URL is invalid."""


class UnknownBackendError(ConfigError):
    """No backend is registered for the URL scheme."""


class MissingDependencyError(UserMemoryError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, package: str, extra: str, *, dist: str = "usermemory") -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{package!r} is not installed; install the [{extra}] extra: "
            f'pip install "{dist}[{extra}]"'
        )


class MemoryDisabledError(UserMemoryError):
    """The user switched memory off (``memory_enabled=False``); nothing was written."""


class NotFoundError(UserMemoryError, KeyError):
    """A record, user or session does not exist."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "not found"


class ConflictError(UserMemoryError):
    """Other writers kept changing the user's data for the whole retry budget of a write
    (writes are recomputed and retried internally first); nothing was written."""


class UserErasedError(ConflictError):
    """The user was erased (``forget``) while this write ran: the erase wins, nothing of
    the write was kept. Retrying writes to the new, empty user."""


class ExtractionError(UserMemoryError):
    """An extractor returned output that could not be used."""


class BackendError(UserMemoryError, RuntimeError):
    """A storage backend failed while handling a call; nothing partial was committed."""


class BackendUnavailableError(BackendError):
    """A storage backend cannot be reached (connection refused, closed, timed out)."""


@contextlib.contextmanager
def map_backend_errors(
    backend: str,
    unavailable: tuple[type[BaseException], ...] = (),
    failed: tuple[type[BaseException], ...] = (),
) -> Iterator[None]:
    """Translate driver exceptions into the UserMemory tree at a backend boundary.

    Args:
        backend: name used in the message ("sqlite", "redis", ...).
        unavailable: driver exception types meaning "cannot reach the server".
        failed: driver exception types meaning "the call failed".
    """
    try:
        yield
    except UserMemoryError:
        raise
    except unavailable as exc:
        raise BackendUnavailableError(f"{backend} is unavailable: {exc}") from exc
    except failed as exc:
        raise BackendError(f"{backend} failed: {exc}") from exc
