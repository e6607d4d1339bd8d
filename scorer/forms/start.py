"""The form that starts a session: one of the room's configurations, the players, money, and every parameter its ruleset declares."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from rules import RuleError
from rules.params import Param
from rules.registry import Ruleset
from scorer.clean.lookalike import skeleton
from scorer.clean.parse import MAX_PARAM_PLACES, MAX_RATE, decimal_or_none, id_or_none, int_or_none
from scorer.clean.text import PLAYER_NAME, TextField
from scorer.forms.fields import AmountField
from scorer.language import by_language, rule_error_text
from scorer.models.players import PLACEHOLDER_NAMES, Player
from scorer.models.rooms import RoomConfig
from scorer.money.fees import FeeRule
from scorer.money.timefee import TimeFee
from scorer.present.history import value_text
from scorer.present.words import SEAT_NAMES, WIND_NAMES


def config_label(c: RoomConfig) -> str:
    """A configuration as the start page lists it: its name, and its ruleset's unless
    the name says it already ("成都五元 · 四川麻将").  A name still as copied from a
    code preset is said in the reader's language; an admin's own name as typed."""
    rs = c.rules
    if rs is None:
        return c.name
    ruleset = by_language(rs.name_zh, rs.name_en)
    preset = rs.preset(c.preset) if c.preset else None
    if preset is not None and c.name == preset.name_zh:
        name = by_language(preset.name_zh, preset.name_en)
    elif not c.preset and c.name == rs.name_zh:
        name = ruleset
    else:
        name = c.name
    return name if ruleset in name else f"{name} · {ruleset}"


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
        whole = int_or_none(text)
        return text if whole is None else whole
    if p.type == "float":  # a ruleset's float parameter: 0.5, 1.25 (no exponent, no NaN)
        number = decimal_or_none(text, MAX_PARAM_PLACES)
        return text if number is None else float(number)
    return text


def add_param_fields(form: forms.BaseForm, rules: Ruleset, start: Mapping[str, Any]) -> None:
    """One field per parameter the ruleset declares (`param_<name>`), starting at `start`."""
    for p in rules.params:
        field = form.fields[f"param_{p.name}"] = _param_field(p)
        field.initial = start.get(p.name, p.default)


def clean_params(
    form: forms.BaseForm,
    rules: Ruleset,
    cleaned: Mapping[str, Any],
    start: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The values the form gives, over `start` (a field left blank keeps its value
    there, else the default); each one the ruleset refuses is marked on its own field
    with the ruleset's message (the start form and the room's configuration form alike)."""
    values: dict[str, Any] = dict(start or {})
    for p in rules.params:
        key = f"param_{p.name}"
        if key in form.errors:
            continue
        value = _typed(p, cleaned.get(key))
        if value is None:
            continue
        try:
            rules.resolve_params({p.name: value})
        except RuleError as e:
            form.add_error(key, rule_error_text(e))
            continue
        values[p.name] = value
    try:
        rules.resolve_params(values)
    except RuleError as e:  # each value fine alone, not together
        form.add_error(None, rule_error_text(e))
    return values


ROOM = "room:"  # GameSession.preset of a table started from a configuration: "room:<id>"


def chosen_config(
    offered: list[RoomConfig], config: Any = None, ruleset: Any = None
) -> RoomConfig | None:
    """The configuration a start page or a start asks for, among the room's offered ones:
    by id ("12" or "room:12"), else the first of a ruleset, else the room's first.
    None when nothing fits: a ruleset the room does not offer, or no configuration."""
    text = str(config or "").removeprefix(ROOM)
    by_id = {c.pk: c for c in offered}
    pk = id_or_none(text)
    if pk in by_id:
        return by_id[pk]
    if ruleset:
        return next((c for c in offered if c.ruleset == ruleset), None)
    return None if text or not offered else offered[0]


class LookAlike:
    """The question a seat's name asks when it looks like a room player's: its two
    answers carry the names they were given for."""

    def __init__(self, seat: int, name: str, other: str) -> None:
        self.seat, self.name, self.other = seat, name, other
        self.same = f"same:{other}"  # the player already here sits
        self.new = f"new:{name}"  # a new player, as typed

    def question(self) -> str:
        return gettext("“%(name)s” looks like %(other)s, a player of this room: same person?") % {
            "name": self.name,
            "other": self.other,
        }

    def same_label(self) -> str:
        return gettext("Same person: seat %(other)s") % {"other": self.other}

    def new_label(self) -> str:
        return gettext("Someone else: a new player “%(name)s”") % {"name": self.name}


class StartForm(forms.Form):
    """Start a session from one of the room's configurations: the players, the first
    dealer, money, and every parameter its ruleset declares, starting at its values."""

    # Resolved by the view before the form is made (chosen_config); shown, not cleaned.
    config = forms.ChoiceField(label=gettext_lazy("Rules"), required=False)
    players = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Players"))
    name_0 = TextField(PLAYER_NAME, required=False)
    name_1 = TextField(PLAYER_NAME, required=False)
    name_2 = TextField(PLAYER_NAME, required=False)
    name_3 = TextField(PLAYER_NAME, required=False)
    # The answer to "looks like 老王: same person?" for a seat (LookAlike), when asked.
    same_0 = forms.CharField(required=False)
    same_1 = forms.CharField(required=False)
    same_2 = forms.CharField(required=False)
    same_3 = forms.CharField(required=False)
    first_dealer = forms.TypedChoiceField(coerce=int, initial=0, label=gettext_lazy("First dealer"))
    money_per_point = AmountField(
        required=False,
        min_value=Decimal(0),
        max_value=MAX_RATE,
        decimal_places=2,
        label=gettext_lazy("Money per point"),
        help_text=gettext_lazy("Optional: shows each player's money beside the points."),
        widget=forms.NumberInput(attrs={"step": "0.01", "inputmode": "decimal", "min": "0"}),
    )

    def __init__(
        self,
        offered: list[RoomConfig],
        chosen: RoomConfig,
        *args: Any,
        own_time_fee: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # A fixed table's own 计时 price (包间A), which its table starts under.
        self.own_time_fee = own_time_fee or {}
        rules = chosen.rules
        assert rules is not None  # offered configurations are of registered rulesets
        self.rules = rules
        self.chosen = chosen
        config_field = self.fields["config"]
        assert isinstance(config_field, forms.ChoiceField)
        # The room's configurations only, each once, in the room's order: the values a
        # table starts with are the ones its admins set (a code preset is only where a
        # configuration is copied from).
        config_field.choices = [(str(c.pk), config_label(c)) for c in offered]
        config_field.initial = str(chosen.pk)
        players = self.fields["players"]
        assert isinstance(players, forms.ChoiceField)
        players.choices = [(n, n) for n in sorted(rules.players, reverse=True)]
        players.initial = max(rules.players)
        dealer = self.fields["first_dealer"]
        assert isinstance(dealer, forms.ChoiceField)
        dealer.choices = [(i, SEAT_NAMES[i]) for i in range(4)]
        for i in range(4):
            self.fields[f"name_{i}"].widget.attrs.update(
                {
                    "placeholder": PLACEHOLDER_NAMES[i],
                    "autocomplete": "off",
                    "list": "recent-players",
                }
            )
        self.lookalikes: dict[int, LookAlike] = {}
        add_param_fields(self, rules, chosen.params or {})
        # A room that locked its values: they are shown, not offered for a change, and
        # whatever a form sends for them is not read (clean() takes the room's).
        self.locked = chosen.locked
        if self.locked:
            for p in rules.params:
                self.fields[f"param_{p.name}"].disabled = True

    def locked_values(self) -> list[tuple[str, str]]:
        """(label, value in words) of each parameter, as a locked configuration's start
        page lists them."""
        values = self.chosen.params or {}
        return [
            (by_language(p.label_zh, p.label_en), value_text(p, values.get(p.name, p.default)))
            for p in self.rules.params
        ]

    def seats(self) -> list[dict[str, Any]]:
        """The name fields with the seat each starts in (the template lays them out)."""
        return [
            {
                "field": self[f"name_{i}"],
                "seat": i,
                "wind": list(WIND_NAMES.values())[i],
                "lookalike": self.lookalikes.get(i),
            }
            for i in range(4)
        ]

    def fee_line(self) -> str:
        """How the room charges a table of the chosen configuration (台费), said before it
        starts; "" when it does not (the start page then says nothing of fees)."""
        rule = FeeRule.of(self.chosen.fee)
        return rule.describe() if rule.charges else ""

    def time_fee_line(self) -> str:
        """The 计时 price a table started here pays, in words (the fixed table's own,
        else the configuration's); "" for none."""
        rule = TimeFee.of(self.own_time_fee or self.chosen.time_fee or {})
        return rule.words() if rule.charges else ""

    def param_fields(self) -> list[forms.BoundField]:
        return [self[f"param_{p.name}"] for p in self.rules.params]

    def _same_people(self, names: list[str], cleaned: Mapping[str, Any]) -> list[str]:
        """Each typed name that looks like a room player's without being it (Latin "o"
        for Cyrillic "о", "Ｂｏｂ" for "Bob": Player.looking_like) is asked about on
        its seat, "same person?": "yes" seats that player (his name), "no" keeps the
        name as typed, a new player.  An answer counts only for the names it was
        given for (a name changed since is asked again)."""
        out = list(names)
        for i, name in enumerate(names):
            if f"name_{i}" in self.errors or not (cleaned.get(f"name_{i}") or "").strip():
                continue  # refused already, or left blank (a placeholder, no player)
            other = Player.looking_like(self.chosen.room_id, name)
            if other is None:
                continue
            ask = LookAlike(i, name, other.name)
            answer = cleaned.get(f"same_{i}")
            if answer == ask.same:
                out[i] = other.name
            elif answer != ask.new:
                self.lookalikes[i] = ask
                self.add_error(f"name_{i}", ask.question())
        return out

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
                (cleaned.get(f"name_{i}") or "").strip() or str(PLACEHOLDER_NAMES[i])
                for i in range(n)
            ]
            names = self._same_people(names, cleaned)
            # Each clashing field is marked (Django sets aria-invalid on it), not only the form.
            # Two names that look the same ("Bob", "Bоb") clash as two equal ones do.
            looks = [skeleton(name) for name in names]
            for i, name in enumerate(names):
                if looks.count(looks[i]) > 1:
                    self.add_error(
                        f"name_{i}",
                        gettext("Two players are called %(name)s: give each a different name.")
                        % {"name": name},
                    )
            cleaned["names"] = names

        if FeeRule.of(self.chosen.fee).needs_rate and not cleaned.get("money_per_point"):
            # 抽水 / 每把 in 元 is taken from what a win is worth in money.
            self.add_error(
                "money_per_point",
                gettext("The room charges a share of each win in yuan: give the money per point."),
            )
        if self.locked:
            # The room's values, whatever was sent: the server is the lock, not the page.
            cleaned["params"] = dict(self.chosen.params or {})
            return cleaned
        # A blank field keeps the configuration's value (not the ruleset's default).
        cleaned["params"] = clean_params(self, self.rules, cleaned, self.chosen.params)
        return cleaned
