"""Template filters of the table's pages: `{% load scorer_format %}`.

`signed`: a point count as players read it, always with its sign: "+8", "−8"
(U+2212, a true minus sign), "0".  An ASCII hyphen is short and sits where a
line-through runs, so a struck-through "-8" in the ledger read as "8".

`signed_sign_apart`: the same text with the sign in its own
`<span class="sign">`, for figures that are struck through: the stylesheet
makes that span an inline-block, which a parent's line-through does not
cross, so the sign stays readable above a struck number.

`pts`: a score in an element of its own, `<span class="pts n5">−1500</span>`:
never broken across lines (site.css), and set smaller where its box is too
narrow for its `n` characters, so a card or a ledger cell never breaks "−1500"
into "−150 / 0".  `pts:"apart"` keeps the sign apart (as above), `pts:"plain"`
prints an amount without a sign (a payment: "96").

`nowrap`: a piece of a sentence kept on one line (a date: "11-28" broke at its hyphen).

`{% ledger_cells row.cells row.standing %}`: the points cells of one ledger row.

`{% text_length "note" %}`: a kind of text's one length (scorer/clean/text.py), for an
input's maxlength where no form field renders it.
"""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from scorer.clean.parse import money_or_none
from scorer.clean.text import KINDS

register = template.Library()

MINUS = "\u2212"


def sign_class(n: int | Decimal) -> str:
    """The CSS class of a figure: pos, neg or zero (green, red, grey)."""
    return "pos" if n > 0 else "neg" if n < 0 else "zero"


def signed_text(n: int | Decimal | str | None) -> str:
    """+8, −8 (minus sign), 0; Decimals keep their digits ("−7.50"); anything else as it is."""
    if isinstance(n, bool) or not isinstance(n, (int, Decimal)):
        return "" if n is None else str(n)
    if not n:
        return "0"
    return f"+{n}" if n > 0 else f"{MINUS}{-n}"


@register.filter(is_safe=True)
def signed(value: int | Decimal | str | None) -> str:
    return signed_text(value)


def _sign_apart(text: str) -> str:
    if text[:1] not in ("+", MINUS):
        return text
    return f'<span class="sign">{text[0]}</span>{text[1:]}'


@register.filter
def signed_sign_apart(value: int | Decimal | str | None) -> str | SafeString:
    text = signed_text(value)
    return mark_safe(_sign_apart(text)) if isinstance(value, (int, Decimal)) else text


def pts_html(text: str, cls: str = "", inner: str | None = None, tag: str = "span") -> str:
    """`text` as a score element: its length as a class (n1 ... n12) for site.css's fit."""
    first = f"{cls} " if cls else ""
    shown = conditional_escape(text) if inner is None else inner
    return f'<{tag} class="{first}pts n{min(max(len(text), 1), 12)}">{shown}</{tag}>'


@register.filter
def pts(value: int | Decimal | str | None, how: str = "") -> SafeString:
    """A score (signed), a money amount (a signed string) or, with "plain", an amount."""
    if value is None or value == "":
        return mark_safe("")
    if how == "plain":
        return mark_safe(pts_html(str(value)))
    text = signed_text(value)
    if how == "apart" and isinstance(value, (int, Decimal)):
        return mark_safe(pts_html(text, inner=_sign_apart(text)))
    return mark_safe(pts_html(text))


@register.filter
def nowrap(value: object) -> SafeString:
    """A piece of text kept on one line (a date "11-28" inside a sentence)."""
    return mark_safe(f'<span class="nowrap">{conditional_escape(str(value))}</span>')


@register.simple_tag
def text_length(kind: str) -> int:
    """The length of a kind of text (KeyError for a kind that is none: a typo in a template)."""
    return KINDS[kind].max_length


@register.simple_tag
def ledger_cells(cells: list[tuple[int, int]], standing: bool) -> SafeString:
    """A ledger row's cells from (points, running total) pairs; struck through when undone.

    Made here rather than with template tags: a long game's ledger has over a
    thousand of them, and this is what keeps its page fast (benchmarks.web).
    Nothing needs escaping: every piece is made from ints.
    """
    cells = [(int(d), int(t)) for d, t in cells]
    if standing:
        html = "".join(
            f'<span class="cell {sign_class(d)}">{pts_html(signed_text(d), "delta")}'
            f"{pts_html(signed_text(t), 'sum', tag='small')}</span>"
            for d, t in cells
        )
    else:
        html = "".join(
            f'<span class="cell {sign_class(d)}">'
            f"{pts_html(signed_text(d), 'delta', _sign_apart(signed_text(d)), 'del')}</span>"
            for d, _ in cells
        )
    return mark_safe(html)


def _money(value: Decimal | int | str | None) -> Decimal | None:
    """An amount the app holds (a Decimal) or a figure kept as text ("−" never: JSON
    keeps "-7.50"), read by scorer/clean/parse.py; None for none."""
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    return money_or_none(value) if value not in (None, "") else None


def yuan_text(value: Decimal | int | str | None, unit: bool = True) -> str:
    """Money as every page writes it: two decimals, a true minus (U+2212), "元"
    ("12.50 元", "−12.50 元"); "" for none.  The CSV writes plain numbers instead
    (scorer/clean/spreadsheet.py `amount`)."""
    n = _money(value)
    if n is None:
        return ""
    n = n.quantize(Decimal("0.01"))
    text = f"{MINUS}{-n}" if n < 0 else f"{n}"
    return gettext("%(n)s yuan") % {"n": text} if unit else text


@register.filter
def yuan(value: Decimal | int | str | None) -> str:
    """`{{ amount|yuan }}`: "12.50 元"."""
    return yuan_text(value)


@register.filter
def yuan_n(value: Decimal | int | str | None) -> str:
    """`{{ amount|yuan_n }}`: "12.50", "−12.50" (a column headed in 元)."""
    return yuan_text(value, unit=False)


@register.filter
def yuan_signed(value: Decimal | int | str | None) -> str:
    """`{{ change|yuan_signed }}`: "+50.00 元", "−7.50 元" (a change)."""
    text = yuan_text(value)
    n = _money(value)
    return f"+{text}" if n is not None and n > 0 else text
