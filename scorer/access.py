"""Small access helpers: a session is reachable only through its unguessable code."""

from __future__ import annotations

from django.http import Http404

from scorer.models import GameSession, Round


def session_or_404(code: str) -> GameSession:
    try:
        return GameSession.objects.get(code=code)
    except GameSession.DoesNotExist:
        raise Http404("no such session") from None


def round_or_404(session: GameSession, number: int) -> Round:
    try:
        return session.rounds.select_related("current").get(number=number)
    except Round.DoesNotExist:
        raise Http404("no such round") from None
