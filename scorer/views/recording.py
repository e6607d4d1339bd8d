"""What the record and event pages share: the unfinished hand's hint and waits, who
records, the phone's entry in progress, and a round another phone recorded first."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django_htmx.http import HttpResponseClientRedirect

from rules import waits
from rules.tiles import parse_tile, tile_str, tiles_str
from scorer import phone
from scorer.entry.pick import HAND_SIZE, MAX_TAPS, Pick
from scorer.language import is_zh, seat_name
from scorer.models import GameSession, Round
from scorer.present.picker import FACES
from scorer.present.words import author_label
from scorer.templatetags.scorer_format import sign_class
from scorer.views import HtmxHttpRequest


def _unfinished_hand(session: GameSession, p: Pick, out: dict[str, Any]) -> dict[str, Any] | None:
    """`out` with what the winning hand still lacks (tiles, the win tile, its waits
    when one tile short), or None when the hand is complete."""
    if p.n_tiles < HAND_SIZE - 1:
        n = HAND_SIZE - p.n_tiles
        out["hint"] = ngettext(
            "Tap the tiles of the winning hand: %(n)s more.",
            "Tap the tiles of the winning hand: %(n)s more.",
            n,
        ) % {"n": n}
        return out
    if p.n_tiles == HAND_SIZE - 1:
        return _waits(session, p, out)
    if p.win_tile is None:
        out["hint"] = gettext("Choose the winning tile.")
        return out
    return None


def _waits(session: GameSession, p: Pick, out: dict[str, Any]) -> dict[str, Any]:
    """One tile short: the engine's waits, shown as tiles to tap."""
    hand = p._tiles_hand()
    tiles = sorted((*p.concealed, *([p.win_tile] if p.win_tile is not None else [])))
    sit = {"ruleset": session.ruleset, "params": dict(session.resolved_params()),
           "concealed": tiles_str(tiles), "melds": hand.get("melds", []),
           "wild": [tile_str(t) for t in p.wild_kinds()]}  # fmt: skip
    w = waits(sit)
    if not w["ok"]:
        e = w["error"]
        out["message"] = e["message_zh"] if is_zh() else e["message"]
        return out
    out["waits"] = [FACES[parse_tile(c)] for c in w["waits"]]
    out["hint"] = (
        gettext("One tile short: tap the winning tile.")
        if out["waits"]
        else gettext("No tile completes this hand.")
    )
    return out


# ---------------------------------------------------------------- who records


def who_records(request: HtmxHttpRequest, session: GameSession, p: Pick) -> None:
    """Read the bar's "recorded by" seat: the phone remembers it for this table."""
    if "me" in request.POST:
        phone.set_my_seat(request, session, phone.read_seat(request.POST.get("me"), session))
    if not p.author:
        p.author = phone.my_name(request, session)


def _author(request: HtmxHttpRequest, session: GameSession, p: Pick) -> str:
    return p.author or phone.my_name(request, session)


def _done(request: HtmxHttpRequest, session: GameSession, url: str) -> HttpResponse:
    """The entry is recorded (or dropped): the phone forgets it, and goes to `url`."""
    phone.clear_draft(request, session)
    return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)


# ---------------------------------------------------------------- a round recorded meanwhile


def taken_round(
    session: GameSession, p: Pick, open_number: int | None = None
) -> dict[str, Any] | None:
    """The round another phone recorded after this form was opened for it, as the
    form shows it (who recorded it, its result); None while the form is current.

    `open_number`: the round in progress this form adds events to, which is the
    round it was opened for, not one taken from it.
    """
    if p.for_round is None or p.for_round == open_number:
        return None
    next_number = session.next_number()
    if p.for_round >= next_number:
        return None
    rnd = (
        session.rounds.filter(number__gte=p.for_round)
        .select_related("current")
        .order_by("-number")
        .first()
    )
    if rnd is None or rnd.current is None:
        return None
    return {**round_summary(session, rnd), "next": next_number}


def round_summary(session: GameSession, rnd: Round) -> dict[str, Any]:
    """A round's current version as the form shows it beside the entry: who recorded
    it, its result, each seat's points (a round taken meanwhile, or the correction
    another phone made)."""
    rev = rnd.current
    assert rev is not None
    names = list(session.players)
    result = rev.result if isinstance(rev.result, dict) else {}
    return {
        "number": rnd.number,
        "version": rev.number,
        "author": author_label(rev.author),
        "undone": rnd.status != Round.ACTIVE,
        "winners": [seat_name(names, w) for w in rev.winners or []],
        "total": result.get("total") if rev.kind == "win" else None,
        "draw": rev.kind == "draw",
        "deltas": [
            {"name": seat_name(names, seat), "value": d, "sign": sign_class(d)}
            for seat, d in enumerate(rev.deltas)
        ],
        "url": reverse("scorer:round", args=[session.code, rnd.number]),
    }


def _tapped_seat(request: HtmxHttpRequest) -> int | None:
    """The seat whose per-seat count was just tapped: its fold stays open."""
    tap = request.POST.get("tap", "") if request.method == "POST" else ""
    verb, _, rest = tap.partition(":")
    if verb != "seat_input":
        return None
    seat = rest.split(":")[1] if rest.count(":") >= 2 else ""
    return int(seat) if seat.isdigit() else None


def taps_of(request: HtmxHttpRequest) -> list[str]:
    """The taps a request carries, in the order they were made.

    One from a button; several when the taps made while an answer was on its way
    come together (static/js/taps.js), so that on a slow network the final hand
    and its score are one answer after the last tap, whatever their number.
    """
    return request.POST.getlist("tap")[:MAX_TAPS]
