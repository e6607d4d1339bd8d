"""The fan list of 选番 (the record form picking fans by name, mode "quick"), as the page shows it.

The everyday fans come first (the ruleset marks them `common` in its catalog),
then every other fan by its points, cheapest first, the rare big groups folded.
A fan that a counted fan excludes (不计, from the ruleset's fan table) is shown
greyed with the fan that excludes it, picked or not: picking it would count for
nothing, and the total already leaves it out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext
from pypinyin import lazy_pinyin

from rules.fan_help import FanHelp
from scorer.language import by_language

# Groups up to this many points are open (a common minimum is 8); bigger ones fold.
OPEN_UP_TO_POINTS = 8


@lru_cache(maxsize=2048)
def fan_pinyin(name_zh: str) -> str:
    """What the 选番 search box also finds a fan by: its pinyin, whole and by initials
    ("jianke jk" for 箭刻), from pypinyin rather than a table of our own.

    和 in a fan's name is the win, read hú at the table (碰碰和 pengpenghu); pypinyin
    reads it hé, so both readings are given."""
    out: list[str] = []
    for name in dict.fromkeys((name_zh, name_zh.replace("和", "胡"))):
        syllables = [s for s in lazy_pinyin(name, errors="ignore") if s.isascii() and s.isalpha()]
        if syllables:
            out += ["".join(syllables), "".join(s[0] for s in syllables)]
    return " ".join(dict.fromkeys(out))


def search_words(name_zh: str, aliases: Sequence[str]) -> str:
    """Everything the search box finds a fan by besides its names: its pinyin, and its
    everyday names (rules/fan_help.py: 碰碰胡 for 碰碰和, 七对子, "self drawn") with
    theirs, lower case."""
    words = [fan_pinyin(name_zh)]
    for alias in aliases:
        words += [alias.lower(), fan_pinyin(alias)]
    return " ".join(w for w in words if w)


def fan_groups(
    catalog: Sequence[Mapping[str, Any]],
    picked: Mapping[int, int],
    result: Mapping[str, Any],
    tapped: int | None,
    help: Mapping[int, FanHelp] | None = None,
) -> list[dict[str, Any]]:
    """The groups of the fan list; `tapped` keeps its group open after the tap.
    `help`: the ruleset's fan help, whose aliases the search reads and whose
    meaning a fan opens (loaded when opened: the list stays light)."""
    help = help or {}
    counted = {f["id"] for f in result.get("fans") or [] if isinstance(f.get("id"), int)}
    names = {f["id"]: by_language(f.get("name_zh"), f.get("name_en")) for f in catalog}
    excludes = {f["id"]: set(f.get("excludes") or ()) for f in catalog}
    rank = {f["id"]: (-int(f["points"]), f["id"]) for f in catalog}
    excluded_by: dict[int, int] = {}
    for f in catalog:
        if f["id"] in counted:
            for x in excludes[f["id"]]:
                # Two fans that exclude each other: the one ranked first would count
                # (一色三同顺 over 一色三节高), so picking it is no mistake.
                if f["id"] in excludes.get(x, ()) and rank.get(x, (0, 0)) < rank[f["id"]]:
                    continue
                excluded_by.setdefault(x, f["id"])
    rows = []
    for f in catalog:
        by = excluded_by.get(f["id"])
        rows.append({
            **f,
            "count": picked.get(f["id"], 0),
            "name": names[f["id"]],  # in the page's language
            "pinyin": search_words(
                str(f.get("name_zh") or ""), help[f["id"]].aliases if f["id"] in help else ()
            ),
            "help": f["id"] in help,
            "void": by is not None,
            "why": gettext("not counted: %(fan)s includes it") % {"fan": names[by]}
            if by is not None else "",
        })  # fmt: skip
    common = sorted((r for r in rows if r.get("common")), key=lambda r: r["common"])
    groups: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        if not r.get("common"):
            groups.setdefault(r["points"], []).append(r)
    out: list[dict[str, Any]] = []
    if common:
        out.append({"common": True, "points": 0, "fans": common, "fold": False, "open": True})
    out += [
        {"common": False, "points": points, "fans": fans, "fold": points > OPEN_UP_TO_POINTS,
         "open": any(f["count"] or f["id"] == tapped for f in fans)}
        for points, fans in sorted(groups.items())
    ]  # fmt: skip
    return out
