"""What one phone remembers about the tables it has opened: which ones, who it is
at each, and the round it was entering when the page went away.

There are no accounts: a phone is its browser's Django session (a cookie holding
a random key; the data stays on the server).  Nothing here decides a score or a
payment; it only spares the players from typing things twice and from losing a
half-entered hand to a reload (pull to refresh, a locked phone, a crashed tab).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest

from scorer.clean.parse import int_or_none
from scorer.models import GameSession

TABLES_KEY = "tables"  # codes of the tables this phone has opened, most recent first
TABLES_MAX = 30
HIDDEN_KEY = "hidden_table"  # the table just hidden from the list: offered back once
# Every table this phone holds: each one it has opened by its link (or QR code),
# started or imported.  Unlike the visible list above it has no cap and hiding a
# table leaves it held; signing an admin out keeps it (scorer/web/signin.py).  Holding
# a table is what lets a page link it: a player's page links only the tables its
# viewer holds (docs/security.md, "What each link grants").
HELD_KEY = "held_tables"


def _draft_key(session: GameSession) -> str:
    return f"draft:{session.code}"


def _me_key(session: GameSession) -> str:
    return f"me:{session.code}"


# ---------------------------------------------------------------- tables opened


def remember_table(request: HttpRequest, session: GameSession) -> None:
    """Put this table first in the phone's list (saved only when the order changes);
    the phone holds it from now on."""
    hold(request, session)
    codes = list(request.session.get(TABLES_KEY) or [])
    if codes[:1] == [session.code]:
        return
    codes = [session.code, *(c for c in codes if c != session.code)][:TABLES_MAX]
    request.session[TABLES_KEY] = codes


def hold(request: HttpRequest, session: GameSession) -> None:
    """This phone holds the table (it opened it by its link): saved only when new."""
    held = request.session.get(HELD_KEY)
    held = [c for c in held if isinstance(c, str)] if isinstance(held, list) else []
    if session.code not in held:
        request.session[HELD_KEY] = [*held, session.code]


def held_codes(request: HttpRequest) -> frozenset[str]:
    """The codes of the tables this phone holds: those it has kept since holding
    began, and those on its list of tables from before (a phone's list is the
    tables it opened)."""
    codes: set[str] = set()
    for key in (HELD_KEY, TABLES_KEY):
        found = request.session.get(key)
        if isinstance(found, list):
            codes.update(c for c in found if isinstance(c, str))
    hidden = request.session.get(HIDDEN_KEY)
    if isinstance(hidden, str):
        codes.add(hidden)
    return frozenset(codes)


def tables_opened(request: HttpRequest) -> tuple[list[GameSession], GameSession | None]:
    """This phone's tables, the one with the latest activity first, and the one it
    has just hidden (offered back once), in one query.

    Only codes this phone has opened are looked up: nothing about other
    people's tables is ever listed.
    """
    codes = [c for c in request.session.get(TABLES_KEY) or [] if isinstance(c, str)]
    hidden = request.session.pop(HIDDEN_KEY, None)
    hidden = hidden if isinstance(hidden, str) and hidden not in codes else None
    if not codes and hidden is None:
        return [], None
    found = list(
        GameSession.objects.filter(code__in=[*codes, *([hidden] if hidden else [])])
        .select_related("room_table")
        .order_by("-updated_at", "-pk")
    )
    return [s for s in found if s.code != hidden], next(
        (s for s in found if s.code == hidden), None
    )


def hide_table(request: HttpRequest, code: str) -> bool:
    """Take a table off this phone's list (an accidental one); the table itself stays
    as it is and its link still opens it (which lists it again).  The home page offers
    it back once."""
    codes = list(request.session.get(TABLES_KEY) or [])
    if code not in codes:
        return False
    request.session[TABLES_KEY] = [c for c in codes if c != code]
    request.session[HIDDEN_KEY] = code
    return True


# ---------------------------------------------------------------- who this phone is


def my_seat(request: HttpRequest, session: GameSession) -> int | None:
    seat = request.session.get(_me_key(session))
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < session.n_players:
        return seat
    return None


def my_name(request: HttpRequest, session: GameSession) -> str:
    """The player this phone said it is at this table ("" until it says)."""
    seat = my_seat(request, session)
    return "" if seat is None else str(session.players[seat])


def set_my_seat(request: HttpRequest, session: GameSession, seat: int | None) -> None:
    if seat is None:
        request.session.pop(_me_key(session), None)
    elif my_seat(request, session) != seat:
        request.session[_me_key(session)] = seat


def read_seat(raw: Any, session: GameSession) -> int | None:
    """A posted seat number, or None for anything else."""
    return int_or_none(raw, 0, session.n_players - 1)


# ---------------------------------------------------------------- the entry in progress


def save_draft(request: HttpRequest, session: GameSession, state: Mapping[str, str]) -> None:
    """Keep the form's state (its hidden inputs) for a reload; written only when it changed."""
    state = {str(k): str(v) for k, v in state.items()}
    if request.session.get(_draft_key(session)) != state:
        request.session[_draft_key(session)] = state


def load_draft(request: HttpRequest, session: GameSession) -> dict[str, str] | None:
    draft = request.session.get(_draft_key(session))
    if not isinstance(draft, dict):
        return None
    return {str(k): str(v) for k, v in draft.items()}


def clear_draft(request: HttpRequest, session: GameSession) -> None:
    request.session.pop(_draft_key(session), None)


# ---------------------------------------------------------------- how it enters a win

MODE_KEY = "entry_mode"  # "tiles" (选牌) or "quick" (选番): the last one this phone used


def last_mode(request: HttpRequest) -> str:
    mode = request.session.get(MODE_KEY)
    return mode if mode in ("tiles", "quick") else "tiles"


def set_last_mode(request: HttpRequest, mode: str) -> None:
    if mode in ("tiles", "quick") and request.session.get(MODE_KEY) != mode:
        request.session[MODE_KEY] = mode


# ---------------------------------------------------------------- a round of events being corrected

# A round played as events is corrected step by step (scorer/views/record_edit_events.py):
# its steps as this phone has changed them so far, and the revision they were read
# from, kept until the correction is confirmed or dropped.  Nothing is saved to the
# table before its 确认.


def _correction_key(session: GameSession, number: int) -> str:
    return f"correct:{session.code}:{number}"


def load_correction(
    request: HttpRequest, session: GameSession, number: int
) -> dict[str, Any] | None:
    kept = request.session.get(_correction_key(session, number))
    return kept if isinstance(kept, dict) else None


def save_correction(
    request: HttpRequest, session: GameSession, number: int, kept: Mapping[str, Any]
) -> None:
    request.session[_correction_key(session, number)] = dict(kept)


def drop_correction(request: HttpRequest, session: GameSession, number: int) -> None:
    request.session.pop(_correction_key(session, number), None)
