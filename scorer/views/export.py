"""Export a table (CSV, JSON) and import an exported JSON as a new table."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from rules import REGISTRY, RuleError, json_input
from scorer import phone
from scorer.access import session_or_404
from scorer.export import AlreadyHere, import_table, table_csv, table_json
from scorer.language import by_language, rule_error_text
from scorer.models import GameSession, Round
from scorer.views import HtmxHttpRequest, csv_download

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
    """A table exported as JSON becomes a new table (new link), re-scored round by round.

    A table already here is not imported again: the page says where it is and offers
    a second copy, made only when the file is sent again with `copy_of` (the file
    cannot travel in a form field: browsers never refill a file input, and 5 MB is
    over a form field's limit)."""
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
        session = import_table(data, copy_of=request.POST.get("copy_of", ""))
    except AlreadyHere as e:
        tables = [_described(t) for t in e.tables]
        return render(request, "scorer/import_again.html", {"tables": tables, "origin": e.origin})
    except RuleError as e:
        messages.warning(request, rule_error_text(e))
        return redirect("scorer:home")
    phone.remember_table(request, session)
    messages.success(request, gettext("Table imported: the same rounds, the same totals."))
    return redirect("scorer:session", code=session.code)


def _described(t: GameSession) -> dict[str, Any]:
    """A table as the question lists it: enough to tell it from another copy."""
    rs = REGISTRY.get(t.ruleset)
    return {
        "code": t.code,
        "ruleset": by_language(rs.name_zh, rs.name_en) if rs is not None else t.ruleset,
        "names": by_language("、", ", ").join(str(n) for n in t.players),
        "started": t.created_at,
        "rounds": t.rounds.filter(status=Round.ACTIVE).count(),
        "closed": t.closed_at is not None,
    }
