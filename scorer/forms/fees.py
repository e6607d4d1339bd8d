"""The table-fee (台费) fields of a room's configuration form, and the fee they give.

The rule itself (scorer/money/fees.py) is below the models, which charge it; these fields
are a form's, above them.  templates/room/_fee_fields.html shows them (every field
whose name starts with "fee_"), clean_fee reads them back into the fee as stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from rules import RuleError
from scorer.forms.fields import AmountField, WholeNumberField
from scorer.language import rule_error_text
from scorer.money.fees import (
    AA,
    BIG_WINNER,
    CENT,
    MAX_AMOUNT,
    MAX_PERCENT,
    NONE,
    POINTS,
    WIN_FIXED,
    WIN_LINKED_NOTE,
    WIN_PERCENT,
    YUAN,
    FeeRule,
    checked_fee,
    mode_choices,
)

# Every name starts with "fee_": room/_fee_fields.html picks the form's fee fields by it.
FEE_FIELDS = ("fee_mode", "fee_unit", "fee_amount", "fee_price", "fee_percent", "fee_cap")


def add_fee_fields(form: forms.BaseForm, start: Any) -> None:
    """The table-fee fields of a configuration form, starting at the stored fee `start`."""
    rule = FeeRule.of(start)
    form.fields["fee_mode"] = forms.ChoiceField(
        label=gettext_lazy("Table fee"),
        choices=mode_choices(),
        initial=rule.mode,
        required=False,
        help_text=WIN_LINKED_NOTE,
    )
    form.fields["fee_unit"] = forms.ChoiceField(
        label=gettext_lazy("Fee in"),
        choices=[
            (POINTS, pgettext_lazy("a fee's unit", "Points")),
            (YUAN, gettext_lazy("Yuan (money)")),
        ],
        initial=YUAN if rule.yuan else POINTS,
        required=False,
    )
    form.fields["fee_price"] = AmountField(
        label=gettext_lazy("Fee (yuan)"),
        help_text=gettext_lazy(
            "In yuan: kept apart from the points. A fee tied to wins needs the table's money"
            " per point."
        ),
        min_value=CENT,
        max_value=MAX_AMOUNT,
        decimal_places=2,
        required=False,
        initial=rule.price if rule.yuan and rule.mode != WIN_PERCENT else None,
        widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.01"}),
    )
    form.fields["fee_amount"] = WholeNumberField(
        label=gettext_lazy("Fee (points)"),
        help_text=gettext_lazy(
            "AA: from every player; fixed: from each winner; biggest winner: the whole fee."
        ),
        min_value=1,
        max_value=MAX_AMOUNT,
        required=False,
        initial=rule.amount or None,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": "1"}),
    )
    form.fields["fee_percent"] = AmountField(
        # xgettext:no-python-format
        label=gettext_lazy("Rake (% of each win)"),
        min_value=Decimal("0.1"),
        max_value=MAX_PERCENT,
        decimal_places=1,
        required=False,
        initial=rule.percent or None,
        widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.1"}),
    )
    form.fields["fee_cap"] = WholeNumberField(
        label=gettext_lazy("Cap per win (points; 0 for none)"),
        min_value=0,
        max_value=MAX_AMOUNT,
        required=False,
        initial=(int(rule.cap_yuan) if rule.yuan else rule.cap)
        if rule.mode == WIN_PERCENT
        else None,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": "1"}),
    )


def clean_fee(form: forms.BaseForm, cleaned: Mapping[str, Any]) -> dict[str, Any]:
    """The fee the form gives, as stored; a missing value is marked on its own field."""
    mode = cleaned.get("fee_mode") or NONE
    if any(k in form.errors for k in FEE_FIELDS):
        return {}
    data: dict[str, Any] = {"mode": mode}
    yuan = mode != NONE and cleaned.get("fee_unit") == YUAN
    if yuan:
        data["unit"] = YUAN
    if yuan and mode in (AA, WIN_FIXED, BIG_WINNER):
        if cleaned.get("fee_price") is None:
            form.add_error("fee_price", gettext("Enter the fee in yuan."))
            return {}
        data["amount"] = cleaned["fee_price"]
    elif mode in (AA, WIN_FIXED, BIG_WINNER):
        if cleaned.get("fee_amount") is None:
            form.add_error("fee_amount", gettext("Enter the fee in points."))
            return {}
        data["amount"] = cleaned["fee_amount"]
    elif mode == WIN_PERCENT:
        if cleaned.get("fee_percent") is None:
            form.add_error("fee_percent", gettext("Enter the percentage of each win."))
            return {}
        data["percent"] = cleaned["fee_percent"]
        data["cap"] = cleaned.get("fee_cap") or 0
    try:
        return checked_fee(data)
    except RuleError as e:
        field = "fee_percent" if mode == WIN_PERCENT else ("fee_price" if yuan else "fee_amount")
        form.add_error(field if mode != NONE else None, rule_error_text(e))
        return {}


__all__ = ["FEE_FIELDS", "add_fee_fields", "clean_fee"]
