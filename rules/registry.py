"""Rulesets, their declared parameters and the registry.

A ruleset declares each parameter once (name, type, default, range or
choices, help text in Chinese and English).  Validation of `params` here,
and later the admin forms, are generated from that one declaration, so a
parameter cannot be accepted by one entry point and refused by another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

from rules.errors import RuleError
from rules.hand import Hand, Table


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # "bool" | "int" | "float" | "choice"
    default: Any
    label_zh: str
    label_en: str
    help_zh: str = ""
    help_en: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        assert self.type in ("bool", "int", "float", "choice"), self.type
        self.validate(self.default)  # a bad default is a programming error

    def validate(self, value: Any) -> Any:
        """The value if it fits this parameter, else RuleError('bad_param')."""
        ok: bool
        if self.type == "bool":
            ok = isinstance(value, bool)
            want_en, want_zh = "true or false", "true 或 false"
        elif self.type == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
            want_en, want_zh = "a whole number", "整数"
        elif self.type == "float":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            want_en, want_zh = "a number", "数字"
        else:
            ok = value in self.choices
            want_en = "one of " + ", ".join(self.choices)
            want_zh = "、".join(self.choices) + " 之一"
        lo_bad = self.min is not None and ok and self.type != "bool" and value < self.min
        hi_bad = self.max is not None and ok and self.type != "bool" and value > self.max
        if ok and self.type in ("int", "float") and (lo_bad or hi_bad):
            ok = False
            want_en = f"from {self.min} to {self.max}"
            want_zh = f"在 {self.min} 到 {self.max} 之间"
        if not ok:
            raise RuleError(
                "bad_param",
                f"parameter '{self.name}' ({self.label_en}) must be {want_en}, not {value!r}",
                f"参数“{self.label_zh}”（{self.name}）必须是{want_zh}，而不是 {value!r}",
            )
        return value

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "label_zh": self.label_zh,
            "label_en": self.label_en,
            "help_zh": self.help_zh,
            "help_en": self.help_en,
        }
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        if self.choices:
            d["choices"] = list(self.choices)
        return d


class Preset(NamedTuple):
    """A named set of parameter values a room picks at once (比赛规则, 棋牌室 ...)."""

    id: str
    name_zh: str
    name_en: str
    params: Mapping[str, Any]


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
    tiles: ClassVar[tuple[int, ...]] = tuple(range(34))  # the tiles this ruleset plays with

    @property
    def defaults(self) -> Mapping[str, Any]:
        """The declared defaults, shared and read-only."""
        d = self.__dict__.get("_defaults")
        if d is None:
            d = self.__dict__["_defaults"] = MappingProxyType(
                {p.name: p.default for p in self.params}
            )
        return d

    def resolve_params(self, overrides: Any) -> Mapping[str, Any]:
        """Defaults with `overrides` applied and checked."""
        if overrides is None or (not overrides and isinstance(overrides, Mapping)):
            return self.defaults
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
        return values

    # --- table play: what a scoring session needs besides scoring one hand -----

    table_play: ClassVar[bool] = False  # can a table session be played with this ruleset?
    # Are its rounds recorded event by event (a kong, a win, the wall's end, each
    # moving money at once: 四川 刮风下雨, 血战) rather than whole?  Such a ruleset
    # settles its rounds with `settle_round`.
    plays_events: ClassVar[bool] = False
    presets: ClassVar[tuple[Preset, ...]] = ()  # the first is the default

    def preset(self, preset_id: Any) -> Preset | None:
        """The preset with that id, the first one when the id is empty, else None."""
        if not preset_id:
            return self.presets[0] if self.presets else None
        return next((p for p in self.presets if p.id == preset_id), None)

    players: ClassVar[tuple[int, ...]] = (4,)  # allowed table sizes

    def fan_catalog(self, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """The fans a player can pick in quick entry: id, names, points."""
        return []

    def quick_score(
        self,
        fans: Mapping[int, int],
        flowers: int,
        table: Table,
        self_drawn: bool,
        params: Mapping[str, Any],
    ) -> dict[str, Any]:
        """A result from fans picked by hand (no tiles): the same payments as score()."""
        raise RuleError(
            "bad_input",
            f"ruleset '{self.id}' has no quick entry",
            f"“{self.name_zh}”不支持直接选番",
        )

    def next_dealer(
        self,
        dealer: int,
        players: int,
        winners: Sequence[int],
        params: Mapping[str, Any],
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

    def settle_round(self, rnd: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
        """Transfers of one whole round given as ordered events (rulesets where money
        moves during the round, such as 四川 刮风下雨 and 血战到底)."""
        raise RuleError(
            "bad_input",
            f"ruleset '{self.id}' settles one win at a time: use score()",
            f"“{self.name_zh}”不按整局事件结算，请用 score()",
        )

    def score_hand(self, hand: Hand, params: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def wait_tiles(self, hand: Hand, params: Mapping[str, Any]) -> list[int]:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "params": [p.to_dict() for p in self.params],
        }


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
