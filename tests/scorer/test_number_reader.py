"""scorer/clean/parse.py, the one reader of numbers from outside: ASCII digits, a sign where
the range allows one, a point and at most its places for an amount; full-width
digits read as ASCII; everything else Python's own readers would take refused."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.clean.parse import (
    MAX_DIGITS,
    NumberConverter,
    decimal_or_none,
    id_or_none,
    int_or_none,
    money_or_none,
    page_number,
    preset_config_id,
)
from scorer.forms.fields import AmountField, WholeNumberField

# Each class of outside text that Python's int(), float() or Decimal() read, or that
# str.isdigit() says is digits: one field must read none of them.
REFUSED = {
    "superscript two": "²",
    "superscript one": "¹",
    "circled one": "①",
    "Arabic-Indic 20": "٢٠",
    "Devanagari 20": "२०",
    "mathematical bold 2": "𝟚",
    "underscore": "2_0",
    "space inside": "2 0",
    "space before": " 20",
    "space after": "20 ",
    "tab": "\t20",
    "exponent": "2e1",
    "capital exponent": "2E1",
    "NaN": "NaN",
    "infinity": "inf",
    "Infinity": "-Infinity",
    "hex": "0x14",
    "binary": "0b10",
    "two signs": "+-20",
    "a word": "twenty",
    "empty": "",
    "NUL inside": "2\x000",
    "too long": "1" * (MAX_DIGITS + 1),
    "full-width underscore": "２_０",
    "comma": "2,000",
}
FULL_WIDTH = {"２０": 20, "－５": -5, "１２．５０": Decimal("12.50")}


@pytest.mark.parametrize("raw", REFUSED.values(), ids=list(REFUSED))
def test_every_class_of_outside_text_is_refused_by_every_reader(raw: str) -> None:
    assert int_or_none(raw) is None
    assert int_or_none(raw.encode("utf-8")) is None
    assert decimal_or_none(raw, 2) is None
    assert money_or_none(raw) is None
    assert id_or_none(raw) is None
    assert page_number(raw) == 1
    assert preset_config_id(f"room:{raw}") is None


@pytest.mark.parametrize("raw", REFUSED.values(), ids=list(REFUSED))
def test_every_class_is_the_forms_error(raw: str) -> None:
    from django import forms

    for field in (WholeNumberField(min_value=0, max_value=100), AmountField(decimal_places=2)):
        if raw.strip() == "":  # blank: the field's "required" (or None where optional)
            continue
        if raw.strip() != raw:  # a form drops the spaces around a field first, as Django does
            assert field.clean(raw) == 20
            continue
        with pytest.raises(forms.ValidationError):
            field.clean(raw)


def test_full_width_digits_are_read_as_ascii() -> None:
    assert int_or_none("２０") == 20 and int_or_none("－５") == -5
    assert money_or_none("１２．５０") == Decimal("12.50")
    assert WholeNumberField(min_value=0).clean("２０") == 20
    assert AmountField(decimal_places=2).clean("１２．５") == Decimal("12.5")


def test_a_sign_only_where_the_range_goes_below_zero() -> None:
    assert int_or_none("-5", -10, 10) == -5 and int_or_none("+5", -10, 10) == 5
    assert int_or_none("-5") == -5
    assert int_or_none("-0", 0) is None and int_or_none("+5", 0) is None
    assert money_or_none("-1.50", 0) is None and money_or_none("-1.50") == Decimal("-1.50")


def test_places_are_the_fields() -> None:
    assert money_or_none("12.5") == Decimal("12.50") and money_or_none("12.505") is None
    assert decimal_or_none("2.5", 1) == Decimal("2.5") and decimal_or_none("2.55", 1) is None
    assert money_or_none("12.") is None and money_or_none(".5") is None


def test_values_a_json_reader_gave() -> None:
    assert int_or_none(5) == 5 and int_or_none(True) is None and int_or_none(5.0) is None
    assert money_or_none(Decimal("1.5")) == Decimal("1.50") and money_or_none(1.5) is None
    assert money_or_none(Decimal("NaN")) is None and money_or_none(Decimal("1.005")) is None


def test_header_bytes_are_ascii_or_nothing() -> None:
    assert int_or_none(b"42") == 42
    assert int_or_none(b"\xb2") is None  # ² in Latin-1, as a header carries it


def test_the_url_converter_reads_through_the_reader() -> None:
    c = NumberConverter()
    assert c.to_python("12") == 12 and c.to_url(12) == "12"
    with pytest.raises(ValueError):
        c.to_python("9" * 19 + "9")
    with pytest.raises(ValueError):
        c.to_python("9223372036854775808")  # one past a bigint


@given(st.integers(-(10**18), 10**18))
def test_every_whole_number_written_in_ascii_reads_as_itself(n: int) -> None:
    assert int_or_none(str(n)) == n
    assert int_or_none(str(n), 0) == (n if n >= 0 else None)


@given(st.decimals(min_value=-(10**9), max_value=10**9, places=2, allow_nan=False))
def test_every_amount_written_in_ascii_reads_as_itself(d: Decimal) -> None:
    assert money_or_none(str(d)) == d.quantize(Decimal("0.01"))


@given(st.text(min_size=1, max_size=8))
def test_text_with_any_digit_not_ascii_or_full_width_is_refused(t: str) -> None:
    odd = [c for c in t if c.isdigit() and not c.isascii() and not "０" <= c <= "９"]
    if odd:
        assert int_or_none(t) is None and money_or_none(t) is None
