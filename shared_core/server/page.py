"""``/me``: what the memory knows about the signed-in person, and their controls over it.

Server-rendered Jinja2 (autoescaped: stored text is shown, never run), plain HTML forms that
work without JavaScript (a small script only improves the erase confirmation), English and
Chinese. The person signs in with an end-user token from their app (``/me?token=...``,
moved at once into an HttpOnly, SameSite=Strict cookie); every action goes through the same
:class:`~shared_core.server.service.MemoryService` as the API, so it reaches only them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from .. import _forksafe
from ..errors import UserMemoryError
from .auth import AuthError, Principal

if TYPE_CHECKING:
    from .app import ServerSettings
    from .auth import KeyStore
    from .middleware import RateLimiter
    from .service import MemoryService

__all__ = ["STRINGS", "register_page"]

_HERE = Path(__file__).parent
_COOKIE = "um_token"
_LANG_COOKIE = "um_lang"
_CSP = (
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
_KIND_ORDER = ("constraint", "preference", "fact", "relationship", "event", "episode")

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "title": "What we remember about you",
        "skip": "Skip to your memories",
        "intro": "Everything kept about you, where and when you said it, and how sure we are. "
        "You can correct, delete, pause or erase it.",
        "kind.constraint": "Rules you set",
        "kind.preference": "Preferences",
        "kind.fact": "Facts",
        "kind.relationship": "People",
        "kind.event": "Events",
        "kind.episode": "Past conversations",
        "value": "Value",
        "said": "Said",
        "session": "session",
        "words": "Your words",
        "confidence": "Confidence",
        "context": "Area",
        "source": "Source",
        "history": "Version history",
        "version": "version",
        "correct": "Correct",
        "new_value": "Correct value for",
        "save": "Save correction",
        "delete": "Delete",
        "delete_label": "Delete this memory:",
        "nothing": "Nothing is remembered about you.",
        "conflicts": "Waiting for your confirmation",
        "choose": "Follow this:",
        "answer_other": "Something else for",
        "answer": "Save my answer",
        "paused": "Memory is paused: nothing new is remembered.",
        "active": "Memory is on.",
        "pause": "Pause memory",
        "resume": "Resume memory",
        "export": "Download everything (JSON)",
        "erase": "Erase everything",
        "erase_title": "Erase everything we remember about you?",
        "erase_text": "This deletes every memory, its history and your conversations from every "
        "store. It cannot be undone.",
        "erase_confirm_label": "Type ERASE to confirm",
        "erase_word": "ERASE",
        "erase_button": "Erase everything now",
        "cancel": "Cancel",
        "erased": "Everything we remembered about you has been erased.",
        "done.corrected": "Saved your correction.",
        "done.resolved": "Saved your answer; the question is closed.",
        "done.deleted": "Deleted.",
        "done.paused": "Memory paused.",
        "done.resumed": "Memory resumed.",
        "signin": "Open this page from the link in your app to sign in.",
        "expired": "Your sign-in link has expired; open the page again from your app.",
        "error": "That did not work",
        "language": "中文",
        "status.active": "current",
        "status.superseded": "replaced",
        "status.revoked": "deleted",
        "status.pending": "not yet confirmed",
        "controls": "Your controls",
        "turns": "conversation turns kept",
    },
    "zh": {
        "title": "我们记住了关于你的什么",
        "skip": "跳到你的记忆",
        "intro": "这里是关于你保存的全部内容：你在何时何处说过、我们有多确定。"
        "你可以更正、删除、暂停或全部清除。",
        "kind.constraint": "你定下的规则",
        "kind.preference": "偏好",
        "kind.fact": "事实",
        "kind.relationship": "人物关系",
        "kind.event": "事件",
        "kind.episode": "过去的对话",
        "value": "内容",
        "said": "说于",
        "session": "会话",
        "words": "你的原话",
        "confidence": "置信度",
        "context": "范围",
        "source": "来源",
        "history": "版本历史",
        "version": "版本",
        "correct": "更正",
        "new_value": "更正后的内容：",
        "save": "保存更正",
        "delete": "删除",
        "delete_label": "删除这条记忆：",
        "nothing": "目前没有关于你的任何记忆。",
        "conflicts": "等待你确认",
        "choose": "以此为准：",
        "answer_other": "其他答案：",
        "answer": "保存我的回答",
        "paused": "记忆已暂停：不会记住新的内容。",
        "active": "记忆已开启。",
        "pause": "暂停记忆",
        "resume": "恢复记忆",
        "export": "下载全部内容（JSON）",
        "erase": "全部清除",
        "erase_title": "清除我们记住的关于你的一切？",
        "erase_text": "这会从所有存储中删除每条记忆、它的历史和你的对话，且无法恢复。",
        "erase_confirm_label": "输入 ERASE 以确认",
        "erase_word": "ERASE",
        "erase_button": "立即全部清除",
        "cancel": "取消",
        "erased": "我们记住的关于你的一切都已清除。",
        "done.corrected": "已保存你的更正。",
        "done.resolved": "已保存你的回答，问题已关闭。",
        "done.deleted": "已删除。",
        "done.paused": "记忆已暂停。",
        "done.resumed": "记忆已恢复。",
        "signin": "请从你的应用中的链接打开此页面以登录。",
        "expired": "登录链接已过期，请从应用中重新打开此页面。",
        "error": "操作未成功",
        "language": "English",
        "status.active": "当前",
        "status.superseded": "已被替换",
        "status.revoked": "已删除",
        "status.pending": "尚未确认",
        "controls": "你的控制",
        "turns": "条对话记录",
    },
}


class _Templates:
    """The page's jinja2 environment; its template cache has a lock a parent thread may
    hold at a fork (a server built before the fork: gunicorn ``--preload``)."""

    def __init__(self) -> None:
        self.env = Environment(
            loader=FileSystemLoader(str(_HERE / "templates")),
            autoescape=select_autoescape(["html"], default=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        _forksafe.track(self)

    def after_fork(self) -> None:
        """In a forked child: a new cache lock (the compiled templates are kept)."""
        _forksafe.renew_lock_attrs(self.env.cache)


def _lang(request: Request) -> str:
    asked = request.query_params.get("lang") or request.cookies.get(_LANG_COOKIE)
    if asked in STRINGS:
        return str(asked)
    accept = request.headers.get("accept-language", "").lower()
    return "zh" if accept.startswith("zh") else "en"


def _csrf(token: str) -> str:
    return hashlib.sha256(b"usermemory-csrf:" + token.encode()).hexdigest()[:32]


def group_memories(export: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Current memories by kind, each with its version history, from an export."""
    slots: dict[tuple[str, str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for rec in export.get("records", []):
        slots[(rec["system_context"], rec["kind"], rec["key"], rec["scope_ref"])].append(rec)
    groups: dict[str, list[dict[str, Any]]] = {k: [] for k in _KIND_ORDER}
    for versions in slots.values():
        versions.sort(key=lambda r: (r["version"], r["updated_at"]))
        live = [r for r in versions if r["status"] in ("active", "pending")]
        if not live:
            continue
        current = live[-1]
        groups.setdefault(current["kind"], []).append({"current": current, "versions": versions})
    for items in groups.values():
        items.sort(key=lambda m: m["current"]["updated_at"], reverse=True)
    return {k: v for k, v in groups.items() if v}


def open_conflicts(export: dict[str, Any]) -> list[dict[str, Any]]:
    """The open confirmation questions of an export, each with the values it asks about."""
    values = {r["id"]: r["value"] for r in export.get("records", [])}
    out = []
    for c in export.get("conflicts", []):
        if c.get("resolved_at") or not c.get("question"):
            continue
        choices = list(dict.fromkeys(values[i] for i in c["record_ids"] if i in values))
        out.append({**c, "choices": choices})
    return out


def register_page(
    app: FastAPI,
    svc: MemoryService,
    keys: KeyStore,
    limiter: RateLimiter,
    cfg: ServerSettings,
) -> None:
    """Add ``/me`` and its actions to ``app``."""
    from starlette.concurrency import run_in_threadpool

    templates = app.state.page_templates = _Templates()

    def render(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        lang = _lang(request)
        other = "zh" if lang == "en" else "en"
        template = templates.env.get_template(name)
        html = template.render(t=STRINGS[lang], lang=lang, other_lang=other, **ctx)
        resp = HTMLResponse(html, status_code=status)
        resp.headers["Content-Security-Policy"] = _CSP
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers["Cache-Control"] = "no-store"
        if request.query_params.get("lang") in STRINGS:
            resp.set_cookie(_LANG_COOKIE, lang, samesite="strict", httponly=True, path="/me")
        return resp

    async def signed_in(request: Request) -> tuple[Principal, str, str]:
        token = request.cookies.get(_COOKIE)
        if not token:
            raise AuthError("not signed in")
        p = await run_in_threadpool(keys.verify_token, token)
        assert p.user_id is not None
        state = request.scope.setdefault("state", {})
        state["key_id"], state["tenant"], state["user_id"] = p.key_id, p.tenant, p.user_id
        limiter.check(p.key_id)
        return p, p.user_id, token

    async def form(request: Request, token: str) -> dict[str, str]:
        data = {k: str(v) for k, v in (await request.form()).items()}
        if not hmac.compare_digest(data.get("csrf", ""), _csrf(token)):
            raise AuthError(
                "the form is stale or forged; reload the page", status=403, code="forbidden"
            )
        return data

    def back(done: str) -> RedirectResponse:
        return RedirectResponse(f"/me?{urlencode({'done': done})}", status_code=303)

    def failed(request: Request, exc: Exception) -> HTMLResponse:
        if isinstance(exc, AuthError):
            status = exc.status
            msg = STRINGS[_lang(request)]["expired" if exc.code == "token_expired" else "signin"]
            if exc.status == 403 or exc.status == 429:
                msg = str(exc)
        else:
            status = 409 if "disabled" in type(exc).__name__.lower() else 422
            msg = str(exc)
        resp = render(request, "message.html", status=status, message=msg, error=True)
        if isinstance(exc, AuthError) and exc.status == 401:
            resp.delete_cookie(_COOKIE, path="/me")
        return resp

    @app.get("/me", response_class=HTMLResponse, tags=["page"])
    async def me(request: Request) -> Response:
        """The self-service page (sign in with ``?token=<end-user token>``)."""
        token = request.query_params.get("token")
        if token:
            try:
                await run_in_threadpool(keys.verify_token, token)
            except AuthError as exc:
                return failed(request, exc)
            lang = request.query_params.get("lang")
            resp = RedirectResponse("/me" + (f"?lang={lang}" if lang in STRINGS else ""), 303)
            resp.set_cookie(
                _COOKIE,
                token,
                httponly=True,
                samesite="strict",
                path="/me",
                secure=request.url.scheme == "https",
                max_age=cfg.token_ttl_seconds,
            )
            return resp
        try:
            p, user, tok = await signed_in(request)
            data = await svc.export(p, user)
        except (AuthError, UserMemoryError) as exc:
            return failed(request, exc)
        state = data.get("state") or {}
        turns = sum(len(t) for t in (data.get("sessions") or {}).values())
        return render(
            request,
            "me.html",
            user_id=user,
            groups=group_memories(data),
            conflicts=open_conflicts(data),
            enabled=state.get("memory_enabled", True),
            turns=turns,
            csrf=_csrf(tok),
            done=request.query_params.get("done", ""),
        )

    @app.post("/me/correct", tags=["page"])
    async def correct(request: Request) -> Response:
        try:
            p, user, tok = await signed_in(request)
            f = await form(request, tok)
            scope_ref = f.get("scope_ref", "")
            extra: dict[str, Any] = {
                "kind": f.get("kind", "preference"),
                "system_context": f.get("system_context", "default"),
            }
            if scope_ref.startswith("device:"):
                extra.update(scope="device", device_id=scope_ref[len("device:") :])
            elif scope_ref.startswith("session:"):
                extra.update(scope="session", session_id=scope_ref[len("session:") :])
            key, value, ctx = f.get("key", ""), f.get("value", ""), extra["system_context"]
            # correcting a key whose question is open answers it: the declaration is
            # written and the question closed in one step
            waiting = await svc.conflicts(p, user, system_context=ctx)
            if any(c["key"] == key for c in waiting):
                await svc.resolve_conflict(p, user, key, value, system_context=ctx)
                return back("resolved")
            # the person's own correction: a user declaration, the strongest user source
            await svc.remember(p, user, key, value, {**extra, "source": "user_declare"})
        except (AuthError, UserMemoryError) as exc:
            return failed(request, exc)
        return back("corrected")

    @app.post("/me/resolve", tags=["page"])
    async def resolve(request: Request) -> Response:
        try:
            p, user, tok = await signed_in(request)
            f = await form(request, tok)
            await svc.resolve_conflict(
                p,
                user,
                f.get("key", ""),
                f.get("value", ""),
                system_context=f.get("system_context", "default"),
            )
        except (AuthError, UserMemoryError) as exc:
            return failed(request, exc)
        return back("resolved")

    @app.post("/me/delete", tags=["page"])
    async def delete(request: Request) -> Response:
        try:
            p, user, tok = await signed_in(request)
            f = await form(request, tok)
            await svc.forget_key(
                p, user, f.get("key", ""), system_context=f.get("system_context", "default")
            )
        except (AuthError, UserMemoryError) as exc:
            return failed(request, exc)
        return back("deleted")

    @app.post("/me/pause", tags=["page"])
    async def pause(request: Request) -> Response:
        try:
            p, user, tok = await signed_in(request)
            f = await form(request, tok)
            enabled = f.get("enabled") == "1"
            await svc.set_memory_enabled(p, user, enabled)
        except (AuthError, UserMemoryError) as exc:
            return failed(request, exc)
        return back("resumed" if enabled else "paused")

    @app.get("/me/export", tags=["page"])
    async def export(request: Request) -> Response:
        try:
            p, user, _ = await signed_in(request)
            data = await svc.export(p, user)
        except (AuthError, UserMemoryError) as exc:
            return failed(request, exc)
        return Response(
            json.dumps(data, ensure_ascii=False, indent=2),
            media_type="application/json",
            headers={
                "Content-Disposition": 'attachment; filename="my-memory.json"',
                "Cache-Control": "no-store",
            },
        )

    @app.get("/me/erase", response_class=HTMLResponse, tags=["page"])
    async def erase_confirm(request: Request) -> Response:
        try:
            _, user, tok = await signed_in(request)
        except AuthError as exc:
            return failed(request, exc)
        return render(request, "erase.html", csrf=_csrf(tok), user_id=user)

    @app.post("/me/erase", tags=["page"])
    async def erase(request: Request) -> Response:
        try:
            p, user, tok = await signed_in(request)
            f = await form(request, tok)
            if f.get("confirm", "").strip().upper() != "ERASE":
                return render(
                    request, "erase.html", status=422, csrf=_csrf(tok), user_id=user, retry=True
                )
            await svc.forget(p, user)
        except (AuthError, UserMemoryError) as exc:
            return failed(request, exc)
        resp = render(
            request, "message.html", message=STRINGS[_lang(request)]["erased"], erased=True
        )
        resp.delete_cookie(_COOKIE, path="/me")
        return resp

    @app.get("/me/static/{name}", include_in_schema=False)
    async def static(name: str) -> Response:
        types = {"me.css": "text/css; charset=utf-8", "me.js": "text/javascript; charset=utf-8"}
        if name not in types:
            return Response(status_code=404)
        body = (_HERE / "static" / name).read_bytes()
        return Response(body, media_type=types[name], headers={"Cache-Control": "max-age=300"})
