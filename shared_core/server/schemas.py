"""Request and response bodies of the REST API (pydantic; entities are the core's own)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ..entities import AuditEntry, Change, Conflict, MemoryRecord, ScoredMemory, SessionTurn

#: most messages one ``/v1/observe_messages`` call takes (the body limit applies too)
MAX_MESSAGES = 500


#: the app's label for who wrote (recorded after the credential: ``key:<id>/<actor>``)
Actor = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class UserIn(_In):
    user_id: str


class ObserveIn(_In):
    user_id: str
    text: str
    role: str = "user"
    session_id: str | None = None
    turn_id: str | None = None
    device_id: str | None = None
    system_context: str = "default"
    at: datetime | None = None


class ChatMessageIn(_In):
    """One chat message as ``UserMemory.observe_messages`` takes it (the client sends
    LangChain / LlamaIndex messages in this shape)."""

    role: str
    content: str
    id: str | None = None


class ObserveMessagesIn(UserIn):
    messages: list[ChatMessageIn] = Field(min_length=1, max_length=MAX_MESSAGES)
    session_id: str | None = None
    device_id: str | None = None
    system_context: str = "default"
    at: datetime | None = None


class RememberIn(UserIn):
    key: str
    value: str | int | float | bool
    kind: str = "preference"
    source: str = "user_declare"
    system_context: str = "default"
    scope: str = "global"
    device_id: str | None = None
    session_id: str | None = None
    hard: StrictBool = False
    permanent: StrictBool = False
    valid_until: datetime | None = None
    confidence: float | None = None
    at: datetime | None = None
    actor: Actor = "app"


class _ReadIn(UserIn):
    query: str
    system_context: str = "default"
    device_id: str | None = None
    session_id: str | None = None
    at: datetime | None = None
    include_archive: StrictBool = False


class RecallIn(_ReadIn):
    k: int = 3
    kinds: list[str] | None = None


class ContextIn(_ReadIn):
    token_budget: int = 400
    k: int | None = None


class ProfileIn(UserIn):
    system_context: str = "default"
    device_id: str | None = None


class HistoryIn(UserIn):
    key: str
    system_context: str | None = None


class ForgetKeyIn(UserIn):
    key: str
    system_context: str = "default"
    at: datetime | None = None


class MergeIn(UserIn):
    anon_id: str
    at: datetime | None = None


class ConflictsIn(UserIn):
    system_context: str | None = None
    open_only: StrictBool = True


class ResolveConflictIn(UserIn):
    key: str
    value: str | int | float | bool
    system_context: str = "default"
    at: datetime | None = None
    actor: Actor = "user"


class MemoriesIn(UserIn):
    system_context: str = "default"
    kinds: list[str] | None = None
    key_prefix: str | None = None
    all_versions: StrictBool = False


class SetExpiryIn(UserIn):
    expiries: dict[str, datetime | None] = Field(max_length=1000)
    system_context: str = "default"
    metadata: dict[str, dict[str, Any]] | None = None


class ExportIn(UserIn):
    mask_pii: StrictBool = False


class ImportIn(UserIn):
    data: dict[str, Any]


class EndSessionIn(UserIn):
    session_id: str
    at: datetime | None = None


class SessionTurnsIn(UserIn):
    session_id: str
    limit: int | None = Field(default=None, ge=1)


class MemoryEnabledIn(UserIn):
    enabled: StrictBool


class TokenIn(UserIn):
    ttl_seconds: int | None = Field(default=None, ge=1, le=86_400)


class RequestsIn(_In):
    limit: int = Field(default=100, ge=1, le=10_000)


# -- responses -------------------------------------------------------------------------------------
class ChangesOut(BaseModel):
    changes: list[Change]


class ConflictsOut(BaseModel):
    conflicts: list[Conflict]


class RecallOut(BaseModel):
    results: list[ScoredMemory]


class ContextOut(BaseModel):
    context: str


class ProfileOut(BaseModel):
    profile: dict[str, str]


class RecordsOut(BaseModel):
    records: list[MemoryRecord]


class ErasedOut(BaseModel):
    erased: dict[str, int]


class ImportOut(BaseModel):
    records: int


class EndSessionOut(BaseModel):
    record: MemoryRecord | None


class TurnsOut(BaseModel):
    turns: list[SessionTurn]


class OkOut(BaseModel):
    ok: Literal[True] = True


class AuditOut(BaseModel):
    entries: list[AuditEntry]


class UsersOut(BaseModel):
    users: list[str]


class TokenOut(BaseModel):
    user_id: str
    token: str
    expires_at: datetime


class RequestsOut(BaseModel):
    requests: list[dict[str, Any]]
