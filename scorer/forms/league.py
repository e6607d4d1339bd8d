"""The season form of the room's league page: a name, its first and last day, the
configurations that count, the ranking, its points or uma per place for 4, 3 and 2
players, the minimum of tables and the best N.  Every number is read by
scorer/clean/parse.py, every text by the one cleaner (scorer/clean/text.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from scorer.clean.parse import date_or_none, int_or_none
from scorer.clean.text import SEASON_NAME, TextField
from scorer.forms.fields import WholeNumberField
from scorer.models import Room, Season
from scorer.models.league import DEFAULT_PLACE_POINTS, DEFAULT_UMA, RANKINGS

PLAYER_COUNTS = ("4", "3", "2")


def per_place_text(values: dict[str, list[int]]) -> dict[str, str]:
    return {n: ",".join(str(v) for v in values.get(n, [])) for n in PLAYER_COUNTS}


class SeasonForm(forms.Form):
    name = TextField(SEASON_NAME, label=gettext_lazy("Name"))
    first_day = forms.CharField(label=gettext_lazy("First day"), max_length=10,
                                widget=forms.DateInput(attrs={"type": "date"}))  # fmt: skip
    last_day = forms.CharField(label=gettext_lazy("Last day"), max_length=10,
                               widget=forms.DateInput(attrs={"type": "date"}))  # fmt: skip
    configs = forms.MultipleChoiceField(
        label=gettext_lazy("Configurations that count"),
        widget=forms.CheckboxSelectMultiple,
        required=True,
    )
    ranking = forms.ChoiceField(label=gettext_lazy("Ranking"), choices=RANKINGS)
    points_4 = forms.CharField(
        label=gettext_lazy("Standard points by place, 4 players"), max_length=40
    )
    points_3 = forms.CharField(
        label=gettext_lazy("Standard points by place, 3 players"), max_length=40
    )
    points_2 = forms.CharField(
        label=gettext_lazy("Standard points by place, 2 players"), max_length=40
    )
    uma_4 = forms.CharField(label=gettext_lazy("Uma by place, 4 players"), max_length=40)
    uma_3 = forms.CharField(label=gettext_lazy("Uma by place, 3 players"), max_length=40)
    uma_2 = forms.CharField(label=gettext_lazy("Uma by place, 2 players"), max_length=40)
    min_tables = WholeNumberField(label=gettext_lazy("Tables to be ranked"), min_value=0,
                                  max_value=999, initial=0)  # fmt: skip
    best_n = WholeNumberField(
        label=gettext_lazy("Count only each player's best N tables (blank: all)"),
        min_value=1, max_value=999, required=False,
    )  # fmt: skip

    def __init__(self, room: Room, *args: Any, season: Season | None = None, **kw: Any) -> None:
        if season is not None and not args:
            points, uma = per_place_text(season.place_points or DEFAULT_PLACE_POINTS), per_place_text(
                season.uma or DEFAULT_UMA)  # fmt: skip
            kw["initial"] = {
                "name": season.name, "first_day": season.first_day.isoformat(),
                "last_day": season.last_day.isoformat(),
                "configs": [str(c.pk) for c in season.configs.all()], "ranking": season.ranking,
                **{f"points_{n}": points[n] for n in PLAYER_COUNTS},
                **{f"uma_{n}": uma[n] for n in PLAYER_COUNTS},
                "min_tables": season.min_tables, "best_n": season.best_n,
            }  # fmt: skip
        elif not args:
            points, uma = per_place_text(DEFAULT_PLACE_POINTS), per_place_text(DEFAULT_UMA)
            kw.setdefault("initial", {}).update(
                {
                    **{f"points_{n}": points[n] for n in PLAYER_COUNTS},
                    **{f"uma_{n}": uma[n] for n in PLAYER_COUNTS},
                }  # fmt: skip
            )
        super().__init__(*args, **kw)
        self.room = room
        configs = self.fields["configs"]
        assert isinstance(configs, forms.MultipleChoiceField)
        configs.choices = [(str(c.pk), c.name) for c in room.configs.all()]

    def _day(self, key: str) -> Any:
        day = date_or_none(self.cleaned_data.get(key))
        if day is None:
            raise forms.ValidationError(gettext("A date such as 2026-11-01."))
        return day

    def clean_first_day(self) -> Any:
        return self._day("first_day")

    def clean_last_day(self) -> Any:
        return self._day("last_day")

    def _per_place(self, key: str, n: int) -> list[int]:
        parts = [
            p.strip() for p in str(self.cleaned_data.get(key) or "").replace("，", ",").split(",")
        ]
        values = [int_or_none(p, -10_000, 10_000) for p in parts]
        if len(values) != n or any(v is None for v in values):
            raise forms.ValidationError(
                gettext("%(n)s whole numbers, one per place, separated by commas.") % {"n": n}
            )
        return [v for v in values if v is not None]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for n in PLAYER_COUNTS:
            for kind in ("points", "uma"):
                try:
                    data[f"{kind}_{n}"] = self._per_place(f"{kind}_{n}", int(n))
                except forms.ValidationError as e:
                    self.add_error(f"{kind}_{n}", e)
        first, last = data.get("first_day"), data.get("last_day")
        if first and last and first > last:
            self.add_error("last_day", gettext("The last day comes on or after the first."))
        return data

    def season_fields(self) -> tuple[list[Any], dict[str, Any]]:
        """(configurations, the season's fields) from a valid form."""
        d = self.cleaned_data
        configs = list(self.room.configs.filter(pk__in=[int(c) for c in d["configs"]]))
        fields = {
            "name": d["name"], "first_day": d["first_day"], "last_day": d["last_day"],
            "ranking": d["ranking"],
            "place_points": {n: d[f"points_{n}"] for n in PLAYER_COUNTS},
            "uma": {n: d[f"uma_{n}"] for n in PLAYER_COUNTS},
            "min_tables": d["min_tables"], "best_n": d["best_n"],
        }  # fmt: skip
        return configs, fields


__all__ = ["SeasonForm"]
