"""Words the table pages share: winds, seats, event buttons, a ledger line's name, device
labels, money, ETags."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from django.utils.translation import get_language, gettext, gettext_lazy

from rules import REGISTRY
from rules.registry import Ruleset
from rules.table import TableSpec
from scorer.clean.text import PLAYER_NAME
from scorer.language import by_language
from scorer.models import GameSession, Round, RoundRevision
from scorer.templatetags.scorer_format import signed_text

NAME_MAX = PLAYER_NAME.max_length  # a player's name (scorer/clean/text.py)

WIND_NAMES = {
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
    "N": gettext_lazy("North"),
}
# The seats by the wind each starts in (the first dealer's choice).
SEAT_NAMES = (
    gettext_lazy("East player"),
    gettext_lazy("South player"),
    gettext_lazy("West player"),
    gettext_lazy("North player"),
)

# What the session page's button for each kind of event says.
EVENT_ACTIONS = {
    "kong": gettext_lazy("Record a kong"),
    "win": gettext_lazy("Record a win"),
    "wall_end": gettext_lazy("The wall ran out"),
    "draw": gettext_lazy("Drawn game"),
}
# A round's author is the name of the player the phone said it is, or a device
# label read from the User-Agent ("iPhone WeChat", "phone" when nothing was
# known): these tables say what those labels can hold, as (what the User-Agent
# shows, what the label calls it), the device then the browser.
_DEVICES = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Macintosh", "Mac"),
    ("Linux", "Linux"),
)
_BROWSERS = (
    ("MicroMessenger", "WeChat"),
    ("Edg/", "Edge"),
    ("Firefox/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
# The words of those labels that have a name in the reader's language; the rest
# (brands) read the same in both.
DEVICE_WORDS = {
    "phone": gettext_lazy("phone"),
    "WeChat": gettext_lazy("WeChat"),
}
_LABEL_WORDS = {"phone", *(name for _, name in _DEVICES), *(name for _, name in _BROWSERS)}
# A meld as the record form stores it (type, exposed, added) and as players call it
# (the meld tools' names where the table does not name them otherwise).
MELD_NAMES = {
    "chi": gettext_lazy("Chi"),
    "pung": gettext_lazy("Pung"),
    "kong": gettext_lazy("Kong"),
    "concealed_kong": gettext_lazy("Concealed kong"),
    "added_kong": gettext_lazy("Added kong"),
}


def meld_labels(spec: TableSpec) -> dict[str, str]:
    """Each meld tool's name in the reader's language: the table's own word, else ours."""
    return {
        tool: by_language(*spec.meld_labels[tool]) if tool in spec.meld_labels else str(label)
        for tool, label in MELD_NAMES.items()
    }


# --------------------------------------------------------------------------- a line's name


def line_label(kind: str | None, line: int, hand: int | None) -> str:
    """What a line of the ledger is called, in a sentence ("undo …", "… restored"): a
    hand by its place among the hands, "第 3 局" (`hand`: Round.hand_number); any other
    line by its kind, with its line number (the ledger's #, its URL), "第 4 行：调整":
    an adjustment, a penalty or the closing fee is never a 局.  Lower case in English:
    `capfirst` where it starts a sentence."""
    if kind == RoundRevision.ADJUST:
        return gettext("line %(number)s: adjustment") % {"number": line}
    if kind == RoundRevision.PENALTY:
        return gettext("line %(number)s: penalty") % {"number": line}
    if kind == RoundRevision.FEE:
        return gettext("line %(number)s: table fee") % {"number": line}
    return gettext("round %(number)s") % {"number": hand if hand is not None else line}


def round_label(rnd: Round) -> str:
    """`line_label` of a round (a hand's number costs one query)."""
    kind = rnd.current.kind if rnd.current is not None else None
    return line_label(kind, rnd.number, rnd.hand_number())


# --------------------------------------------------------------------------- helpers


def table_rulesets() -> list[Ruleset]:
    """The rulesets a table session can be played with."""
    return sorted(
        (rs for rs in REGISTRY.values() if rs.table_play), key=lambda rs: (rs.order, rs.id)
    )


def money_places(rate: Decimal | None) -> int:
    """How many decimals a table's money shows: none where the rate per point is
    whole (every amount is), else two, as money is written (0.5 → "+34.50", "−4.00")."""
    if rate is None or rate == rate.to_integral_value():
        return 0 if rate is not None else 2
    return 2


def money_text(amount: Decimal, rate: Decimal | None = None) -> str:
    """Signed, in one format per table: as many decimals as its `rate` needs, on
    every amount ("+16.00" beside "+3.50" at 0.25 a point; "+16" at 1).  Without a
    rate, two decimals or none when the amount is whole."""
    if rate is not None:
        q = amount.quantize(Decimal(1).scaleb(-money_places(rate)))
        return signed_text(q) if q else str(q.copy_abs())
    q = amount.quantize(Decimal("0.01"))
    if not q:
        return "0"
    if q == q.to_integral_value():
        q = q.quantize(Decimal(1))
    return signed_text(q)


def author_label(author: str | None) -> str:
    """Who changed a round, in the reader's language: "phone" is 手机, "iPhone WeChat" iPhone 微信.

    A device label ("iPhone WeChat", stored when the player gave no name) is
    English; a name the player typed is shown as it is.
    """
    words = (author or "").split()
    if not words or not set(words) <= _LABEL_WORDS:
        return author or ""
    return " ".join(str(DEVICE_WORDS.get(w, w)) for w in words)


def etag_of(session: GameSession) -> str:
    """The tallies' ETag: every change bumps the version; the language changes the words."""
    return f'"{session.version}-{get_language()}"'


_SEAT_EN = re.compile(r"\bseats? (\d+)\b")
_SEAT_ZH = re.compile(r"(\d+) ?号位")


# Where the engine locates an error in a round ("第 3 个事件（2 号位）：", "event 3 (seat 2): "):
# its words for a developer reading a round's JSON, not for the player entering it.
_EVENT_ZH = re.compile(r"^第 ?\d+ ?个事件(?:（([^）]*)）)?：")
_EVENT_EN = re.compile(r"^event \d+(?: \(([^)]*)\))?: ")


def refusal_words(text: str, names: Sequence[str]) -> str:
    """A refusal as the player reads it: seats by name (`name_seats`), and the event's
    place in the round left out, the player it is about kept ("第 3 个事件（2 号位）：这手
    牌不能胡" -> "王姐：这手牌不能胡"): the player is entering that event now."""
    if not text:
        return text

    def who(m: re.Match[str]) -> str:
        return f"{m.group(1)}：" if m.group(1) else ""

    def who_en(m: re.Match[str]) -> str:
        return f"{m.group(1)}: " if m.group(1) else ""

    text = name_seats(_EVENT_EN.sub(who_en, _EVENT_ZH.sub(who, text)), names)
    return text[:1].upper() + text[1:]


def name_seats(text: str, names: Sequence[str]) -> str:
    """The engine's messages and notes name seats by number ("seat 2", "2 号位"), as
    its JSON does; players read names.  A number that is no seat is left alone."""

    def name(m: re.Match[str]) -> str:
        i = int(m.group(1))
        return str(names[i]) if 0 <= i < len(names) else m.group(0)

    return _SEAT_ZH.sub(name, _SEAT_EN.sub(name, text)) if text else text


def recorded_message(rnd: Round, corrected: bool = False) -> str:
    """What the table says once a line is recorded (or corrected): a hand by its
    place among the hands, "第 3 局已记录" (Round.hand_number: the line's own number
    counts the adjustments, penalties and fees too), the other lines by their kind,
    never as a 局."""
    kind = rnd.current.kind if rnd.current is not None else ""
    if kind == RoundRevision.ADJUST:
        return gettext("Adjustment corrected.") if corrected else gettext("Adjustment recorded.")
    if kind == RoundRevision.PENALTY:
        return gettext("Penalty corrected.") if corrected else gettext("Penalty recorded.")
    number = rnd.hand_number() or rnd.number
    if corrected:
        return gettext("Round %(number)s corrected.") % {"number": number}
    return gettext("Round %(number)s recorded.") % {"number": number}
