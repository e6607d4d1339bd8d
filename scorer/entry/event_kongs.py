"""Kongs recorded as events, met again in a hand shown later in the same round.

At a table whose kongs are events of their own (the ruleset's `TableSpec`
declares a `kong` event kind), a kong is paid the moment it is declared, and the same
kong is a meld of the hand its player shows later: the winning hand, or the
standing hand at the wall's end.  The event form starts such a hand with the
kongs recorded for its player (where the kong event gave its tile), and says
where a hand contradicts them.  It says so and does not fix or refuse: the
kong's money is already paid at its event, and either the hand or the kong
event may be the mistake (the event is taken back and added again on the
table page).  The ruleset's doc says how its kongs are paid.

The pieces here are functions of melds and recorded kongs; the event form
(`EventPick` in event_pick.py) applies them to the hands it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.translation import gettext

from scorer.entry.round_now import KONG_MELDS
from scorer.language import tile_name

# A recorded kong as the picker's meld: (meld type, tile), the tile None when
# the kong event did not give it.
Kong = tuple[str, int | None]
Meld = tuple[str, int]

KONG_TYPES = frozenset(KONG_MELDS.values())


def without_kongs(melds: list[Meld], recorded: list[Kong]) -> None:
    """Take out of `melds` the kongs a prefill put there (another winner was picked)."""
    for mtype, tile in recorded:
        if tile is not None and (mtype, tile) in melds:
            melds.remove((mtype, tile))


def with_kongs(
    melds: list[Meld], recorded: list[Kong], room: int, free: Callable[[int], bool]
) -> None:
    """Add to `melds` the recorded kongs whose tile is known and not in it yet.

    `room` is how many more tiles the hand takes (a kong counts 3, like any
    meld, so that 4 melds and a pair stay 14); `free(t)` says whether all four
    copies of t are still to be had (none shown in this hand or elsewhere in the
    round).  A kong that does not fit is left out; the warnings then say so.
    """
    for mtype, tile in recorded:
        if tile is None or (mtype, tile) in melds or len(melds) >= 4:
            continue
        if room < 3 or not free(tile):
            continue
        melds.append((mtype, tile))
        room -= 3


def contradictions(
    name: str, recorded: list[Kong], melds: list[Meld], labels: Mapping[str, str], named: bool
) -> list[str]:
    """What a hand's kongs say against the kongs recorded for its player.

    A recorded kong missing from the hand, or shown as another kind (暗杠 shown
    as 直杠 …); a recorded kong whose tile is unknown (asked for); a kong in the
    hand that no event recorded (its payment is missing).  A kong recorded
    without its tile may be any kong of the hand, so as many unrecorded kongs
    are let pass.  `labels` names the kinds (the table's words); `named`: the
    messages name the player (several hands on one page, at the wall's end).
    """
    shown = [(m, t) for m, t in melds if m in KONG_TYPES]
    out = []
    for mtype, tile in recorded:
        if tile is None:
            out.append(gettext(
                "%(name)s has a kong recorded in this round without its tile: add it "
                "to the hand with the kong buttons."
            ) % {"name": name})  # fmt: skip
        elif (mtype, tile) in shown:
            continue
        elif other := next((m for m, t in shown if t == tile), None):
            out.append(gettext(
                "%(name)s recorded a kong of %(tile)s in this round as %(kind)s, but this "
                "hand shows it as %(shown)s."
            ) % {"name": name, "tile": tile_name(tile), "kind": labels.get(mtype, mtype),
                 "shown": labels.get(other, other)})  # fmt: skip
        else:
            out.append(gettext(
                "%(name)s recorded a kong of %(tile)s in this round, but this hand does "
                "not show it."
            ) % {"name": name, "tile": tile_name(tile)})  # fmt: skip
    known = {t for _, t in recorded if t is not None}
    untiled = sum(1 for _, t in recorded if t is None)
    extra = [t for _, t in shown if t not in known]
    for t in extra[untiled:]:
        if named:
            out.append(gettext(
                "%(name)s's hand shows a kong of %(tile)s that was not recorded: its "
                "payment is missing (record the kong first)."
            ) % {"name": name, "tile": tile_name(t)})  # fmt: skip
        else:
            out.append(gettext(
                "This hand shows a kong of %(tile)s that was not recorded: its payment is "
                "missing (record the kong first)."
            ) % {"tile": tile_name(t)})  # fmt: skip
    return out
