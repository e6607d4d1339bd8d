"""The tile picker as the page shows it: tile faces, the hand, meld and flag names, seat rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext

from rules.table import SeatInput
from rules.tiles import N_KINDS, SEAT_WINDS, WIND_TILES, tile_en, tile_str, tile_zh
from scorer.entry.melds import meld_tiles
from scorer.entry.pick import Pick
from scorer.language import by_language, is_zh, tile_name
from scorer.present.words import meld_labels

_NUM_ZH = "一二三四五六七八九"
_SUIT_ZH = "万筒条"


def wind_name(w: str) -> str:
    """A wind ("E") as the reader calls its tile: 东 / East."""
    return tile_name(WIND_TILES[SEAT_WINDS.index(w)])


# ---------------------------------------------------------------- tile faces


@dataclass(frozen=True)
class Face:
    """How one tile kind is drawn: 五 over 筒, or one honor character."""

    tile: int
    code: str
    top: str
    bottom: str
    css: str  # suit class: pk-m pk-p pk-s pk-z, plus pk-z5/6/7 for the dragons' colours
    zh: str
    en: str

    @property
    def en_part(self) -> str:
        """For an English reader, " (1 Character)" after the face's characters."""
        return "" if is_zh() else f" ({self.en})"

    @property
    def name(self) -> str:
        """The accessible name: what the face shows (一万, 中) first, so a voice
        command or a screen reader's words match the tile; in English its English
        name after it: "一万 (1 Character)" (WCAG 2.5.3)."""
        return self.zh + self.en_part


def _face(t: int) -> Face:
    if t < 27:
        suit = "mps"[t // 9]
        css = f"pk-{suit}"
        return Face(t, tile_str(t), _NUM_ZH[t % 9], _SUIT_ZH[t // 9], css, tile_zh(t), tile_en(t))
    return Face(t, tile_str(t), tile_zh(t), "", f"pk-z pk-z{t - 26}", tile_zh(t), tile_en(t))


FACES = tuple(_face(t) for t in range(N_KINDS))


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"\u2212{-n}" if n < 0 else "0")


def seat_rows(names: list[str], deltas: list[int]) -> list[dict[str, Any]]:
    """Each seat's name and what it wins or pays, signed."""
    return [
        {"name": names[s], "delta": _signed(d), "sign": (d > 0) - (d < 0)}
        for s, d in enumerate(deltas)
    ]


def flag_rows(p: Pick, live: set[str]) -> list[tuple[str, bool, str]]:
    """(flag, on, label) for each flag the win can carry, named as the table names it."""
    rows = []
    for fid in p.offered_flags():
        flag = p.spec.flag(fid)
        assert flag is not None
        rows.append((fid, fid in live, by_language(*flag.label(p.how_won))))
    return rows


MELD_FROM_LABELS = {
    "": gettext_lazy("From whom?"),
    "left": gettext_lazy("From the left"),
    "across": gettext_lazy("From across"),
    "right": gettext_lazy("From the right"),
}


def hand_view(p: Pick) -> dict[str, Any]:
    """The hand as the page shows it: its tiles, its melds and its empty places."""
    standing = sorted((*p.concealed, *([] if p.win_tile is None else [p.win_tile])))
    # A winning tile given, not picked (一炮多响: the discard) stands apart from the start.
    complete = p.n_tiles == p.hand_size or p.win_fixed
    labels = meld_labels(p.spec)
    sources = p.melds_from() if p.spec.meld_sources else [""] * len(p.melds)
    melds = [
        {"i": i, "type": mtype, "name": labels[mtype],
         "tiles": [FACES[t] for t in meld_tiles(mtype, low) or []],
         # Who it was claimed from, where the table asks (a chi is always 上家's).
         "from": str(MELD_FROM_LABELS[frm]) if p.spec.meld_sources else "",
         "from_fixed": mtype == "chi", "from_set": bool(frm)}
        for i, ((mtype, low), frm) in enumerate(zip(p.melds, sources, strict=True))
    ]  # fmt: skip
    return {
        # The win tile stands apart once the hand is complete; before, it is just the last tile.
        "hand_tiles": [FACES[t] for t in (p.concealed if complete else standing)],
        "win_face": FACES[p.win_tile] if complete and p.win_tile is not None else None,
        "melds": melds,
        "n_tiles": p.n_tiles,
        "hand_slots": range(max(0, p.hand_size - p.n_tiles)),  # the hand's empty places
        "hand_size": p.hand_size,
        "wild": set(p.wild_kinds()),
        "wild_faces": [FACES[t] for t in sorted(p.wild_kinds())],
        "meld_tools": [{"tool": t, "label": labels[t]} for t in p.spec.melds],
        "turned_face": FACES[p.turned] if p.turned is not None else None,
        "asks_turned": p.spec.wilds.mode == "turned",
        # The table's own word for turning the tile up (吉安: 翻精), where it has one.
        "turned_label": by_language(*p.spec.meld_labels["turned"])
        if "turned" in p.spec.meld_labels
        else "",
        # …and for its wild tiles (吉安: 精), on the picker's badges and the turned row.
        "wild_label": by_language(*p.spec.meld_labels["wild"])
        if "wild" in p.spec.meld_labels
        else "",
    }


def seat_input_rows(p: Pick, names: list[str]) -> list[dict[str, Any]]:
    """The counts the table asks for each player (开口, 炮子 …), as −/+ rows per seat."""
    rows = []
    now = p.seat_inputs_now(len(names))
    labels = {si.id: by_language(si.zh, si.en) for si in p.spec.seat_inputs}
    for si in p.spec.seat_inputs:
        if p.kind == "draw" and not si.on_draw:
            continue
        values = now[si.id]
        floor = p.seat_floor(si, len(names))
        label = labels[si.id]
        tied = now.get(si.at_least) if si.at_least else None
        rows.append(
            {
                "id": si.id,
                "label": label,
                "help": by_language(si.help_zh, si.help_en),
                "counted": _counted_from_hand(si, p, names, floor, label),
                "seats": [
                    {
                        "seat": s,
                        "name": name,
                        "value": v,
                        "min": floor[s],
                        "max": si.max,
                        # Read from the winner's hand (武汉's openings and kongs): not asked.
                        "from_hand": si.winner_from_hand and s == p.winner,
                        # Why the count cannot go lower (武汉: a 明杠 means an opening).
                        "why": by_language(si.why_zh, si.why_en)
                        if si.at_least and floor[s] > si.min
                        else "",
                        # What the count holds already (武汉: "开口 1（含明杠 1）"): a
                        # 明杠 is an opening, so a player does not tap 开口 for it again.
                        "includes": _includes(label, v, labels[si.at_least], tied[s])
                        if si.at_least
                        and tied
                        and tied[s]
                        and not (si.winner_from_hand and s == p.winner)
                        else "",
                    }
                    for s, (name, v) in enumerate(zip(names, values, strict=False))
                ],
            }
        )
    return rows


def _includes(label: str, n: int, tied: str, m: int) -> str:
    """ "开口 1（含明杠 1）": the count, and how many of it the tied count brings."""
    return gettext("%(label)s %(n)s (incl. %(tied)s %(m)s)") % {
        "label": label, "n": n, "tied": tied, "m": m}  # fmt: skip


def _counted_from_hand(
    si: SeatInput, p: Pick, names: list[str], floor: list[int], label: str
) -> str:
    """Said under the counts of a wild kind (吉安's 精): the winner's count starts at
    those his hand shows, which are in it already (said, so that no player adds them a
    second time)."""
    if si.counts_wild is None or p.winner is None or floor[p.winner] <= si.min:
        return ""
    n = floor[p.winner]
    return ngettext(
        "%(name)s: the %(n)s %(kind)s in the hand are counted already",
        "%(name)s: the %(n)s %(kind)s in the hand are counted already",
        n,
    ) % {"name": names[p.winner], "n": n, "kind": label}


def seat_input_grid(
    rows: list[dict[str, Any]], open_seat: int | None = None
) -> list[dict[str, Any]]:
    """The same counts one row per player (name, then a counter per input), as the
    page lays them out: two counts side by side fit a 360-px phone; with more, each
    player is a fold whose summary says his non-zero counts (`open_seat`: the one
    just tapped stays open)."""
    if not rows:
        return []
    out = []
    for i, first in enumerate(rows[0]["seats"]):
        cells = [{**r["seats"][i], "id": r["id"], "label": r["label"]} for r in rows]
        summary = " · ".join(
            c["includes"] or f"{c['label']} {c['value']}"
            for c in cells if c["value"] and not c["from_hand"]
        )  # fmt: skip
        out.append({"name": first["name"], "seat": i, "cells": cells, "summary": summary,
                    "open": i == open_seat})  # fmt: skip
    return out
