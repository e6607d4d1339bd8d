"""Record a round (correcting one reuses this form: record_edit.py): the event, the tile
picker or quick entry, a live preview.

The whole page is one form.  Its state lives in hidden inputs (see `Pick`),
and every tap is a `<button name="tap" value="...">`: with htmx the form posts
to `preview`, which applies the tap and answers with the form's inside again
(fans, total, payments, waits, messages); without JavaScript the same buttons
post the form to the record (or edit) page, which does the same and renders
the whole page.  A tap made while the previous answer is still on its way is
queued in the browser (static/js/taps.js) and sent with the state that answer
brings, so quick taps on a slow network are not lost; taps are values
("tile:5m"), read against the state they arrive with.  Nothing is scored here:
every number on the page comes from
the engine through scorer.scoring (`evaluate`), the same
path `GameSession.record_round`, `add_event` and `Round.revise` take, and nothing
is saved before 确认.

State format (hidden inputs, all plain strings):

    token       one-time form token (uuid4), minted when the page is opened
    kind        "win" | "draw"
    winner      seat number, or empty while not chosen
    discarder   "self" (自摸), a seat number, or empty while not chosen
    dealer      seat number; wind  E/S/W/N (both prefilled from next_position)
    mode        "tiles" (选牌) | "quick" (选番)
    hand        concealed tiles without the win tile, compact mpsz: "123m55p"
    win_tile    one tile code, e.g. "7z" (the last tile added unless chosen)
    melds       space separated type:lowest-tile, e.g. "chi:1m pung:7z kong:3s"
                (types: chi, pung, kong 明杠, concealed_kong 暗杠, added_kong 加杠)
    tool        "" | a meld type (the next tile tap adds that meld) | "win"
                (the next tap on a tile of the hand makes it the win tile)
    flags       comma separated: after_kong, robbing_kong, last_tile, fourth_tile
    flowers     0..8
    fans        quick entry: "id:count,...", e.g. "48:1,59:2"
    author      who records (API and old forms; the page sends "me", a seat, which
                the phone remembers for the table: scorer/services/phone.py)
    base        edit only: the revision number the form was opened on
    for_round   new rounds only: the number of the round the form was opened for;
                when another phone records that round first, the form says so
                ("taken") and the player drops the entry or records it as the next
                round (tap "taken:next", which also moves dealer and wind on)

Every tap's state is kept for the phone (scorer/services/phone.py) and restored when the
record page is opened again, until the entry is confirmed or dropped.

A session whose table moves money before a round ends records one event at a time
(a kong, a win, the wall's end) on the same page, URLs and views: see "rounds played
as events" in scorer/entry/event_state.py for its extra state.  `GET record?kind=win|kong|wall_end`
opens the form on that event.  The views take either form through one protocol
(scorer/entry/protocol.py: `pick_for` chooses it once, from the table's ruleset).
"""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from rules.registry import get_ruleset
from scorer.clean.parse import MAX_ROUND, int_or_none
from scorer.entry.pick import Pick, tile_of_tap
from scorer.entry.protocol import pick_for
from scorer.models import GameSession, Round
from scorer.record.confirming import Refused, confirm_pick
from scorer.record.page import record_page
from scorer.record.request import (
    asked,
    done,
    dropped,
    render_form,
    taps_of,
    who_records,
)
from scorer.services import phone
from scorer.services.access import closed_redirect, round_or_404, session_or_404
from scorer.views import HtmxHttpRequest
from scorer.views.record_edit_events import edit_events
from scorer.web.htmx_answers import refused_status, show_top

__all__ = ["confirm", "posted_pick", "preview", "record"]


# ---------------------------------------------------------------- views


def posted_pick(
    request: HtmxHttpRequest, session: GameSession, flow: type[Pick] | None = None
) -> tuple[Pick, str, set[int]]:
    """The form's state with its taps applied in order (several when taps made while
    an answer was on its way come together: static/js/taps.js), the message of the
    last tap that could not be done, and the tiles the tile taps touched.  `flow`:
    the form a correction is made on; a new entry's is the table's (`pick_for`)."""
    rs = get_ruleset(session.ruleset)
    p = (flow or pick_for(session)).read(request.POST, session, rs)
    who_records(request, session, p)
    message = ""
    touched: set[int] = set()
    for tap in taps_of(request):
        if tap == "taken:next":
            p.next_round(session, rs)
            continue
        touched |= tile_of_tap(p, tap)
        message = p.apply(tap, session.n_players, rs) or message
        if tap.startswith("mode:"):
            phone.set_last_mode(request, p.mode)
    return p, message, touched


def _editing(request: HtmxHttpRequest, session: GameSession) -> Round | None:
    number = int_or_none(request.POST.get("round"), 1, MAX_ROUND)
    return round_or_404(session, number) if number is not None else None


@require_http_methods(["GET", "POST"])
def record(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The record page; a POST is a tap from a browser without JavaScript.

    The phone's entry in progress, if any, is restored (a reload loses nothing);
    `?kind=` opens an event's form on that event.
    """
    session = session_or_404(code)
    if (closed := closed_redirect(request, session)) is not None:
        return closed
    if request.method == "POST":
        if "taken:discard" in taps_of(request):
            return dropped(request, session)
        p, message, _ = posted_pick(request, session)
        phone.save_draft(request, session, p.hidden())
        return render_form(request, session, p, message)
    rs = get_ruleset(session.ruleset)
    flow = pick_for(session)
    kind = request.GET.get("kind", "")
    draft = phone.load_draft(request, session)
    if draft and kind in ("", draft.get("kind")):
        p = flow.read(draft, session, rs)
    else:
        # The way this phone entered its last win (选牌 / 选番), where the table has both.
        p = flow.fresh(session, rs, kind, phone.last_mode(request))
    p.author = phone.my_name(request, session)
    return render_form(request, session, p)


@require_POST
def preview(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Apply the taps and show the live result (htmx: the form's inside). Saves nothing
    but the phone's entry in progress."""
    session = session_or_404(code)
    editing = _editing(request, session)
    if editing is not None and editing.current is not None and editing.current.kind == "round":
        return edit_events(request, session, editing)  # a step of a round of events corrected
    if editing is None and "taken:discard" in taps_of(request):
        return dropped(request, session)
    p, message, touched = posted_pick(request, session, Pick if editing is not None else None)
    if editing is None:
        phone.save_draft(request, session, p.hidden())
    taps = taps_of(request)
    changed = _delta_tiles(request, p, taps, touched)
    if changed is not None:
        response = _tap_delta(request, session, p, message, editing, changed)
    else:
        response = render_form(request, session, p, message, editing)
    if p.completes(taps[-1] if taps else "") and not message:
        # The tile that completes the hand: its fans and payments appear under the
        # hand, above the grid the finger is on; bring the hand to the top of the
        # screen so that the hand and its result are seen together.
        show_top(response, "outerHTML" if changed is not None else "innerHTML", ".pk-live")
    return response


def _delta_tiles(
    request: HtmxHttpRequest, p: Pick, taps: list[str], touched: set[int]
) -> set[int] | None:
    """The tiles whose grid buttons plain tile taps changed, when the page can take
    only what changed (htmx sends delta=1); None when the whole form is answered.

    A plain tap adds a tile to the hand or takes one back, with no tool active:
    the hand, its result, the state, that tile's count on the grid and the bar
    change, nothing else.  Anything else (a tool, a seat, the mode) re-renders
    the whole form; so does a batch of taps with anything but plain tile taps in it,
    and every tap on an event's form.
    """
    if not request.htmx or request.POST.get("delta") != "1" or not p.takes_delta:
        return None
    if p.kind != "win" or p.mode != "tiles" or p.tool or request.POST.get("tool"):
        return None
    if not taps or any(t.partition(":")[0] not in ("tile", "hand") for t in taps):
        return None
    return touched or None


def _tap_delta(
    request: HtmxHttpRequest,
    session: GameSession,
    p: Pick,
    message: str,
    editing: Round | None,
    changed: set[int],
) -> HttpResponse:
    """Only what a plain tile tap changed: the hand with its result replaces #pk-live,
    the rest is swapped in by id (out of band).  A few hundred bytes compressed
    instead of the whole form, which matters on a chess room's Wi-Fi."""
    page = record_page(session, p, asked(request, session), message, editing)
    if page.taken is not None:
        return render(request, "scorer/record/form.html#form", page.context())
    page = replace(page, changed_tiles=frozenset(changed))
    response = render(request, "scorer/record/form.html#tap_delta", page.context())
    return reswap(retarget(response, "#pk-live"), "outerHTML")


@require_POST
def confirm(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Record the round (or add the event) the form shows, once (record/confirming.py
    decides; this answers: the table's page, or the form again with why)."""
    session = session_or_404(code)
    rs = get_ruleset(session.ruleset)
    p = pick_for(session).read(request.POST, session, rs)
    who_records(request, session, p)
    if "taken:next" in taps_of(request):
        # "Record it as round N" after another phone recorded this form's round: the
        # choice is a confirm, of the next round.
        p.next_round(session, rs)
    answer = confirm_pick(session, rs, p, request.POST)
    if isinstance(answer, Refused):
        status = refused_status(request, answer.status)
        return render_form(
            request, session, answer.pick, answer.message, status=status, refused=True
        )
    if answer.message:
        messages.success(request, answer.message)
    return done(request, session, reverse("scorer:session", args=[session.code]))
