"""Export a table (CSV, JSON) and import an exported JSON as a new table."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from rules import RuleError, json_input
from scorer import phone
from scorer.access import session_or_404
from scorer.export import import_table, table_csv, table_json
from scorer.views import HtmxHttpRequest, by_language, csv_download

__all__ = ["export", "import_view"]

MAX_IMPORT = 5 * 1024 * 1024  # an evening's table is a few hundred kB at most


@require_safe
def export(request: HtmxHttpRequest, code: str, fmt: str) -> HttpResponse:
    session = session_or_404(code)
    name = f"mahjong-{session.created_at:%Y%m%d}-{session.code}"
    if fmt == "json":
        response: HttpResponse = JsonResponse(
            table_json(session), json_dumps_params={"ensure_ascii": False, "indent": 1}
        )
    elif fmt == "csv":  # in the page's language and local time (scorer/spreadsheet.py)
        return csv_download(table_csv(session), name)
    else:
        raise Http404("no such format")
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


@require_POST
def import_view(request: HtmxHttpRequest) -> HttpResponse:
    """A table exported as JSON becomes a new table (new link), re-scored round by round."""
    upload = request.FILES.get("file")
    if upload is None or upload.size is None or upload.size > MAX_IMPORT:
        messages.warning(request, gettext("Choose an exported table (a .json file under 5 MB)."))
        return redirect("scorer:home")
    try:
        # Strict JSON (rules/json_input.py): NaN or a lone surrogate would reach the database.
        data = json_input.loads(upload.read())
    except RuleError:
        messages.warning(request, gettext("This file is not an exported table (not JSON)."))
        return redirect("scorer:home")
    try:
        session = import_table(data)
    except RuleError as e:
        messages.warning(request, by_language(e.message_zh, e.message))
        return redirect("scorer:home")
    phone.remember_table(request, session)
    messages.success(request, gettext("Table imported: the same rounds, the same totals."))
    return redirect("scorer:session", code=session.code)
