"""Views shared by the whole site; the table's pages live in the modules beside this one."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_safe

from scorer.live import metrics
from scorer.live.broker import broker

# The request the views declare (`request.htmx`), named where the views' answers are.
from scorer.web.htmx_answers import HtmxHttpRequest

__all__ = ["HtmxHttpRequest", "csv_download", "healthz", "metrics_text"]


def csv_download(text: str, filename: str) -> HttpResponse:
    """A CSV file to save (its text from scorer/clean/spreadsheet.py, BOM included)."""
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness check for load balancers and `curl`: ``{"ok": true, "status": "ok"}``,
    or "degraded" while the live broker's listener is down (the pages still work,
    the phones poll).  Never waits on the broker; its details are for the metrics."""
    return JsonResponse({"ok": True, "status": "ok" if broker().healthy() else "degraded"})


@require_safe
def metrics_text(request: HttpRequest) -> HttpResponse:
    """The live tables' figures for Prometheus (scorer/live/metrics.py): for the loopback
    without a proxy in between, or the bearer token MAHJONG_METRICS_TOKEN; anyone
    else: 404."""
    if not metrics.allowed(request):
        raise Http404("no such page")
    return HttpResponse(metrics.text(), content_type=metrics.CONTENT_TYPE)
