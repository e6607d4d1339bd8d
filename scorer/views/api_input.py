"""The JSON API's edge: every request is checked here before the engine sees it, and
every refusal is the JSON error object (docs/situation.md, "Over HTTP").

Django's own refusals are HTML (the 400 page for a body over
DATA_UPLOAD_MAX_MEMORY_SIZE, an empty 405): a script reading the API would get
something it cannot parse.  So the method, the size, the content type and the
JSON itself are checked here, in that order, each with its status: 405, 413,
415, then 400; the code is always `bad_input`, as for any other bad body.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotFound,
    HttpResponseServerError,
    JsonResponse,
)
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token

from rules import RuleError, json_input
from scorer.services.access import room_of_path, way_back

# Chinese stays readable in the answers; NaN never leaves (strict JSON parsers refuse it).
JSON_OPTIONS: dict[str, Any] = {"ensure_ascii": False, "allow_nan": False}


def answer(body: Mapping[str, Any], status: int = 200) -> JsonResponse:
    return JsonResponse(body, status=status, json_dumps_params=JSON_OPTIONS)


def refusal(status: int, message: str, message_zh: str, code: str = "bad_input") -> JsonResponse:
    """The error object for a request the engine never saw (`id` is null: nothing was read)."""
    body = {"id": None, "ok": False, "error": {"code": code, "message": message,
                                               "message_zh": message_zh}}  # fmt: skip
    return answer(body, status)


View = Callable[..., JsonResponse]


def methods(*allowed: str) -> Callable[[View], View]:
    """Like Django's require_http_methods, but the 405 is the JSON error object."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if request.method not in allowed:
                response = refusal(
                    405,
                    f"use {' or '.join(allowed)} here, not {request.method}",
                    f"这里只能用 {' 或 '.join(allowed)} 请求",
                )
                response["Allow"] = ", ".join(allowed)
                return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


def is_json_type(content_type: str) -> bool:
    """application/json, or a JSON-based type such as application/problem+json."""
    return content_type == "application/json" or (
        content_type.startswith("application/") and content_type.endswith("+json")
    )


def json_object(request: HttpRequest, what: str, what_zh: str) -> dict[str, Any] | JsonResponse:
    """The body as one JSON object, or the refusal to answer with (`what`: what the
    object must be, for the message)."""
    try:
        raw = request.body
    except RequestDataTooBig:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return refusal(
            413,
            f"the body is larger than {limit} bytes",
            f"请求内容超过了 {limit} 字节",
        )
    # An empty body has no type to judge (clients send none with it): it is not JSON, 400.
    if raw and not is_json_type(request.content_type or ""):
        return refusal(
            415,
            f"send the body as JSON (Content-Type: application/json), not "
            f"{request.content_type or 'without a content type'}",
            "请求内容必须是 JSON（Content-Type: application/json）",
        )
    try:
        value = json_input.loads(raw)
    except RuleError as e:
        return answer(e.to_dict(), status=400)
    if not isinstance(value, dict):
        return refusal(400, f"the body must be {what}", f"请求内容必须是{what_zh}")
    return value


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


@requires_csrf_token  # (as Django's own page_not_found: the page's forms carry the token)
def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: under /api/ the JSON error object (an unknown endpoint, a session
    code with no session); elsewhere the site's page."""
    if _is_api(request):
        return refusal(
            404, f"nothing at {request.path[:100]}", "这个地址没有内容", code="not_found"
        )
    # Its way back leads to the start page of the room the address is in (a wrong
    # round of a table of room X: X's), never to the default room's `/`.
    context = {"room": room_of_path(request.path_info)}
    return HttpResponseNotFound(loader.render_to_string("404.html", context, request))


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: under /api/ the JSON error object (the traceback is logged, never
    shown: settings.LOGGING); elsewhere the site's page."""
    if _is_api(request):
        return refusal(
            500,
            "the server failed on this request; the error is logged",
            "服务器处理这个请求时出错了，错误已记录",
            code="server_error",
        )
    # No database here (it may be what failed): the way back is read off the address.
    back = way_back(request.path_info)
    body = loader.get_template("500.html").render({"back": back, "table": back.startswith("/s/")})
    return HttpResponseServerError(body)
