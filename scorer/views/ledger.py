"""The ledger (every round, running sums, undone rounds struck through) and one round's
history; what they show is built by scorer/present/ledger.py."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scorer.present.ledger import current_revision, round_page
from scorer.present.ledger import ledger as ledger_page
from scorer.services.access import round_or_404, session_or_404
from scorer.views import HtmxHttpRequest
from scorer.views.live_pages import live_page


@require_safe
def ledger(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Every round: deltas and running sums; undone rounds struck through (2 queries).

    Only the numbers: a round's fans and payments load when its row is opened
    (htmx asks `round_detail` for them), so a long game's ledger stays light.
    """
    session = session_or_404(code)
    show_undone = request.GET.get("undone") == "1"
    return live_page(
        request, "scorer/ledger.html", session, lambda: ledger_page(session, show_undone)
    )


@require_safe
def round_detail(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    """One round: the current version in full and every earlier version.

    `?part=current`: only the current version (what the ledger loads into a
    row when it is opened; 3 queries).
    """
    session = session_or_404(code)
    rnd = round_or_404(session, number)
    if request.GET.get("part") == "current":
        part = current_revision(session, rnd)
        if part is None:
            return HttpResponse("")
        return render(request, "scorer/round.html#revision", part)
    return live_page(request, "scorer/round.html", session, lambda: round_page(session, rnd))
