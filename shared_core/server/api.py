"""The versioned REST endpoints (``/v1/...``): one per library method, all ``POST`` with a
JSON body, so user ids never appear in URLs or logs. Each handler checks the caller
(:func:`principal`) and calls :class:`~shared_core.server.service.MemoryService`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from starlette.concurrency import run_in_threadpool

from ..entities import MemoryRecord
from .auth import AuthError, KeyStore, Principal
from .schemas import (
    AuditOut,
    ChangesOut,
    ConflictsIn,
    ConflictsOut,
    ContextIn,
    ContextOut,
    EndSessionIn,
    EndSessionOut,
    ErasedOut,
    ExportIn,
    ForgetKeyIn,
    HistoryIn,
    ImportIn,
    ImportOut,
    MemoriesIn,
    MemoryEnabledIn,
    MergeIn,
    ObserveIn,
    ObserveMessagesIn,
    OkOut,
    ProfileIn,
    ProfileOut,
    RecallIn,
    RecallOut,
    RecordsOut,
    RememberIn,
    RequestsIn,
    RequestsOut,
    ResolveConflictIn,
    SessionTurnsIn,
    SetExpiryIn,
    TokenIn,
    TokenOut,
    TurnsOut,
    UserIn,
    UsersOut,
)
from .service import MemoryService

__all__ = ["bearer", "principal", "router"]


def bearer(request: Request) -> str:
    """The ``Authorization: Bearer`` credential; :class:`AuthError` when missing."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise AuthError("send 'Authorization: Bearer <API key or end-user token>'")
    return value.strip()


async def principal(request: Request) -> Principal:
    """The caller of an API request (a FastAPI dependency); rate-limited per key."""
    store: KeyStore = request.app.state.keys
    credential = bearer(request)
    # a key read within the last second is checked on the loop; else a worker thread reads it
    p = store.authenticate_cached(credential)
    if p is None:
        p = await run_in_threadpool(store.authenticate, credential)
    request.state.key_id = p.key_id
    request.state.tenant = p.tenant
    request.app.state.limiter.check(p.key_id)
    return p


async def service(request: Request) -> MemoryService:
    # async on purpose: FastAPI runs a sync dependency in a worker thread (a thread hop
    # per request for an attribute read)
    svc: MemoryService = request.app.state.service
    return svc


Auth = Annotated[Principal, Depends(principal)]
Svc = Annotated[MemoryService, Depends(service)]

router = APIRouter(prefix="/v1")


def who(request: Request, user_id: str) -> str:
    """Note the user of the call for the request log; returns it."""
    request.state.user_id = user_id
    return user_id


# -- writes ----------------------------------------------------------------------------------------
@router.post("/observe", response_model=ChangesOut, tags=["write"])
async def observe(body: ObserveIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Feed one turn; returns what changed (``UserMemory.observe``)."""
    args = body.model_dump(exclude={"user_id"})
    return {"changes": await svc.observe(p, who(request, body.user_id), args)}


@router.post("/observe_messages", response_model=ChangesOut, tags=["write"])
async def observe_messages(body: ObserveMessagesIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Feed a conversation in order, in one session (``UserMemory.observe_messages``):
    every message is checked before any is written; every message's changes, in order."""
    args = body.model_dump(exclude={"user_id", "messages"})
    msgs = [m.model_dump() for m in body.messages]
    return {"changes": await svc.observe_messages(p, who(request, body.user_id), msgs, args)}


@router.post("/remember", response_model=MemoryRecord, tags=["write"])
async def remember(body: RememberIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Write one memory from application code (``UserMemory.remember``)."""
    args = body.model_dump(exclude={"user_id", "key", "value"})
    return await svc.remember(p, who(request, body.user_id), body.key, body.value, args)


@router.post("/resolve_conflict", response_model=MemoryRecord, tags=["write"])
async def resolve_conflict(body: ResolveConflictIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Answer the open confirmation question on a key (``UserMemory.resolve_conflict``)."""
    return await svc.resolve_conflict(
        p,
        who(request, body.user_id),
        body.key,
        body.value,
        system_context=body.system_context,
        at=body.at,
        actor=body.actor,
    )


@router.post("/set_expiry", response_model=RecordsOut, tags=["write"])
async def set_expiry(body: SetExpiryIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Set when memories stop being used, by record id (``UserMemory.set_expiry``)."""
    recs = await svc.set_expiry(
        p,
        who(request, body.user_id),
        body.expiries,
        system_context=body.system_context,
        metadata=body.metadata,
    )
    return {"records": recs}


@router.post("/forget_key", response_model=ChangesOut, tags=["write"])
async def forget_key(body: ForgetKeyIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Revoke one key and its sub-keys (``UserMemory.forget_key``)."""
    changes = await svc.forget_key(
        p, who(request, body.user_id), body.key, system_context=body.system_context, at=body.at
    )
    return {"changes": changes}


@router.post("/forget", response_model=ErasedOut, tags=["write"])
async def forget(body: UserIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Erase everything about a user in every store (``UserMemory.forget``); final."""
    return {"erased": await svc.forget(p, who(request, body.user_id))}


@router.post("/import", response_model=ImportOut, tags=["write"])
async def import_(body: ImportIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Load an export of this user back (``UserMemory.import_user``)."""
    return {"records": await svc.import_user(p, who(request, body.user_id), body.data)}


@router.post("/merge_anonymous", response_model=ChangesOut, tags=["write"])
async def merge_anonymous(body: MergeIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Move a visitor's memory to the signed-in user (``UserMemory.merge_anonymous``)."""
    changes = await svc.merge_anonymous(p, body.anon_id, who(request, body.user_id), at=body.at)
    return {"changes": changes}


@router.post("/end_session", response_model=EndSessionOut, tags=["write"])
async def end_session(body: EndSessionIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Close a session and store its episode (``UserMemory.end_session``)."""
    rec = await svc.end_session(p, who(request, body.user_id), body.session_id, body.at)
    return {"record": rec}


@router.post("/set_memory_enabled", response_model=OkOut, tags=["write"])
async def set_memory_enabled(body: MemoryEnabledIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Pause or resume memory for a user (``UserMemory.set_memory_enabled``)."""
    await svc.set_memory_enabled(p, who(request, body.user_id), body.enabled)
    return {"ok": True}


# -- reads -----------------------------------------------------------------------------------------
@router.post("/recall", response_model=RecallOut, tags=["read"])
async def recall(body: RecallIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Scored memories for a query (``UserMemory.recall``)."""
    args = body.model_dump(exclude={"user_id", "query"})
    return {"results": await svc.recall(p, who(request, body.user_id), body.query, args)}


@router.post("/context", response_model=ContextOut, tags=["read"])
async def context(body: ContextIn, p: Auth, svc: Svc, request: Request) -> Any:
    """The prompt block for a query (``UserMemory.context``)."""
    args = body.model_dump(exclude={"user_id", "query"})
    return {"context": await svc.context(p, who(request, body.user_id), body.query, args)}


@router.post("/profile", response_model=ProfileOut, tags=["read"])
async def profile(body: ProfileIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Current key -> value map (``UserMemory.profile``)."""
    prof = await svc.profile(
        p, who(request, body.user_id), system_context=body.system_context, device_id=body.device_id
    )
    return {"profile": prof}


@router.post("/history", response_model=RecordsOut, tags=["read"])
async def history(body: HistoryIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Every version of one key (``UserMemory.history``)."""
    recs = await svc.history(
        p, who(request, body.user_id), body.key, system_context=body.system_context
    )
    return {"records": recs}


@router.post("/memories", response_model=RecordsOut, tags=["read"])
async def memories(body: MemoriesIn, p: Auth, svc: Svc, request: Request) -> Any:
    """The user's memories in one context, filtered (``UserMemory.memories``)."""
    recs = await svc.memories(
        p,
        who(request, body.user_id),
        system_context=body.system_context,
        kinds=body.kinds,
        key_prefix=body.key_prefix,
        all_versions=body.all_versions,
    )
    return {"records": recs}


@router.post("/conflicts", response_model=ConflictsOut, tags=["read"])
async def conflicts(body: ConflictsIn, p: Auth, svc: Svc, request: Request) -> Any:
    """The user's (open) conflicts (``UserMemory.conflicts``)."""
    found = await svc.conflicts(
        p, who(request, body.user_id), system_context=body.system_context, open_only=body.open_only
    )
    return {"conflicts": found}


@router.post("/export", tags=["read"])
async def export(body: ExportIn, p: Auth, svc: Svc, request: Request) -> dict[str, Any]:
    """Everything held about a user (``UserMemory.export``)."""
    return await svc.export(p, who(request, body.user_id), mask_pii=body.mask_pii)


@router.post("/session_turns", response_model=TurnsOut, tags=["read"])
async def session_turns(body: SessionTurnsIn, p: Auth, svc: Svc, request: Request) -> Any:
    """The turns kept in short-term session memory (``UserMemory.session_turns``)."""
    turns = await svc.session_turns(p, who(request, body.user_id), body.session_id, body.limit)
    return {"turns": turns}


@router.post("/audit", response_model=AuditOut, tags=["read"])
async def audit(body: UserIn, p: Auth, svc: Svc, request: Request) -> Any:
    """The user's audit log (``UserMemory.audit_log``)."""
    return {"entries": await svc.audit_log(p, who(request, body.user_id))}


@router.post("/users", response_model=UsersOut, tags=["read"])
async def users(p: Auth, svc: Svc) -> Any:
    """The tenant's users (an end-user token sees only itself)."""
    return {"users": await svc.users(p)}


# -- keys and tokens -------------------------------------------------------------------------------
@router.post("/tokens", response_model=TokenOut, tags=["auth"])
async def tokens(body: TokenIn, p: Auth, svc: Svc, request: Request) -> Any:
    """Mint a short-lived end-user token (for ``/me`` or MCP) for one user of the tenant."""
    if p.is_end_user:
        raise AuthError("an end-user token cannot mint tokens", status=403, code="forbidden")
    p.check_user_wide()
    user_id = who(request, body.user_id)
    svc.check_user(p, user_id)
    store: KeyStore = request.app.state.keys
    key = await run_in_threadpool(store.get, p.key_id)
    assert key is not None
    ttl = body.ttl_seconds or request.app.state.settings.token_ttl_seconds
    token, exp = await run_in_threadpool(store.mint_token, key, user_id, ttl_seconds=ttl)
    return {"user_id": user_id, "token": token, "expires_at": exp}


@router.post("/requests", response_model=RequestsOut, tags=["auth"])
async def requests(body: RequestsIn, p: Auth, request: Request) -> Any:
    """The tenant's request log, newest first (every request with the key that made it)."""
    if p.is_end_user:
        raise AuthError("the request log is for API keys", status=403, code="forbidden")
    store: KeyStore = request.app.state.keys
    rows = await run_in_threadpool(store.request_log, tenant=p.tenant, limit=body.limit)
    return {"requests": rows}
