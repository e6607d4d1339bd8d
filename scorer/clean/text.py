"""Free text from outside, cleaned in one place: every kind of text the app stores,
its one length, and what no text may hold.

A player's name, a table's, the room's, a configuration's, an admin's, a note, a
reason: each is typed by someone (at a table, on an admin's phone, in a file
being imported) and later shown to others on their pages, in the ledger and in
the exports.  So each goes through `clean_text` wherever it comes in, from a form
(`TextField`) or not (a post read by hand, an imported file, a command):

* control characters (Unicode category Cc: NUL first, which PostgreSQL refuses
  with an error, then the rest of C0, DEL and C1) are refused; a kind with lines
  (a note) takes a line break, and only that;
* invisible format characters (category Cf: U+202E turns text around, U+200B,
  U+200E/F, U+2066-2069, U+FEFF ... hide inside a name) are refused, with the
  line and paragraph separators (Zl, Zp) and lone surrogates (Cs): names are how
  players are told apart, and "甲" and "甲\u200b" look the same;
* so is every other character that shows as nothing: Unicode's
  Default_Ignorable_Code_Point set (U+034F, the variation selectors, the Hangul
  fillers U+115F, U+1160, U+3164, U+FFA0 ...; a table pinned to the Unicode
  version of `unicodedata`, scorer/clean/unicode_tables.py) and the braille blank U+2800.
  One exception, the parts of an emoji, which are seen: U+FE0E/U+FE0F right after a
  character that has that presentation sequence (❤️), and the joiner U+200D between
  two emoji (👨‍👩‍👧).  Names holding them are compared without them (scorer/clean/lookalike.py);
* the text is put in Unicode's composed form (NFC: "é" typed as e + accent is
  the "é" of a name already there), stripped, and held to its kind's length.

Refused means refused, not mended: the reader is told why in his language
(`TextRefused`) and nothing is stored.  Text the app makes itself from text it
has (a copy's name "成都五元 (copy)", an admin's user name as a history's author)
is cut to its kind's length by `cut`.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils import translation
from django.utils.translation import gettext_lazy

from rules import RuleError
from scorer.clean import unicode_tables

if TYPE_CHECKING:  # gettext_lazy's type, as django-stubs name it
    from django.utils.functional import _StrPromise


@dataclass(frozen=True)
class TextKind:
    """One kind of free text: its name (for the templates' maxlength) and its one
    length, used by the form, the post read by hand, the import and the column."""

    key: str
    max_length: int
    newlines: bool = False  # whether it may hold line breaks (a note)


# A player's name: short enough for a seat card on a phone (the start form's 16,
# now also the rename's and the import's).  The registry's column is wider (40):
# names renamed before this length was one are kept as they are.
PLAYER_NAME = TextKind("player_name", 16)
TABLE_NAME = TextKind("table_name", 30)  # 包间A: beside its QR code on the print sheet
ROOM_NAME = TextKind("room_name", 60)
CONFIG_NAME = TextKind("config_name", 60)  # 成都五元: the start page lists it with its ruleset
MEMBER_NAME = TextKind("member_name", 40)  # the name the room's history gives an admin
# Who recorded or changed something (a player's name, an admin's, a device label).
AUTHOR = TextKind("author", 80)
NOTE = TextKind("note", 200, newlines=True)  # why a table was closed or reopened
REASON = TextKind("reason", 80)  # why an adjustment moves points
SEARCH = TextKind("search", 40)  # a name looked for in the room's players
SEASON_NAME = TextKind("season_name", 40)  # 十一月月赛: the league page's heading

# Every kind by its key (the templates' `{% text_length "note" %}`).
KINDS: dict[str, TextKind] = {
    k.key: k
    for k in [PLAYER_NAME, TABLE_NAME, ROOM_NAME, CONFIG_NAME, MEMBER_NAME]
    + [AUTHOR, NOTE, REASON, SEARCH, SEASON_NAME]
}

_LINE_BREAKS = frozenset("\n\r")
# Categories no text holds: controls, invisible formatting, line and paragraph
# separators (a line break other than \n), surrogates (no UTF-8 form).
_REFUSED = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


class TextRefused(ValueError):
    """A text no kind may hold, or longer than its kind: why, in the reader's language
    (the words are looked up when read, so one refusal can be said in both)."""

    def __init__(self, template: _StrPromise, params: dict[str, Any], code: str) -> None:
        super().__init__(code)
        self.template, self.params, self.code = template, params, code

    @property
    def message(self) -> str:
        return str(self.template) % self.params

    def __str__(self) -> str:
        return self.message

    def validation_error(self) -> forms.ValidationError:
        return forms.ValidationError(self.template, code=self.code, params=self.params)

    def rule_error(self, where_en: str = "", where_zh: str = "") -> RuleError:
        """The refusal as the engine's errors are said (both languages at once): for
        text read where RuleError is how a refusal travels (an import, an adjustment)."""
        with translation.override("en"):
            en = self.message
        with translation.override("zh-hans"):
            zh = self.message
        return RuleError("bad_input", f"{where_en}{en}", f"{where_zh}{zh}")


def _code_point(c: str) -> str:
    return f"U+{ord(c):04X}"


# Shows as nothing, yet is no Cf: the braille pattern blank (So), a favourite blank name.
BLANK_LOOKING = frozenset({0x2800})
# The Hangul fillers (Lo): Default_Ignorable_Code_Point already, named for the tests.
HANGUL_FILLERS = frozenset({0x115F, 0x1160, 0x3164, 0xFFA0})
_TEXT_STYLE, _EMOJI_STYLE, _JOINER = "\ufe0e", "\ufe0f", "\u200d"


def in_ranges(ranges: tuple[tuple[int, int], ...], cp: int) -> bool:
    """Whether `cp` is in one of `ranges` (sorted, apart: unicode_tables' tables)."""
    i = bisect_right(ranges, (cp, 0x10FFFF)) - 1
    return i >= 0 and ranges[i][0] <= cp <= ranges[i][1]


def invisible(c: str) -> bool:
    """Whether `c` shows as nothing, whatever surrounds it: Default_Ignorable_Code_Point
    or the braille blank (the categories no text holds are checked apart)."""
    cp = ord(c)
    return in_ranges(unicode_tables.DEFAULT_IGNORABLE, cp) or cp in BLANK_LOOKING


# Any character `invisible` may be true of: most text has none, found in C by a regex.
_MAYBE_INVISIBLE = re.compile(
    "["
    + "".join(
        f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in (*unicode_tables.DEFAULT_IGNORABLE, *((c, c) for c in BLANK_LOOKING))
    )
    + "]"
)


def _emoji_part(text: str, i: int) -> bool:
    """Whether the invisible text[i] is part of an emoji (and so is seen): a variation
    selector right after a character with that presentation sequence, or a joiner
    between two emoji (each maybe with its U+FE0F or a skin tone)."""
    c = text[i]
    if c in (_TEXT_STYLE, _EMOJI_STYLE):
        return i > 0 and in_ranges(unicode_tables.EMOJI_VARIATION_BASES, ord(text[i - 1]))
    if c != _JOINER or i + 1 >= len(text):
        return False
    j = i - 1
    if j > 0 and (
        text[j] == _EMOJI_STYLE or in_ranges(unicode_tables.EMOJI_MODIFIERS, ord(text[j]))
    ):
        j -= 1
    return (
        j >= 0
        and in_ranges(unicode_tables.EXTENDED_PICTOGRAPHIC, ord(text[j]))
        and in_ranges(unicode_tables.EXTENDED_PICTOGRAPHIC, ord(text[i + 1]))
    )


def refused_character(text: str, newlines: bool = False) -> str | None:
    """The first character of `text` no text may hold (a line break is let through
    where `newlines`); None when there is none."""
    if text.isprintable() and not _MAYBE_INVISIBLE.search(text):
        return None  # no Cc, Cf, Zl, Zp, Cs, nothing invisible: most text, in C
    for i, c in enumerate(text):
        if newlines and c in _LINE_BREAKS:
            continue
        if (unicodedata.category(c) in _REFUSED or invisible(c)) and not _emoji_part(text, i):
            return c
    return None


def check_characters(text: str, newlines: bool = False) -> None:
    """TextRefused, saying which and why, when `text` holds a character no text may."""
    c = refused_character(text, newlines)
    if c is None:
        return
    if unicodedata.category(c) == "Cc":
        raise TextRefused(
            gettext_lazy(
                "This holds an invisible control character (%(char)s), which cannot be "
                "stored: type it again without it."
            ),
            {"char": _code_point(c)},
            "control_character",
        )
    if unicodedata.category(c) in _REFUSED:
        raise TextRefused(
            gettext_lazy(
                "This holds an invisible formatting character (%(char)s), which can make two "
                "names look alike or turn text around: type it again without it."
            ),
            {"char": _code_point(c)},
            "format_character",
        )
    raise TextRefused(
        gettext_lazy(
            "This holds a character that shows as nothing (%(char)s), which can make two "
            "names look alike: type it again without it."
        ),
        {"char": _code_point(c)},
        "invisible_character",
    )


def clean_text(kind: TextKind, raw: str) -> str:
    """`raw` as it is stored: checked character by character, composed (NFC), its line
    breaks "\\n" (where the kind has lines), stripped, within its kind's length.
    "" for a blank text (whether blank is allowed is the caller's to say).
    TextRefused otherwise: nothing is mended."""
    if not isinstance(raw, str):
        raise TypeError("text is a str")
    check_characters(raw, kind.newlines)
    text = unicodedata.normalize("NFC", raw)
    if kind.newlines:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.strip()
    if len(text) > kind.max_length:
        raise TextRefused(
            gettext_lazy("At most %(max)s characters: this has %(count)s."),
            {"max": kind.max_length, "count": len(text)},
            "too_long",
        )
    return text


def cut(kind: TextKind, text: str) -> str:
    """Text the app made from text it has (a copy's name, a user name as an author),
    cut to the kind's length; what comes from outside goes through clean_text."""
    return text.strip()[: kind.max_length]


def strings_in(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every text in a JSON value, with where it is (keys and indexes), its keys
    too: an imported file's every text is checked before any is read."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                yield (*path, k), k
            yield from strings_in(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from strings_in(v, (*path, i))


class TextField(forms.CharField):
    """A form's field for one kind of text: the kind's length (and the input's
    maxlength), and clean_text's checks, with its messages, before anything else."""

    def __init__(self, kind: TextKind, **kwargs: Any) -> None:
        self.kind = kind
        kwargs.setdefault("max_length", kind.max_length)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        if value in self.empty_values:
            return str(self.empty_value)
        try:
            return clean_text(self.kind, str(value))
        except TextRefused as e:
            raise e.validation_error() from None


__all__ = [
    "AUTHOR",
    "CONFIG_NAME",
    "KINDS",
    "MEMBER_NAME",
    "NOTE",
    "PLAYER_NAME",
    "REASON",
    "ROOM_NAME",
    "SEARCH",
    "SEASON_NAME",
    "TABLE_NAME",
    "TextField",
    "TextKind",
    "TextRefused",
    "check_characters",
    "in_ranges",
    "invisible",
    "clean_text",
    "cut",
    "refused_character",
    "strings_in",
]
