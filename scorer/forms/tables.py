"""The forms of a room's fixed tables (scorer/views/manage_tables.py): adding one or
several, and renumbering, renaming or pricing one (its own 计时, else its
configuration's)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from scorer.clean.text import TABLE_NAME, TextField
from scorer.forms.fields import WholeNumberField
from scorer.forms.time_fees import add_time_fee_fields, clean_time_fee
from scorer.models.rooms import FIRST_TABLE, LAST_TABLE, RoomTable

MAX_TABLES_AT_ONCE = 60


def _numbers_are() -> str:
    said = gettext("A table's number is from %(first)s to %(last)s.")
    return said % {"first": FIRST_TABLE, "last": f"{LAST_TABLE:,}"}


def number_field() -> WholeNumberField:
    """A table's number, 1 to 9,999, in both forms (the room's own check: Room.add_tables)."""
    said = lazy(_numbers_are, str)()
    return WholeNumberField(
        label=gettext_lazy("Number"),
        min_value=FIRST_TABLE,
        max_value=LAST_TABLE,
        error_messages={"min_value": said, "max_value": said},
    )


class AddTablesForm(forms.Form):
    number = number_field()
    count = WholeNumberField(
        label=gettext_lazy("How many"),
        min_value=1,
        max_value=MAX_TABLES_AT_ONCE,
        initial=1,
        help_text=gettext_lazy("Several at once are numbered one after another."),
    )
    name = TextField(
        TABLE_NAME,
        label=gettext_lazy("Name (optional)"),
        required=False,
        help_text=gettext_lazy("For example 包间A; blank: “Table 3”."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if (cleaned.get("count") or 1) > 1 and cleaned.get("name"):
            self.add_error("name", gettext("Give a name to one table at a time."))
        first, count = cleaned.get("number"), cleaned.get("count")
        if first is not None and count is not None and first + count - 1 > LAST_TABLE:
            self.add_error(
                "count",
                gettext(
                    "Tables are numbered up to %(last)s: from table %(first)s, at most %(n)s "
                    "can be added."
                )
                % {"last": f"{LAST_TABLE:,}", "first": first, "n": LAST_TABLE - first + 1},
            )
        return cleaned


class TableForm(forms.ModelForm):
    number = number_field()
    name = TextField(TABLE_NAME, label=gettext_lazy("Name (optional)"), required=False)

    class Meta:
        model = RoomTable
        fields = ["number", "name"]
        labels = {"number": gettext_lazy("Number"), "name": gettext_lazy("Name (optional)")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Its own 计时 price (包间A dearer than the hall); none: its configuration's.
        add_time_fee_fields(
            self, self.instance.time_fee or {}, gettext_lazy("As its configuration says")
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["time_fee"] = clean_time_fee(self, cleaned)
        return cleaned

    def clean_number(self) -> int:
        number: int = self.cleaned_data["number"]
        clash = RoomTable.objects.filter(room=self.instance.room, number=number)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(
                gettext("The room has a table %(n)s already.") % {"n": number}
            )
        return number

    def validate_unique(self) -> None:
        """clean_number says it in words; the constraint stays the last word on save."""


__all__ = ["MAX_TABLES_AT_ONCE", "AddTablesForm", "TableForm", "number_field"]
