"""A ruleset's parameters: each declared once (`Param`), and the values a table
plays with (`ParamValues`), checked against those declarations.

The registry (rules/registry.py) resolves a table's overrides against its
ruleset's declarations once; what a ruleset then reads is typed by the
declaration that checked it (`params.whole("base")` is an int, `params.flag(...)`
a bool, `params.choice(...)` one of the declared strings), so a ruleset never
casts: a cast would turn a wrong value into a plausible one (int(1.7) == 1),
where a typed read refuses it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import RuleError

# What a checked parameter holds: a "bool", "int", "float" or "choice" (a str).
ParamValue = bool | int | float | str


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
    # (zh, en) words for each of `choices`, in the same order: what a form shows.
    choice_labels: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        assert self.type in ("bool", "int", "float", "choice"), self.type
        assert not self.choice_labels or len(self.choice_labels) == len(self.choices), self.name
        self.validate(self.default)  # a bad default is a programming error

    def choice_label(self, value: str) -> tuple[str, str]:
        """A choice in words (zh, en); the value itself when it has none."""
        if value in self.choices and self.choice_labels:
            return self.choice_labels[self.choices.index(value)]
        return value, value

    def validate(self, value: Any) -> ParamValue:
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
        checked: ParamValue = value
        return checked

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
        if self.choice_labels:
            d["choice_labels"] = [list(pair) for pair in self.choice_labels]
        return d


def recipients_param(name: str, what_zh: str, what_en: str) -> Param:
    """The parameter saying who receives a declared penalty (`PenaltyKind.to_param`):
    the other players, split (the default), or the room's account (台费)."""
    return Param(name, "choice", "others", f"{what_zh}的分给谁", f"{what_en}: paid to",
                 f"{what_zh}扣的分：其他玩家平分，或交给房间",
                 f"{what_en}: split among the other players, or paid to the room (table fee "
                 "account)", choices=("others", "room"),
                 choice_labels=(("其他玩家平分", "Split among the others"),
                                ("交给房间", "Paid to the room")))  # fmt: skip


def int_param(
    name: str, default: int, zh: str, en: str, help_zh: str = "", help_en: str = "",
    lo: int = 0, hi: int = 100_000,
) -> Param:  # fmt: skip
    """A whole-number parameter from `lo` to `hi` (how most amounts are declared)."""
    return Param(name, "int", default, zh, en, help_zh, help_en, min=lo, max=hi)


class ParamValues(Mapping[str, ParamValue]):
    """A ruleset's parameter values, every one declared and checked by its `Param`
    (built by `Ruleset.resolve_params`; read-only).  A mapping, so it serializes as
    `dict(values)`.  The typed reads below return what the declaration promised
    and refuse anything else: a TypeError is a programming error, a parameter
    read as what it was not declared to be."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, ParamValue]) -> None:
        self._values = dict(values)

    def __getitem__(self, name: str) -> ParamValue:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"ParamValues({self._values!r})"

    def whole(self, name: str) -> int:
        """An "int" parameter's value."""
        v = self._values[name]
        if type(v) is not int:
            raise TypeError(f"parameter {name!r} is not a whole number: {v!r}")
        return v

    def number(self, name: str) -> float:
        """A "float" parameter's value (a whole number is one too)."""
        v = self._values[name]
        if type(v) is not float and type(v) is not int:
            raise TypeError(f"parameter {name!r} is not a number: {v!r}")
        return v

    def flag(self, name: str) -> bool:
        """A "bool" parameter's value."""
        v = self._values[name]
        if type(v) is not bool:
            raise TypeError(f"parameter {name!r} is not true or false: {v!r}")
        return v

    def choice(self, name: str) -> str:
        """A "choice" parameter's value: one of its declared choices."""
        v = self._values[name]
        if type(v) is not str:
            raise TypeError(f"parameter {name!r} is not a choice: {v!r}")
        return v
