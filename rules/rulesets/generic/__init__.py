"""The `generic` ruleset: winning shapes only, no fans.

It exists so the engine core can be used and tested on its own: `win` says
whether the tiles form four sets (any number, given the melds) and a pair,
or seven pairs when `seven_pairs` is on.
"""

from __future__ import annotations

from rules import decompose
from rules.decompose import Forms
from rules.hand import Hand
from rules.params import Param, ParamValues
from rules.registry import Ruleset
from rules.results import DecompositionReading, HandResult
from rules.shapes import Decomposition
from rules.tiles import tile_str

MAX_LISTED = 50  # decompositions listed in a result; the count is always exact
_FORMS = {sp: Forms(seven_pairs=sp) for sp in (True, False)}


def decomposition_dict(d: Decomposition) -> DecompositionReading:
    return {
        "form": d.form,
        "groups": [[g.kind, tile_str(g.tile)] for g in d.groups],
        "wild_as": [tile_str(t) for t in d.wild_as],
    }


def listed_and_count(hand: Hand, forms: Forms) -> tuple[list[Decomposition], int]:
    """The first MAX_LISTED decompositions and their exact number; ([], 0) when
    the cheap win check says no."""
    return decompose.listing(hand.counts, hand.wilds, len(hand.melds), forms, hand.caps, MAX_LISTED)


class Generic(Ruleset):
    id = "generic"
    rating_family = "generic"  # the league rates its players apart from other rulesets'
    name_zh = "通用胡牌型"
    name_en = "Generic winning shapes"
    params = (
        Param(
            "seven_pairs",
            "bool",
            True,
            "七对",
            "Seven pairs",
            "七个对子也算和牌（四张相同算两对）",
            "Seven pairs win too (four of a kind counts as two pairs)",
        ),
    )

    def forms(self, params: ParamValues) -> Forms:
        # Built once: a Forms is a frozen dataclass, and building one per call
        # cost about as much as a win check's table look-ups.
        return _FORMS[params.flag("seven_pairs")]

    def plain_reader_forms(self, params: ParamValues) -> Forms:
        # The win and the waits are the shape alone, and the forms are plain.
        return _FORMS[params.flag("seven_pairs")]

    def is_win(self, hand: Hand, params: ParamValues) -> bool:
        """The table look-ups alone: what `score_hand` says as `win`, without
        counting or listing the decompositions."""
        return decompose.is_win_counts(
            hand.counts, hand.wilds, len(hand.melds), self.forms(params), hand.caps
        )

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        """The win from the table look-ups first; then the decompositions counted
        (a per-suit product: 13 wild tiles make millions) and the first
        MAX_LISTED of them built, so any hand is answered in bounded time."""
        forms = self.forms(params)
        listed, count = listed_and_count(hand, forms)
        win = count > 0
        if win:
            note = f"{count} way(s) to form a winning shape"
            note_zh = f"共有 {count} 种组成和牌的方式"
        else:
            sp = forms.seven_pairs
            note = "the tiles do not form four sets and a pair" + (" or seven pairs" if sp else "")
            note_zh = "这手牌组不成四副面子加一对将" + ("，也不是七对" if sp else "")
        return {
            "win": win,
            "fans": [],
            "total": 0,
            "decompositions": [decomposition_dict(d) for d in listed],
            "decomposition_count": count,
            "notes": [note],
            "notes_zh": [note_zh],
        }

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        return decompose.waits(hand, self.forms(params))


RULESET = Generic()
