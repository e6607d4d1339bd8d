"""The forms' number fields: Django's IntegerField and DecimalField, read by
scorer/clean/parse.py instead of Python's int() and Decimal() (which take ٢٠, 2_0, ² and
1e3), so that a field typed on a phone reads the one way every number from outside
reads.  Range and step checks stay Django's (min_value, max_value, decimal_places),
with their messages in the reader's language."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from scorer.clean.parse import decimal_or_none, int_or_none

WHOLE_NUMBER = gettext_lazy("Type a whole number in digits 0–9, such as 12.")
AMOUNT = gettext_lazy(
    "Type an amount in digits 0–9, such as 12.50: at most %(places)s after the point."
)


class WholeNumberField(forms.IntegerField):
    """A whole number: ASCII digits (full-width ones read as ASCII) and a sign; its
    range is min_value and max_value, said in Django's words ("-1": at least 1)."""

    default_error_messages = {"invalid": WHOLE_NUMBER}

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if text in self.empty_values:
            return None
        number = int_or_none(text)
        if number is None:  # the range is Django's validators' to say, with its words
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class AmountField(forms.DecimalField):
    """A decimal amount (money in 元: two places; a percentage: one), read by
    scorer/clean/parse.py; decimal_places is required, as it is the one reading."""

    def __init__(self, *, decimal_places: int, **kwargs: Any) -> None:
        self.places = decimal_places
        super().__init__(decimal_places=decimal_places, **kwargs)
        self.error_messages["invalid"] = AMOUNT

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if text in self.empty_values:
            return None
        places = self.places
        number = decimal_or_none(text, places)
        if number is None:
            raise forms.ValidationError(
                self.error_messages["invalid"], code="invalid", params={"places": places}
            )
        return number
