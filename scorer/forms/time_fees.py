"""The 计时 fields of a configuration's (or a fixed table's) form, and the time fee they give.

The rule itself (scorer/money/timefee.py) is below the models, which bill it; these fields
are a form's, above them.  templates/room/_time_fee_fields.html shows them (the
fields whose names start with "tf_"), clean_time_fee reads them back as stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from rules import RuleError
from scorer.forms.fields import AmountField, WholeNumberField
from scorer.language import rule_error_text
from scorer.money.timefee import (
    CENT,
    HOUR,
    MAX_PRICE,
    MODE_LABELS,
    NONE,
    OVER_BLOCK,
    OVER_HOUR,
    TimeFee,
    checked_time_fee,
)

TIME_FEE_FIELDS = (
    "tf_mode",
    "tf_price",
    "tf_unit",
    "tf_minimum",
    "tf_hours",
    "tf_grace",
    "tf_overtime",
    "tf_overtime_price",
)


def _money_field(label: Any, initial: Decimal | None) -> AmountField:
    return AmountField(
        label=label,
        min_value=CENT,
        max_value=MAX_PRICE,
        decimal_places=2,
        required=False,
        initial=initial,
        widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.01"}),
    )


def _int_field(label: Any, low: int, high: int, initial: int | None) -> WholeNumberField:
    return WholeNumberField(
        label=label,
        min_value=low,
        max_value=high,
        required=False,
        initial=initial,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": "1"}),
    )


def add_time_fee_fields(form: forms.BaseForm, start: Any, none_label: Any = None) -> None:
    """The 计时 fields of a configuration's (or a fixed table's) form, at the stored rule
    `start`; rendered by templates/room/_time_fee_fields.html, read by clean_time_fee.
    `none_label`: what "none" means here (a table: "as its configuration says")."""
    rule = TimeFee.of(start)
    labels = dict(MODE_LABELS)
    if none_label is not None:
        labels[NONE] = none_label
    form.fields["tf_mode"] = forms.ChoiceField(
        label=gettext_lazy("Time fee (yuan)"),
        choices=list(labels.items()),
        initial=rule.mode,
        required=False,
    )
    priced = rule.price if rule.charges else None
    form.fields["tf_price"] = _money_field(
        gettext_lazy("Price (yuan an hour, or a session)"), priced
    )
    form.fields["tf_unit"] = _int_field(
        gettext_lazy("Billed per (minutes, rounded up)"), 1, 1440, rule.unit
    )
    form.fields["tf_minimum"] = _int_field(
        gettext_lazy("Minimum (minutes; by the hour)"), 0, 1440, rule.minimum
    )
    form.fields["tf_hours"] = _int_field(gettext_lazy("A session lasts (hours)"), 1, 24, rule.hours)
    form.fields["tf_grace"] = _int_field(
        gettext_lazy("Grace after a session (minutes)"), 0, 240, rule.grace
    )
    form.fields["tf_overtime"] = forms.ChoiceField(
        label=gettext_lazy("Overtime"),
        choices=[
            (OVER_BLOCK, gettext_lazy("A new session")),
            (OVER_HOUR, gettext_lazy("By the hour, from the session's end")),
        ],
        initial=rule.overtime,
        required=False,
    )
    form.fields["tf_overtime_price"] = _money_field(
        gettext_lazy("Overtime price (yuan an hour)"),
        rule.overtime_price if rule.overtime == OVER_HOUR else None,
    )


def clean_time_fee(form: forms.BaseForm, cleaned: Mapping[str, Any]) -> dict[str, Any]:
    """The time fee the form gives, as stored ({} for none); errors on their fields."""
    mode = cleaned.get("tf_mode") or NONE
    if mode == NONE or any(k in form.errors for k in TIME_FEE_FIELDS):
        return {}
    if cleaned.get("tf_price") is None:
        form.add_error("tf_price", gettext("Enter the price in yuan."))
        return {}
    data: dict[str, Any] = {"mode": mode, "price": cleaned["tf_price"]}
    data["unit"] = cleaned.get("tf_unit") or 30
    if mode == HOUR:
        data["minimum"] = cleaned.get("tf_minimum") or 0
    else:
        data["hours"] = cleaned.get("tf_hours") or 4
        data["grace"] = cleaned.get("tf_grace") or 0
        data["overtime"] = cleaned.get("tf_overtime") or OVER_BLOCK
        if data["overtime"] == OVER_HOUR:
            if cleaned.get("tf_overtime_price") is None:
                form.add_error("tf_overtime_price", gettext("Enter the overtime price in yuan."))
                return {}
            data["overtime_price"] = cleaned["tf_overtime_price"]
        else:
            del data["unit"]
    try:
        return checked_time_fee(data)
    except RuleError as e:
        form.add_error("tf_price", rule_error_text(e))
        return {}


__all__ = ["TIME_FEE_FIELDS", "add_time_fee_fields", "clean_time_fee"]
