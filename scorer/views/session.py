"""The table: start a session, follow its totals, undo, the ledger and one round's history.

Plain function views.  Everything that changes a session goes through the
model's own methods (`record_round`, `undo_last`, `Round.revise`); the views
here only read, prepare what the templates show, and call those methods.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import qrcode
import qrcode.image.svg
from django import forms
from django.contrib import messages
from django.db.models import Count, Prefetch
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import get_language, gettext, gettext_lazy
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from rules import REGISTRY, RuleError
from rules.registry import Param, Ruleset
from rules.round import seat_wind
from rules.tiles import parse_tiles, tile_zh
from scorer.access import round_or_404, session_or_404
from scorer.models import GameSession, Round, RoundRevision, Transfer
from scorer.templatetags.scorer_format import sign_class, signed_text
from scorer.views import (
    _BROWSERS,
    _DEVICES,
    HtmxHttpRequest,
    author_of,
    by_language,
    is_zh,
    seat_name,
)
from scorer.views.events import change, describe, join_names

NAME_MAX = 16  # a player's name: short enough for a seat card on a phone

WIND_NAMES = {
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
    "N": gettext_lazy("North"),
}
# A player left unnamed is called after the seat he starts in.
SEAT_NAMES = (
    gettext_lazy("East player"),
    gettext_lazy("South player"),
    gettext_lazy("West player"),
    gettext_lazy("North player"),
)
# What the session page's button for each kind of event says.
EVENT_ACTIONS = {
    "kong": gettext_lazy("Record a kong"),
    "win": gettext_lazy("Record a win"),
    "wall_end": gettext_lazy("The wall ran out"),
    "draw": gettext_lazy("Drawn game"),
}
# The words of `author_of`'s labels ("iPhone WeChat", "phone") that have a name
# in the reader's language; the rest (brands) read the same in both.
DEVICE_WORDS = {
    "phone": gettext_lazy("phone"),
    "WeChat": gettext_lazy("WeChat"),
}
_LABEL_WORDS = {"phone", *(name for _, name in _DEVICES), *(name for _, name in _BROWSERS)}
# A meld as the record form stores it (type, exposed, added) and as players call it.
MELD_NAMES = {
    "chi": gettext_lazy("Chi"),
    "pung": gettext_lazy("Pung"),
    "kong": gettext_lazy("Kong"),
    "concealed_kong": gettext_lazy("Concealed kong"),
    "added_kong": gettext_lazy("Added kong"),
}


# --------------------------------------------------------------------------- helpers


def error_text(error: RuleError) -> str:
    return by_language(error.message_zh, error.message)


def table_rulesets() -> list[Ruleset]:
    """The rulesets a table session can be played with."""
    return [rs for rs in REGISTRY.values() if rs.table_play]


def money_text(amount: Decimal) -> str:
    """Signed, two decimals, or none when the amount is whole: "+12", "−7.50", "0"."""
    q = amount.quantize(Decimal("0.01"))
    if not q:
        return "0"
    if q == q.to_integral_value():
        q = q.quantize(Decimal(1))
    return signed_text(q)


def author_label(author: str | None) -> str:
    """Who changed a round, in the reader's language: "phone" is 手机, "iPhone WeChat" iPhone 微信.

    `author_of` stores an English device summary when the player gave no name;
    a name the player typed is shown as it is.
    """
    words = (author or "").split()
    if not words or not set(words) <= _LABEL_WORDS:
        return author or ""
    return " ".join(str(DEVICE_WORDS.get(w, w)) for w in words)


def etag_of(session: GameSession) -> str:
    """The tallies' ETag: every change bumps the version; the language changes the words."""
    return f'"{session.version}-{get_language()}"'


# --------------------------------------------------------------------------- start a session


def _param_field(p: Param) -> forms.Field:
    """A form field for a ruleset parameter; its value is checked by the ruleset itself."""
    label = by_language(p.label_zh, p.label_en)
    help_text = by_language(p.help_zh, p.help_en)
    field: forms.Field
    if p.type == "bool":
        field = forms.BooleanField(required=False, initial=p.default)
    elif p.type == "choice":
        choices = [(c, by_language(*p.choice_label(c))) for c in p.choices]
        field = forms.CharField(
            required=False, initial=p.default, widget=forms.Select(choices=choices)
        )
    else:
        attrs: dict[str, Any] = {"step": "1" if p.type == "int" else "any"}
        attrs["inputmode"] = "numeric" if p.type == "int" else "decimal"
        if p.min is not None:
            attrs["min"] = p.min if p.type == "float" else int(p.min)
        if p.max is not None:
            attrs["max"] = p.max if p.type == "float" else int(p.max)
        field = forms.CharField(
            required=False, initial=p.default, widget=forms.NumberInput(attrs=attrs)
        )
    field.label = label
    field.help_text = help_text
    return field


def _typed(p: Param, raw: Any) -> Any:
    """What the form sent, as the parameter's type where it reads as one.

    None means "left blank: keep the default".  Text that does not read as a
    number is passed on as it is, so that the ruleset's own check refuses it
    with its own message.
    """
    if p.type == "bool":
        return bool(raw)
    text = (raw or "").strip()
    if not text:
        return None
    if p.type == "int":
        try:
            return int(text)
        except ValueError:
            return text
    if p.type == "float":
        try:
            value = float(text)
        except ValueError:
            return text
        return value if math.isfinite(value) else text
    return text


class StartForm(forms.Form):
    """Start a session: the ruleset, the players, the first dealer, money, the parameters."""

    ruleset = forms.ChoiceField(label=gettext_lazy("Rules"))
    preset = forms.ChoiceField(label=gettext_lazy("Preset"), required=False)
    players = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Players"))
    name_0 = forms.CharField(max_length=NAME_MAX, required=False)
    name_1 = forms.CharField(max_length=NAME_MAX, required=False)
    name_2 = forms.CharField(max_length=NAME_MAX, required=False)
    name_3 = forms.CharField(max_length=NAME_MAX, required=False)
    first_dealer = forms.TypedChoiceField(coerce=int, initial=0, label=gettext_lazy("First dealer"))
    money_per_point = forms.DecimalField(
        required=False,
        min_value=Decimal(0),
        max_digits=10,
        decimal_places=2,
        label=gettext_lazy("Money per point"),
        help_text=gettext_lazy("Optional: shows each player's money beside the points."),
        widget=forms.NumberInput(attrs={"step": "0.01", "inputmode": "decimal", "min": "0"}),
    )

    def __init__(self, rules: Ruleset, *args: Any, preset: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        chosen = rules.preset(preset) or rules.preset("")
        preset_field = self.fields["preset"]
        assert isinstance(preset_field, forms.ChoiceField)
        preset_field.choices = [(p.id, by_language(p.name_zh, p.name_en)) for p in rules.presets]
        preset_field.initial = chosen.id if chosen else ""
        ruleset_field = self.fields["ruleset"]
        assert isinstance(ruleset_field, forms.ChoiceField)
        ruleset_field.choices = [
            (rs.id, by_language(rs.name_zh, rs.name_en)) for rs in table_rulesets()
        ]
        ruleset_field.initial = rules.id
        players = self.fields["players"]
        assert isinstance(players, forms.ChoiceField)
        players.choices = [(n, n) for n in sorted(rules.players, reverse=True)]
        players.initial = max(rules.players)
        dealer = self.fields["first_dealer"]
        assert isinstance(dealer, forms.ChoiceField)
        dealer.choices = [(i, SEAT_NAMES[i]) for i in range(4)]
        for i in range(4):
            self.fields[f"name_{i}"].widget.attrs.update(
                {"placeholder": SEAT_NAMES[i], "autocomplete": "off"}
            )
        start = {**(chosen.params if chosen else {})}
        for p in rules.params:
            field = self.fields[f"param_{p.name}"] = _param_field(p)
            field.initial = start.get(p.name, p.default)

    def seats(self) -> list[dict[str, Any]]:
        """The name fields with the seat each starts in (the template lays them out)."""
        return [
            {"field": self[f"name_{i}"], "seat": i, "wind": list(WIND_NAMES.values())[i]}
            for i in range(4)
        ]

    def param_fields(self) -> list[forms.BoundField]:
        return [self[f"param_{p.name}"] for p in self.rules.params]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        n = cleaned.get("players")
        dealer = cleaned.get("first_dealer")
        if n is not None and dealer is not None and dealer >= n:
            self.add_error(
                "first_dealer",
                gettext("The first dealer must be one of the players at the table."),
            )
        if n is not None:
            names = [
                (cleaned.get(f"name_{i}") or "").strip() or str(SEAT_NAMES[i]) for i in range(n)
            ]
            if len(set(names)) < len(names):
                self.add_error(None, gettext("Two players have the same name."))
            cleaned["names"] = names

        overrides: dict[str, Any] = {}
        for p in self.rules.params:
            key = f"param_{p.name}"
            if key in self.errors:
                continue
            value = _typed(p, cleaned.get(key))
            if value is None:
                continue
            try:
                self.rules.resolve_params({p.name: value})
            except RuleError as e:
                self.add_error(key, error_text(e))
                continue
            if value != p.default:
                overrides[p.name] = value
        try:
            self.rules.resolve_params(overrides)
        except RuleError as e:  # pragma: no cover - each value was checked above
            self.add_error(None, error_text(e))
        cleaned["params"] = overrides
        return cleaned


def _rules_for(ruleset_id: Any) -> Ruleset:
    """The chosen table ruleset, or the first one (the form then says the choice is unknown)."""
    rs = REGISTRY.get(ruleset_id) if isinstance(ruleset_id, str) else None
    if rs is not None and rs.table_play:
        return rs
    return table_rulesets()[0]


def _home(request: HtmxHttpRequest, form: StartForm, status: int = 200) -> HttpResponse:
    return render(request, "scorer/home.html", {"form": form}, status=status)


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The landing page, which is also the form that starts a session."""
    rules = _rules_for(request.GET.get("ruleset"))
    preset = request.GET.get("preset", "") if request.GET.get("ruleset") == rules.id else ""
    form = StartForm(rules, initial={"ruleset": rules.id}, preset=preset)
    if request.htmx and "ruleset" in request.GET:
        # The ruleset select changed: only its own fields (players, parameters).
        return render(request, "scorer/home.html#ruleset_fields", {"form": form})
    return _home(request, form)


@require_POST
def create(request: HtmxHttpRequest) -> HttpResponse:
    rules = _rules_for(request.POST.get("ruleset"))
    form = StartForm(rules, request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    data = form.cleaned_data
    session = GameSession.objects.create(
        ruleset=rules.id,
        preset=data.get("preset") or "",
        # Every value, not only the changed ones: a later change of a default never
        # changes this session's rounds.
        params=dict(rules.resolve_params(data["params"])),
        players=data["names"],
        first_dealer=data["first_dealer"],
        money_per_point=data.get("money_per_point"),
    )
    return redirect("scorer:session", code=session.code)


# --------------------------------------------------------------------------- the session page


def _previous_totals(request: HtmxHttpRequest, n: int) -> list[int] | None:
    """The totals the polling page showed before ("was": "-8,69,-53,-8"), if it sent them."""
    raw = request.GET.get("was", "")
    try:
        was = [int(x) for x in raw.split(",")]
    except ValueError:
        return None
    return was if len(was) == n else None


def _board(session: GameSession, was: list[int] | None = None) -> dict[str, Any]:
    """What the tallies show: seats, totals, the next hand's dealer and wind (one query).

    `was`: the totals the page showed before this poll; a seat whose total moved
    since is marked `changed` (the page flashes it, no script needed).
    """
    rounds = session.standing_rounds()
    totals = session.tallies(rounds)
    table = session.table()
    dealer, wind = session.next_position(rounds)
    names = list(session.players)
    n = len(names)
    # A round played as events: the last one, whose last event can be taken
    # back, and the round in progress, which the page shows event by event.  Once
    # over, the last round stays (folded) until the next one starts: the table
    # checks what was just recorded and what 撤销上一步 would take back.
    events_round = _events_round(rounds[-1], names, table.reasons) if rounds else None
    live = events_round if events_round is not None and events_round["in_progress"] else None
    finished = events_round if events_round is not None and live is None else None
    if live is not None:
        # The seats sit as they do in the round being played, not the next one.
        dealer, wind = live["dealer_seat"], live["wind_code"]
    per_point = session.money_per_point
    seats = []
    for seat, (name, total) in enumerate(zip(names, totals, strict=True)):
        money = None if per_point is None else money_text(total * per_point)
        seats.append(
            {
                "seat": seat,
                "name": name,
                "wind": WIND_NAMES[seat_wind(seat, dealer, n)],
                "dealer": seat == dealer,
                "total": total,
                "money": money,
                "sign": sign_class(total),
                "changed": was is not None and was[seat] != total,
                "out": live is not None and seat in live["out"],
            }
        )
    etag = etag_of(session)
    return {
        "session": session,
        "stepwise": table.stepwise,
        "winds": table.prevalent_wind,
        "event_actions": [
            {"id": e.id, "label": EVENT_ACTIONS.get(e.id, e.zh)} for e in table.events
        ],
        "live": live,
        "finished_round": finished if finished is not None and finished["events"] else None,
        "undo_event": events_round,
        "seats": seats,
        # The next poll sends these back: the answer then marks what moved.
        "poll_vals": json.dumps({"was": ",".join(str(t) for t in totals)}),
        "round_count": len(rounds),
        "last_round": rounds[-1].number if rounds else None,
        "dealer_name": seat_name(names, dealer),
        "wind": WIND_NAMES[wind],
        "etag": etag,
        # Sent back by htmx with every poll: an unchanged session answers 304.
        "poll_headers": json.dumps({"If-None-Match": etag}),
    }


def _events_round(
    rnd: Round, names: Sequence[str], reasons: Mapping[str, tuple[str, str]]
) -> dict[str, Any] | None:
    """A round played as events, as the session page shows it; None for a round recorded whole.

    `count` is the number of events the page shows: taking back the last one
    sends it, so that two phones tapping at once take back one event.
    """
    rev = rnd.current
    if rev is None or rev.kind != RoundRevision.ROUND:
        return None
    entry = rev.entry if isinstance(rev.entry, dict) else {}
    result = rev.result if isinstance(rev.result, dict) else {}
    events = describe(result, names, reasons)
    out = [s for s in result.get("out") or [] if isinstance(s, int)]
    return {
        "number": rnd.number,
        "in_progress": rnd.in_progress,
        "dealer_seat": rev.dealer,
        "wind_code": rev.prevalent_wind,
        "dealer": seat_name(names, rev.dealer),
        "events": events,
        "deltas": [
            {"name": seat_name(names, seat), "value": d, "sign": sign_class(d)}
            for seat, d in enumerate(rev.deltas)
        ],
        "count": len(entry.get("events") or []),
        "last": events[-1]["text"] if events else "",
        "out": out,
        "out_names": join_names([seat_name(names, s) for s in out]),
    }


@require_safe
def detail(request: HtmxHttpRequest, code: str) -> HttpResponse:
    session = session_or_404(code)
    context = _board(session, _previous_totals(request, session.n_players))
    if request.htmx:
        return render(request, "scorer/session.html#tallies", context)
    context["share_url"] = request.build_absolute_uri(
        reverse("scorer:session", args=[session.code])
    )
    return render(request, "scorer/session.html", context)


@require_safe
def tallies(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The polled part of the session page; 304 while the session has not changed."""
    session = session_or_404(code)  # only the session row before deciding
    etag = etag_of(session)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        context = _board(session, _previous_totals(request, session.n_players))
        response = render(request, "scorer/session.html#tallies", context)
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_safe
def qr(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The session link as a QR code (SVG), for the other phones at the table."""
    session = session_or_404(code)
    url = request.build_absolute_uri(reverse("scorer:session", args=[session.code]))
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    out = io.BytesIO()
    image.save(out)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    patch_cache_control(response, private=True, max_age=24 * 3600)
    return response


@require_POST
def undo(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Undo the last standing round, if it is still the one the page showed."""
    session = session_or_404(code)
    last = (
        session.rounds.filter(status=Round.ACTIVE)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    if last is None:
        messages.info(request, gettext("There is no round to undo."))
    elif request.POST.get("round") != str(last):
        # Another phone changed the session since this page was loaded: undoing
        # "the last round" now would undo a round nobody looked at.
        messages.warning(
            request,
            gettext(
                "Nothing was undone: the last round is now round %(number)s. "
                "Check the totals and try again."
            )
            % {"number": last},
        )
    else:
        # expected=last: re-checked under the session lock, closing the race between
        # the check above and the undo (two phones tapping at once undo one round).
        undone = session.undo_last(author=author_of(request), expected=last)
        if undone is None:
            messages.info(request, gettext("There is no round to undo."))
        else:
            messages.success(
                request,
                gettext("Round %(number)s undone. It stays in the ledger, struck through.")
                % {"number": undone.number},
            )
    url = reverse("scorer:session", args=[session.code])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


@require_POST
def undo_event(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Take back the last event of the last round played as events, if the
    page showed that round with that many events."""
    session = session_or_404(code)
    names = list(session.players)
    last = (
        session.rounds.filter(status=Round.ACTIVE)
        .select_related("current")
        .order_by("-number")
        .first()
    )
    reasons = session.table().reasons
    shown = _events_round(last, names, reasons) if last is not None else None
    if last is None or shown is None or not shown["count"]:
        messages.info(request, gettext("There is no event to take back."))
    elif request.POST.get("round") != str(last.number) or request.POST.get("events") != str(
        shown["count"]
    ):
        # Another phone added or took back an event since this page was loaded:
        # "the last event" is now one nobody here has looked at.
        messages.warning(request, _changed_meanwhile(last.number))
    else:
        # expected: re-checked under the session lock (two phones tapping at once).
        rnd = session.undo_last_event(
            author=author_of(request), expected=shown["count"], expected_round=last.number
        )
        if rnd is None:
            messages.warning(request, _changed_meanwhile(last.number))
        elif rnd.status == Round.UNDONE:
            messages.success(
                request,
                gettext(
                    "Took back “%(event)s”, the only event of round %(number)s: the round "
                    "is undone. It stays in the ledger, struck through."
                )
                % {"event": shown["last"], "number": rnd.number},
            )
        else:
            messages.success(
                request,
                gettext("Took back the last event of round %(number)s: “%(event)s”.")
                % {"event": shown["last"], "number": rnd.number},
            )
    url = reverse("scorer:session", args=[session.code])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


def _changed_meanwhile(number: int) -> str:
    return gettext(
        "Nothing was taken back: round %(number)s changed on another phone meanwhile. "
        "Check the events and try again."
    ) % {"number": number}


# --------------------------------------------------------------------------- ledger and rounds


def _tiles_zh(value: Any) -> str:
    """Tiles the compact way Chinese players write them: "111222333m456p77z" -> "111222333万 456筒 中中".

    Suited tiles are digits grouped under their suit's character, honors and
    flowers by name.  Tiles that do not read (an old or hand-made entry) are
    shown as they were stored.
    """
    raw = "".join(map(str, value)) if isinstance(value, list) else str(value or "")
    try:
        tiles = sorted(parse_tiles(raw))
    except RuleError:
        return raw
    groups = []
    for suit in range(3):  # 万 筒 条: the suit's character, as in 一万 五筒 九条
        digits = "".join(str(t % 9 + 1) for t in tiles if t < 27 and t // 9 == suit)
        if digits:
            groups.append(digits + tile_zh(9 * suit)[-1])
    named = "".join(tile_zh(t) for t in tiles if t >= 27)
    if named:
        groups.append(named)
    return " ".join(groups)


def _meld_name(meld: dict[str, Any]) -> str:
    kind = str(meld.get("type", ""))
    if kind == "kong":
        kind = "concealed_kong" if meld.get("exposed") is False else kind
        kind = "added_kong" if meld.get("added") else kind
    return str(MELD_NAMES.get(kind, kind))


def _hand(hand: dict[str, Any] | None) -> dict[str, Any] | None:
    """The tiles as entered, for a player: standing tiles, melds by name, the winning tile."""
    if not hand:
        return None
    melds = [
        {"name": _meld_name(m), "tiles": _tiles_zh(m.get("tiles"))}
        for m in hand.get("melds") or []
        if isinstance(m, dict)
    ]
    win = hand.get("win_tile")
    return {
        "concealed": _tiles_zh(hand.get("concealed")),
        "melds": melds,
        "win": _tiles_zh(win) if win else "",
    }


def _revision(
    rev: RoundRevision,
    names: Sequence[str],
    number: int,
    winds: bool = True,
    reasons: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """One version of a round, ready to show (its transfers must be prefetched).

    `number`: the round's; `winds`: False for a ruleset played as events (a table
    no 圈风), whose rounds are said by number and dealer.
    """
    entry = rev.entry if isinstance(rev.entry, dict) else {}
    result = rev.result if isinstance(rev.result, dict) else {}
    # What every version says, whole round or events.
    common = {
        "pk": rev.pk,
        "number": rev.number,
        "author": author_label(rev.author),
        "created_at": rev.created_at,
        "round": number,
        "dealer": seat_name(names, rev.dealer),
        "wind": WIND_NAMES.get(rev.prevalent_wind, rev.prevalent_wind) if winds else "",
        "winners": [seat_name(names, w) for w in rev.winners],
        "notes": result.get("notes_zh" if is_zh() else "notes") or [],
        "deltas": [
            {"name": seat_name(names, seat), "value": d, "sign": sign_class(d)}
            for seat, d in enumerate(rev.deltas)
        ],
    }
    if rev.kind == RoundRevision.ROUND:
        return {**common, **_events_revision(rev, names, entry, result, reasons or {})}
    discarder = entry.get("discarder")
    win = rev.kind == RoundRevision.WIN
    fans = [
        {
            "name_zh": f.get("name_zh", ""),
            "name_en": f.get("name_en", ""),
            "points": f.get("points", 0),
            "count": f.get("count", 1),
            "subtotal": f.get("points", 0) * f.get("count", 1),
        }
        for f in result.get("fans") or []
    ]
    hand = entry.get("hand") if isinstance(entry.get("hand"), dict) else None
    return {
        **common,
        "win": win,
        "discarder": None if discarder is None else seat_name(names, discarder),
        "self_drawn": win and discarder is None,
        "quick": entry.get("mode") == "quick",
        "hand": _hand(hand),
        "fans": fans,
        "total": result.get("total", 0),
        "transfers": [
            {
                "from": seat_name(names, t.from_seat),
                "to": seat_name(names, t.to_seat),
                "amount": t.amount,
            }
            for t in rev.transfers.all()
        ],
    }


def _events_revision(
    rev: RoundRevision,
    names: Sequence[str],
    entry: dict[str, Any],
    result: dict[str, Any],
    reasons: Mapping[str, tuple[str, str]],
) -> dict[str, Any]:
    """What a version of a round played as events adds: every event with its transfers and reasons."""
    return {
        "events_round": True,
        "win": False,
        "winner_names": join_names([seat_name(names, w) for w in rev.winners]),
        "finished": bool(result.get("finished")),
        "events": describe(result, names, reasons),
        "event_list": entry.get("events") or [],
        # Each event lists its own transfers (with reasons): none listed apart.
        "transfers": [],
    }


@require_safe
def ledger(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Every round: deltas and running sums; undone rounds struck through (2 queries).

    Only the numbers: a round's fans and payments load when its row is opened
    (htmx asks `round_detail` for them), so a long game's ledger stays light.
    """
    session = session_or_404(code)
    names = list(session.players)
    n = len(names)
    show_undone = request.GET.get("undone") == "1"
    # Only the columns the rows show, as plain tuples: no model instances, and the
    # current version's big JSON (entry, result) stays in the database.
    rounds = (
        session.rounds.annotate(n_revisions=Count("revisions"))
        .order_by("number")
        .values_list(
            "number",
            "status",
            "undone_by",
            "undone_at",
            "current_id",
            "current__deltas",
            "n_revisions",
            "in_progress",
            "current__kind",
        )
    )
    # Each row links to its round: this plus its number, one reverse() for the page.
    round_base = reverse("scorer:round", args=[session.code, 0]).removesuffix("0/")
    running = [0] * n
    rows = []
    undone_count = 0
    for (
        number,
        status,
        undone_by,
        undone_at,
        current_id,
        deltas,
        n_revisions,
        live,
        kind,
    ) in rounds:
        standing = status == Round.ACTIVE
        if not standing:
            undone_count += 1
            if not show_undone:
                continue
        deltas = list(deltas) if current_id is not None and deltas else [0] * n
        if standing:
            running = [a + b for a, b in zip(running, deltas, strict=False)]
        rows.append(
            {
                "number": str(number),
                "url": f"{round_base}{number}/",
                "standing": standing,
                "undone_by": author_label(undone_by),
                "undone_at": undone_at,
                # A round played as events has a version per event: not a correction.
                "revised": n_revisions > 1 and kind != RoundRevision.ROUND,
                "in_progress": live and standing,
                "has_detail": current_id is not None,
                # (points, running total) per seat: {% ledger_cells %} shows them.
                "cells": list(zip(deltas, running, strict=False)),
            }
        )
    totals: list[dict[str, Any]] = [{"value": t, "sign": sign_class(t)} for t in running]
    if session.money_per_point is not None:
        for cell, t in zip(totals, running, strict=True):
            cell["money"] = money_text(t * session.money_per_point)
    return render(
        request,
        "scorer/ledger.html",
        {
            "session": session,
            "names": names,
            "rows": rows,
            "totals": totals,
            "show_undone": show_undone,
            "undone_count": undone_count,
            "any_standing": any(row["standing"] for row in rows),
        },
    )


@require_safe
def round_detail(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    """One round: the current version in full and every earlier version.

    `?part=current`: only the current version (what the ledger loads into a
    row when it is opened; 3 queries).
    """
    session = session_or_404(code)
    rnd = round_or_404(session, number)
    names = list(session.players)
    standing = rnd.status == Round.ACTIVE
    table = session.table()
    winds = table.prevalent_wind
    if request.GET.get("part") == "current":
        if rnd.current is None:
            return HttpResponse("")
        return render(
            request,
            "scorer/round.html#revision",
            {
                "rev": _revision(rnd.current, names, rnd.number, winds, table.reasons),
                "standing": standing,
            },
        )
    # A version played as events lists its own transfers (from its result): only
    # the others read the Transfer rows.
    transfers = Prefetch(
        "transfers", queryset=Transfer.objects.exclude(revision__kind=RoundRevision.ROUND)
    )
    revisions = [
        _revision(rev, names, rnd.number, winds, table.reasons)
        for rev in rnd.revisions.prefetch_related(transfers).order_by("-number")
    ]
    # A round played as events: each version says which event it added or took back.
    for newer, older in zip(revisions, [*revisions[1:], None], strict=True):
        if newer.get("events_round"):
            was = older if older and older.get("events_round") else None
            newer["change"] = change(
                was["event_list"] if was else [],
                newer["event_list"],
                was["events"] if was else [],
                newer["events"],
            )
    current = next((r for r in revisions if r["pk"] == rnd.current_id), None)
    numbers = set(
        session.rounds.filter(number__in=[number - 1, number + 1]).values_list("number", flat=True)
    )
    return render(
        request,
        "scorer/round.html",
        {
            "session": session,
            "round": rnd,
            "undone_by": author_label(rnd.undone_by),
            "standing": standing,
            "current": current,
            "revisions": revisions,
            "revision_count": len(revisions),
            "previous": number - 1 if number - 1 in numbers else None,
            "next": number + 1 if number + 1 in numbers else None,
        },
    )
