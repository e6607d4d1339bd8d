"""The forms of a room's admin pages: a configuration, a new one, merging two
players, an invited admin's account."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext, gettext_lazy

from rules.registry import Ruleset
from scorer.clean.text import CONFIG_NAME, MEMBER_NAME, ROOM_NAME, TextField, cut
from scorer.forms.fees import add_fee_fields, clean_fee
from scorer.forms.start import add_param_fields, clean_params, config_label
from scorer.forms.time_fees import add_time_fee_fields, clean_time_fee
from scorer.language import by_language
from scorer.models.players import Player
from scorer.models.roomlog import Actor
from scorer.models.rooms import Room, RoomConfig
from scorer.present.words import table_rulesets


def name_taken(room: Room, ruleset: str, name: str, exclude: int | None = None) -> bool:
    """Whether another configuration of the room and ruleset goes by this name: the
    start page lists them by name and ruleset ("基本打法 · 河北麻将"), and two alike are
    what the room's players could not tell apart."""
    others = room.configs.filter(ruleset=ruleset, name__iexact=name.strip())
    return others.exclude(pk=exclude).exists() if exclude else others.exists()


def free_name(room: Room, ruleset: str, name: str) -> str:
    """`name`, or "name 2", "name 3"… when the room has one by that name already (cut
    to leave room for the number within a configuration name's length)."""
    name = cut(CONFIG_NAME, name)[: CONFIG_NAME.max_length - 4]
    candidate, n = name, 1
    while name_taken(room, ruleset, candidate):
        n += 1
        candidate = f"{name} {n}"
    return candidate


class ConfigForm(forms.Form):
    """A configuration's name and every parameter its ruleset declares, each checked by
    the ruleset on its own field; the fee (台费) beside them."""

    name = TextField(CONFIG_NAME, label=gettext_lazy("Name"))
    # The configuration's `version` when the form was opened (RoomConfig.edit).
    seen = forms.CharField(widget=forms.HiddenInput, required=False)
    locked = forms.BooleanField(
        label=gettext_lazy("Lock the values"),
        help_text=gettext_lazy(
            "Players see these values on the start page but cannot change them."
        ),
        required=False,
    )

    def __init__(self, config: RoomConfig, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rules = config.rules
        assert rules is not None  # a configuration's ruleset is checked on every save
        self.rules: Ruleset = rules
        self.config = config
        self.fields["name"].initial = config.name
        self.fields["seen"].initial = config.version
        self.fields["locked"].initial = config.locked
        add_param_fields(self, rules, config.params or {})
        add_fee_fields(self, config.fee or {})  # 台费, rendered by room/_fee_fields.html
        add_time_fee_fields(self, config.time_fee or {})  # 计时: room/_time_fee_fields.html

    def param_fields(self) -> list[forms.BoundField]:
        return [self[f"param_{p.name}"] for p in self.rules.params]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        name = (cleaned.get("name") or "").strip()
        config = self.config
        if name and name_taken(config.room, config.ruleset, name, exclude=config.pk):
            self.add_error(
                "name",
                gettext("Another configuration of this room is called %(name)s.") % {"name": name},
            )
        cleaned["params"] = clean_params(self, self.rules, cleaned, self.config.params)
        cleaned["fee"] = clean_fee(self, cleaned)
        cleaned["time_fee"] = clean_time_fee(self, cleaned)
        return cleaned


def preset_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every code preset, grouped by ruleset ("preset:<ruleset>:<preset>"; a ruleset
    without presets once, at its defaults)."""
    groups = []
    for rs in table_rulesets():
        name = by_language(rs.name_zh, rs.name_en)
        options = [
            (f"preset:{rs.id}:{p.id}", by_language(p.name_zh, p.name_en)) for p in rs.presets
        ] or [(f"preset:{rs.id}:", gettext("%(ruleset)s (defaults)") % {"ruleset": name})]
        groups.append((name, options))
    return groups


class NewConfigForm(forms.Form):
    """Where a new configuration starts: a code preset, or a copy of one of the room's."""

    source = forms.ChoiceField(label=gettext_lazy("Start from"))
    name = TextField(
        CONFIG_NAME,
        label=gettext_lazy("Name"),
        required=False,
        help_text=gettext_lazy("Optional: the preset's or the copied configuration's name."),
    )

    def __init__(self, room: Room, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.room = room
        self.room_configs = {str(c.pk): c for c in room.configs.order_by("order", "pk")}
        mine = [(f"config:{pk}", config_label(c)) for pk, c in self.room_configs.items()]
        source = self.fields["source"]
        assert isinstance(source, forms.ChoiceField)
        source.choices = [
            (gettext("A copy of this room's"), mine),
            *preset_choices(),
        ]

    def _ruleset(self, source: str) -> str:
        kind, _, rest = source.partition(":")
        return self.room_configs[rest].ruleset if kind == "config" else rest.partition(":")[0]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        name = (cleaned.get("name") or "").strip()
        source = cleaned.get("source")
        if name and source and name_taken(self.room, self._ruleset(source), name):
            self.add_error(
                "name",
                gettext("Another configuration of this room is called %(name)s.") % {"name": name},
            )
        cleaned["name"] = name
        return cleaned

    def create(self, by: Actor | None = None) -> RoomConfig:
        """The new configuration (call after is_valid), logged as `by`'s."""
        source = self.cleaned_data["source"]
        kind, _, rest = source.partition(":")
        name = self.cleaned_data["name"]
        if kind == "config":
            original = self.room_configs[rest]
            copy_name = gettext("%(name)s (copy)") % {"name": original.name}
            return original.clone(name or free_name(self.room, original.ruleset, copy_name), by=by)
        ruleset, _, preset = rest.partition(":")
        if not name:
            label = dict(c for _, group in preset_choices() for c in group)[source]
            name = free_name(self.room, ruleset, label)
        return self.room.add_config(ruleset, preset, name, by=by)


class MergeForm(forms.Form):
    """Two names that are one person: `gone` is merged into `keep`."""

    gone = forms.TypedChoiceField(coerce=int, label=gettext_lazy("This name"))
    keep = forms.TypedChoiceField(coerce=int, label=gettext_lazy("is the same person as"))

    def __init__(self, players: list[Player], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(p.pk, p.name) for p in sorted(players, key=lambda p: p.name)]
        for key in ("gone", "keep"):
            field = self.fields[key]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("gone") is not None and cleaned.get("gone") == cleaned.get("keep"):
            self.add_error("keep", gettext("Choose two different names."))
        return cleaned


class SignUpForm(UserCreationForm):
    """An invited admin's new account (Django's own form: its password checks)."""

    display_name = TextField(
        MEMBER_NAME,
        label=gettext_lazy("Name shown in the room"),
        required=False,
        help_text=gettext_lazy("What the room's history calls you, e.g. 老板 or 小张."),
    )


class RoomNameForm(forms.Form):
    """The room's name, as its pages and QR sheet show it (its address stays)."""

    name = TextField(ROOM_NAME, label=gettext_lazy("The room's name"))

    def clean_name(self) -> str:
        name = str(self.cleaned_data["name"]).strip()
        if not name:
            raise forms.ValidationError(gettext("Give the room a name."))
        return name


class DisplayNameForm(forms.Form):
    display_name = TextField(MEMBER_NAME, label=gettext_lazy("Name shown in the room"))
