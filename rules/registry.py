"""Rulesets, their declared parameters and the registry.

A ruleset declares each parameter once (name, type, default, range or
choices, help text in Chinese and English).  Validation of `params` here,
and later the admin forms, are generated from that one declaration, so a
parameter cannot be accepted by one entry point and refused by another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from rules import round as core_round
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.hand import Hand, Table
from rules.params import Param, ParamValues
from rules.results import CatalogFan, EventReport, HandResult, RoundBody
from rules.round import DRAW_NOTES, UNFINISHED, Penalty, RoundEnd, RoundState, settle_events
from rules.table import TableSpec, describe_table
from rules.tiles import SEAT_WINDS, parse_tile, tile_en, tile_str, tile_zh

if TYPE_CHECKING:
    from rules.decompose import Forms


class Preset(NamedTuple):
    """A named set of parameter values a room picks at once (比赛规则, 棋牌室 ...)."""

    id: str
    name_zh: str
    name_en: str
    params: Mapping[str, Any]


# (ruleset id, overrides' items) -> the checked parameters; see resolve_params.
_RESOLVED: dict[tuple[str, tuple[Any, ...]], ParamValues] = {}


class Ruleset:
    """Base class: a ruleset scores one Hand and lists the waits of a short hand.

    Subclasses set `id`, names and `params`, and implement `score_hand` and
    `wait_tiles`.  They are registered with `register()` and found by id; the
    core never needs to know them.
    """

    id: ClassVar[str]
    name_zh: ClassVar[str]
    name_en: ClassVar[str]
    params: ClassVar[tuple[Param, ...]] = ()
    # The most wild tiles one hand can hold at this ruleset's table (None: any
    # number, for rulesets that never build every reading of a hand).  A
    # ruleset that reads every decomposition sets it, so that no input can make
    # it build millions of them; check_wilds() refuses more (too_many_wilds).
    max_wilds: ClassVar[int | None] = None

    def check_wilds(self, hand: Hand) -> None:
        most = self.max_wilds
        if most is not None and hand.wilds > most:
            raise RuleError(
                "too_many_wilds",
                f"{hand.wilds} wild tiles: a hand at this table holds at most {most}",
                f"手里有 {hand.wilds} 张癞子：这个规则一手牌最多 {most} 张癞子",
            )

    @property
    def defaults(self) -> ParamValues:
        """The declared defaults, shared and read-only."""
        d: ParamValues | None = self.__dict__.get("_defaults")
        if d is None:
            d = self.__dict__["_defaults"] = ParamValues({p.name: p.default for p in self.params})
        return d

    def resolve_params(self, overrides: Any) -> ParamValues:
        """Defaults with `overrides` applied and checked.

        A table sends the same overrides with every tap: the checked result is
        kept (read-only) per overrides, so a request resolves them once and a
        repeated set costs a dict look-up."""
        if overrides is None or (not overrides and isinstance(overrides, Mapping)):
            return self.defaults
        key: tuple[Any, ...] | None = None
        if type(overrides) is dict:
            # the type too: True == 1 == 1.0, but only True is a bool
            key = tuple((k, v.__class__, v) for k, v in overrides.items())
            try:
                hit = _RESOLVED.get((self.id, key))
            except TypeError:  # an unhashable value: checked below, not kept
                key, hit = None, None
            if hit is not None:
                return hit
        values = self._resolve(overrides)
        if key is not None:
            if len(_RESOLVED) >= 1024:
                _RESOLVED.clear()
            _RESOLVED[(self.id, key)] = values
        return values

    def _resolve(self, overrides: Any) -> ParamValues:
        values = dict(self.defaults)
        if not isinstance(overrides, Mapping):
            raise RuleError("bad_param", "'params' must be an object", "params 必须是一个对象")
        known = {p.name: p for p in self.params}
        for k, v in overrides.items():
            p = known.get(k)
            if p is None:
                names = ", ".join(known) or "none"
                raise RuleError(
                    "bad_param",
                    f"ruleset '{self.id}' has no parameter '{k}' (it has: {names})",
                    f"规则“{self.name_zh}”没有参数“{k}”（可用：{names}）",
                )
            values[k] = p.validate(v)
        return ParamValues(values)

    # --- table play: what a scoring session needs besides scoring one hand -----

    table_play: ClassVar[bool] = False  # can a table session be played with this ruleset?
    # Where the start page lists it (lower first; the first is the page's default).
    order: ClassVar[int] = 100
    # What a table offers (tiles, chi, 圈风, wild tiles, flags, events, per-seat
    # inputs, labels): see rules/table.py.  `table(params)` may vary it by parameter.
    table_spec: ClassVar[TableSpec] = TableSpec()
    # The league's rating family (scorer/league/ratings.py): rulesets whose players' skill is
    # one skill share a family; each ruleset declares its own, and every preset of a
    # ruleset is in its family.  "" (undeclared): a family of its own, its id.
    rating_family: ClassVar[str] = ""
    presets: ClassVar[tuple[Preset, ...]] = ()  # the first is the default

    def preset(self, preset_id: Any) -> Preset | None:
        """The preset with that id, the first one when the id is empty, else None."""
        if not preset_id:
            return self.presets[0] if self.presets else None
        return next((p for p in self.presets if p.id == preset_id), None)

    players: ClassVar[tuple[int, ...]] = (4,)  # allowed table sizes

    def fan_catalog(self, params: ParamValues | None = None) -> list[CatalogFan]:
        """The fans a player can pick in quick entry: id, names, points."""
        return []

    def fan_help(self) -> Mapping[int, FanHelp]:
        """What each fan means, an example hand that scores it and its everyday names
        (rules/fan_help.py), by fan id: every fan of `fan_catalog` has one."""
        return {}

    def quick_score(
        self,
        fans: Mapping[int, int],
        flowers: int,
        table: Table,
        self_drawn: bool,
        params: ParamValues,
        flags: AbstractSet[str] = frozenset(),
    ) -> HandResult:
        """A result from fans picked by hand (no tiles): the same payments as score().
        `flags`: the win's flags set on the round's event (杠上炮, 抢杠 …)."""
        raise RuleError(
            "bad_input",
            f"ruleset '{self.id}' has no quick entry",
            f"“{self.name_zh}”不支持直接选番",
        )

    def table(self, params: ParamValues | None = None) -> TableSpec:
        """What a table with these parameter values offers (the declaration, by default)."""
        return self.table_spec

    def next_position(
        self,
        last_dealer: int,
        last_wind: str,
        first_dealer: int,
        players: int,
        winners: Sequence[int],
        params: ParamValues,
        discarder: int | None = None,
    ) -> tuple[int, str]:
        """(dealer, prevalent wind) of the next round after one dealt by `last_dealer`.

        The dealer follows `next_dealer`; the wind moves on when the deal comes
        back round to the first dealer, on a table that has a 圈风 (otherwise every
        round is "E").
        """
        match = self.table(params).match
        if match is not None and players == match.players:
            # A match goes hand by hand through its 圈, seats changing between them.
            k = match.index(last_dealer, last_wind, first_dealer)
            if k is not None:
                return match.hand(min(k + 1, match.hands - 1), first_dealer)
        dealer = self.next_dealer(last_dealer, players, winners, params, discarder=discarder)
        if not self.table(params).prevalent_wind:
            return dealer, "E"
        wind = last_wind if last_wind in SEAT_WINDS else "E"
        if dealer != last_dealer and dealer == first_dealer:
            wind = SEAT_WINDS[(SEAT_WINDS.index(wind) + 1) % 4]
        return dealer, wind

    def with_event(
        self,
        events: Sequence[Any],
        event: Mapping[str, Any],
        params: ParamValues,
        join_last_win: bool = False,
    ) -> list[Any]:
        """The round's event list with `event` added, or its winners joined to the
        last win (一炮多响: several players win on one discard), where the table allows it."""
        if not join_last_win:
            return [*events, dict(event)]
        last = events[-1] if events else None
        if (
            not self.table(params).multi_win
            or not isinstance(last, Mapping)
            or last.get("type") != "win"
            or event.get("type") != "win"
            or last.get("discarder") is None
            or last.get("discarder") != event.get("discarder")
        ):
            raise RuleError(
                "bad_event",
                "only a win on the same discard can join the last win (一炮多响)",
                "只有和同一张炮的玩家才能并入上一次和牌（一炮多响）",
            )
        tile = win_tile_of(last)
        for w in event.get("winners") or []:
            mine = _hand_win_tile(w)
            if tile is not None and mine is not None and mine != tile:
                # The one discard is every joining winner's winning tile: another tile
                # would score another hand than the one played (对对胡 read as 平胡).
                raise RuleError(
                    "bad_event",
                    f"a player joining the last win (一炮多响) wins on its discard, "
                    f"{tile_en(parse_tile(tile))}",
                    f"一炮多响：也和这张炮的人和的就是这张{tile_zh(parse_tile(tile))}，不能换成别的牌",
                )
        merged = dict(last)
        merged["winners"] = [*last.get("winners", []), *event.get("winners", [])]
        return [*events[:-1], merged]

    def next_dealer(
        self,
        dealer: int,
        players: int,
        winners: Sequence[int],
        params: ParamValues,
        discarder: int | None = None,
    ) -> int:
        """Who deals the next hand; `winners` is empty for a drawn hand, `discarder`
        is who dealt in the (first) winning discard, None when self-drawn or unknown.

        The default is 连庄: the dealer keeps the deal when he wins or nobody
        does, otherwise the next seat deals.
        """
        if not winners or dealer in winners:
            return dealer
        return (dealer + 1) % players

    def settle_round(self, rnd: Mapping[str, Any], params: ParamValues) -> RoundBody:
        """Transfers of one whole round given as ordered events.

        The default (rules/round.py) settles the events the table declares: wins
        scored with `score_hand` / `quick_score`, draws, and kongs paid at once
        by `kong_payments`.  A ruleset with rounds of its own kind overrides it.
        """
        return settle_events(self, rnd, params)

    def kong_payments(
        self, kind: str, player: int, discarder: int | None, in_play: Sequence[int],
        params: ParamValues,
    ) -> list[tuple[int, int]]:  # fmt: skip
        """(payer, amount) pairs for a kong paid at once; the default table has no kong money."""
        raise RuleError(
            "bad_event",
            f"ruleset '{self.id}' has no kong payments",
            f"“{self.name_zh}”的杠不单独算钱",
        )

    def penalty_amount(
        self, penalty: str, seat: int, seat_inputs: Mapping[str, list[int]], players: int,
        params: ParamValues,
    ) -> Penalty:  # fmt: skip
        """What a penalty the table declares (`TableSpec.penalties`) charges `seat`.
        Only a ruleset that declares penalties is asked."""
        raise NotImplementedError(f"{self.id} declares no penalty {penalty!r}")

    def round_end_payments(
        self, seat_inputs: Mapping[str, list[int]], players: int, dealer: int,
        params: ParamValues,
    ) -> RoundEnd | None:  # fmt: skip
        """Money that moves when a round ends, whoever won (吉安's 精分), from the
        finishing event's per-seat inputs; None (the default) for none."""
        return None

    def wall_end(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
        """The wall has run out with nobody out: by default nobody pays.  A ruleset
        that checks the standing hands (查大叫) reads them with rules.wall."""
        return {"type": "wall_end", "index": i, "notes": DRAW_NOTES[0], "notes_zh": DRAW_NOTES[1]}

    def kong_handover(self, params: ParamValues) -> bool:
        """Whether a win on a kong's discard (杠上炮) hands the kong's money to the winner."""
        return False

    # A ruleset whose rounds read and report their kongs and wins in a form of
    # their own settles those events itself, on the core's state and ledger.

    @property
    def round_players(self) -> tuple[int, ...]:
        """The table sizes a round may be settled for: the tables' own, by default."""
        return self.players

    # What a round's result says while the round goes on (en, zh).
    unfinished_words: ClassVar[tuple[str, str]] = UNFINISHED

    def unknown_event(self, spec: TableSpec, etype: Any, i: int) -> RuleError:
        """The error for an event of a type the table does not have."""
        return core_round.unknown_event(spec, etype, i)

    def settle_kong(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
        """A kong event settled into `state`, and its report (rules/round.py by default)."""
        return core_round.settle_kong(state, ev, i)

    def settle_win(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
        """A win event settled into `state`, and its report (rules/round.py by default)."""
        return core_round.settle_win(state, ev, i)

    def round_checked(self, state: RoundState) -> None:
        """Checks over the whole round once every event is settled; none by default."""
        return None

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        raise NotImplementedError

    def seat_inputs_from_hand(self, hand: Hand, params: ParamValues) -> Mapping[str, int]:
        """The winner's per-seat inputs that his hand shows (those declared
        `winner_from_hand`: 武汉's openings and kongs), by input id; none by default.
        rules/seat_inputs.py puts them in his seat whatever was entered there."""
        return {}

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        raise NotImplementedError

    def plain_reader_forms(self, params: ParamValues) -> Forms | None:
        """The forms whose shapes alone are this ruleset's win and waits under
        `params`, when they are plain (four sets and a pair, seven pairs:
        `rules.plain_reader.plain_forms`); None otherwise (the default).

        A ruleset that gives them lets the API answer a plain situation's
        is_win and waits from the plain reader (rules/plain_reader.py), without
        building a Hand; tests/rules/test_plain_reader.py holds every ruleset that
        does to its careful answers."""
        return None

    def is_win(self, hand: Hand, params: ParamValues) -> bool:
        """`score_hand(...)["win"]`, a hand refused as `not_a_win` being no win.

        A ruleset whose win is a shape alone answers it without scoring (generic);
        the others score the hand, since their win can turn on fans (MCR's 8)."""
        try:
            return bool(self.score_hand(hand, params)["win"])
        except RuleError as e:
            if e.code == "not_a_win":
                return False
            raise

    def hand_hint(
        self,
        concealed: Sequence[int],
        melds: Sequence[tuple[str, int]],
        win_tile: int | None,
        wild: Sequence[int],
        params: ParamValues,
    ) -> tuple[str, str] | None:
        """A line (zh, en) the tile picker shows under a hand while it is being
        tapped, complete or not (芜湖: the 支 and 押 as they form); None for none.

        `concealed`: the standing tiles without the win tile; `melds`: (tool,
        lowest tile) with tool one of rules.table.MELD_TOOLS; `wild`: the
        round's wild kinds.  Called on every tap: keep it cheap, never raise.
        """
        return None

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "params": [p.to_dict() for p in self.params],
        }
        if self.table_play:
            d["table"] = describe_table(self.table(self.defaults))
            d["presets"] = [
                {"id": p.id, "name_zh": p.name_zh, "name_en": p.name_en, "params": dict(p.params)}
                for p in self.presets
            ]
        return d


def _hand_win_tile(winner: Any) -> str | None:
    """A winner's winning tile as an event stores it ("7s"), None when entered by fans."""
    hand = winner.get("hand") if isinstance(winner, Mapping) else None
    tile = hand.get("win_tile") if isinstance(hand, Mapping) else None
    if not isinstance(tile, str) or not tile:
        return None
    try:
        return tile_str(parse_tile(tile))
    except RuleError:
        return None


def win_tile_of(event: Mapping[str, Any]) -> str | None:
    """The discard a win was made on, as its first winner entered by tiles gives it
    (None when every winner was entered by his fans: no page knows the tile then)."""
    for w in event.get("winners") or []:
        tile = _hand_win_tile(w)
        if tile is not None:
            return tile
    return None


def event_steps(events: Sequence[Any]) -> int:
    """How many steps a round of events has been recorded in: one per event, and one
    more for each winner who joined a win on its discard (一炮多响), since joining is
    a step of its own.  Taking back "the last step" takes back one of them, and two
    phones tapping at once send the count they saw: counted in steps, the second finds
    a different count and takes back nothing (counted in events, both would match
    and undo both winners)."""
    n = 0
    for ev in events:
        winners = ev.get("winners") if isinstance(ev, Mapping) else None
        n += len(winners) if isinstance(winners, list) and len(winners) > 1 else 1
    return n


def without_last_step(events: Sequence[Any]) -> list[Any]:
    """The events with their last step taken back (see `event_steps`): the last
    winner of a win several players joined, else the last event."""
    if not events:
        return []
    last = events[-1]
    winners = last.get("winners") if isinstance(last, Mapping) else None
    if isinstance(winners, list) and len(winners) > 1:
        return [*events[:-1], {**last, "winners": winners[:-1]}]
    return list(events[:-1])


REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    if ruleset.id in REGISTRY:
        raise ValueError(f"ruleset {ruleset.id!r} registered twice")
    for preset in ruleset.presets:
        ruleset.resolve_params(preset.params)  # a bad preset is a programming error
    REGISTRY[ruleset.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: Any) -> Ruleset:
    if not isinstance(ruleset_id, str) or ruleset_id not in REGISTRY:
        names = ", ".join(sorted(REGISTRY))
        raise RuleError(
            "unknown_ruleset",
            f"unknown ruleset {ruleset_id!r} (known: {names})",
            f"没有规则“{ruleset_id}”（现有：{names}）",
        )
    return REGISTRY[ruleset_id]


def rating_family(ruleset_id: str) -> str:
    """The league's rating family of a ruleset (its declared `rating_family`, else its
    own id; an unknown id is a family of its own)."""
    rs = REGISTRY.get(ruleset_id)
    return (rs.rating_family or rs.id) if rs is not None else ruleset_id
