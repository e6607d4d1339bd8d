"""吉安冲关: what a winning hand is worth in 翻, read from its tiles.

A hand's 翻 are its shape (平胡 0, 小七 / 十三烂 1, 大七 / 七星十三烂 2), 德国
(no 精 standing for another tile: 1 翻 and 5 子 more) and how it was won
(自摸 1, 扛开 2, 精调 2, 扛调 3).  Who pays how much (庄家 and 点炮 add one 翻
for some payers only) is in `payments.py`.

Every reading of the tiles is scored and the best one counts: the 精 as wild
tiles (the decomposition layer resolves them), the 精 as themselves (德国),
and 精调 (the hand without one 精 was already whole, so any tile won).
docs/rules/jian.md has each decision with the seed sentence it rests on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules import decompose, shapes
from rules.decompose import Forms
from rules.fans import FanDef, FanTable
from rules.hand import Hand
from rules.shapes import Decomposition

# 小七 = seven pairs (four of a kind is two pairs); 大七 = all pungs; 十三烂 and
# 七星十三烂 are the knitted "rotten" hands (rules/shapes.py, is_lan).
FORMS = Forms(seven_pairs=True, seven_pairs_quads=True, lan=True, seven_honors_lan=True)

# Shapes, by 翻.
PINGHU, XIAOQI, DAQI, LAN, QIXING = "pinghu", "xiaoqi", "daqi", "lan", "qixing"
SHAPE_FAN = {PINGHU: 0, XIAOQI: 1, LAN: 1, DAQI: 2, QIXING: 2}
SHAPE_ID = {PINGHU: 1, XIAOQI: 2, LAN: 3, DAQI: 4, QIXING: 5}

# The 翻 table (seed 000 l.28: "自摸1翻,点炮1翻;精调2翻;庄家1翻;小七/十三烂一翻;
# 大七/七星十三烂2翻;扛调3翻;德国1翻+5").  Win modes exclude the lesser ones:
# 扛调 is 扛开 and 精调 at once and stands in for both, and neither adds 自摸's 1.
FANS = FanTable(
    (
        FanDef(1, "平胡", "Basic win", 0, rule_zh="四副面子加一对将",
               rule_en="four sets and a pair", group="shape"),
        FanDef(2, "小七", "Seven pairs", 1, rule_zh="七个对子（四张相同算两对）",
               rule_en="seven pairs (four alike count as two)", group="shape"),
        FanDef(3, "十三烂", "Thirteen rotten", 1, excludes=(1,),
               rule_zh="十四张各不相同，同一门的牌相隔至少三位（如 147、258、369）",
               rule_en="14 different tiles, those of one suit at least three apart",
               group="shape"),
        FanDef(4, "大七", "All pungs", 2, rule_zh="四副刻子（碰、杠）加一对将",
               rule_en="four pungs (or kongs) and a pair", group="shape"),
        FanDef(5, "七星十三烂", "Seven-star rotten", 2, excludes=(3,),
               rule_zh="十三烂，东南西北中发白七张都有",
               rule_en="thirteen rotten holding all seven honors", group="shape"),
        FanDef(6, "德国", "No jing used", 1,
               rule_zh="没有精当作别的牌（无精、碧精）：1 翻，每家再加 5 子",
               rule_en="no jing tile stands for another tile: 1 fan, and 5 more from each "
               "payer", group="extra"),
        FanDef(7, "自摸", "Self-drawn", 1, group="mode"),
        FanDef(8, "扛开", "Win after a kong", 2, excludes=(7,),
               rule_zh="杠后补牌和牌", rule_en="self-drawn on a kong's replacement tile",
               group="mode"),
        FanDef(9, "精调", "Jing wait", 2, excludes=(7,),
               rule_zh="没有这张精的牌已经成牌，精单调：摸到什么都和",
               rule_en="the hand without one jing was whole: the jing waited for any tile",
               group="mode"),
        FanDef(10, "扛调", "Kong and jing wait", 3, excludes=(7, 8, 9),
               rule_zh="精调并且杠后补牌和牌", rule_en="a jing wait won on a kong's replacement "
               "tile", group="mode"),
        FanDef(11, "点炮", "Discarder", 1, rule_zh="只有放炮的人多出这 1 翻（和德国的 5 子）",
               rule_en="only the discarder pays this fan (and the no-jing 5)", group="payer"),
        FanDef(12, "庄家", "Dealer", 1, rule_zh="庄家付或收时多 1 翻",
               rule_en="one fan more on what the dealer pays or receives", group="payer"),
    )
)  # fmt: skip
DEGUO, ZIMO, GANGKAI, JINGDIAO, GANGDIAO, DIANPAO, ZHUANG = 6, 7, 8, 9, 10, 11, 12


@dataclass(frozen=True)
class Reading:
    """One way to read the winning tiles: its shape, 德国 or not, 精调 or not."""

    shape: str
    deguo: bool
    jingdiao: bool
    wild_as: tuple[int, ...] = ()

    def hand_fans(self, self_drawn: bool, after_kong: bool) -> dict[int, int]:
        """The hand's own 翻 (the same for every payer), excluded ones dropped."""
        raw = {SHAPE_ID[self.shape]: 1}
        if self.deguo:
            raw[DEGUO] = 1
        if self_drawn:
            raw[ZIMO] = 1
            if after_kong:
                raw[GANGKAI] = 1
            if self.jingdiao:
                raw[JINGDIAO] = 1
            if after_kong and self.jingdiao:
                raw[GANGDIAO] = 1
        fans, _ = FANS.apply_exclusions(raw)
        return fans


def _shape(d: Decomposition, hand: Hand) -> str:
    if d.form == "seven_pairs":
        return XIAOQI
    if d.form == "lan":
        return LAN
    if d.form == "seven_honors_lan":
        return QIXING
    pungs_only = all(g.kind in ("pung", "pair") for g in d.groups) and all(
        m.type != "chi" for m in hand.melds
    )
    return DAQI if pungs_only else PINGHU


def _best_shape(decs: Sequence[Decomposition], hand: Hand) -> tuple[str, tuple[int, ...]] | None:
    best: tuple[str, tuple[int, ...]] | None = None
    for d in decs:
        s = _shape(d, hand)
        if best is None or SHAPE_FAN[s] > SHAPE_FAN[best[0]]:
            best = (s, d.wild_as)
    return best


def _wild_copies(hand: Hand) -> list[int]:
    """The 精 tiles among the concealed ones and the win tile, as kinds (one per tile)."""
    out = []
    for t in sorted(hand.wild):
        out += [t] * (hand.held[t] - hand.meld_counts[t] - hand.counts[t])
    return out


def _natural(hand: Hand) -> bytes:
    """The concealed tiles with every 精 taken as itself."""
    c = bytearray(hand.counts)
    for t in _wild_copies(hand):
        c[t] += 1
    return bytes(c)


def _first_of_each_shape(hand: Hand) -> list[Decomposition]:
    """The first decomposition (in decompositions' order) of each shape that
    has one: _best_shape of these is _best_shape of them all, since the best
    is the first of the highest shape.  With eight 精 a hand has tens of
    thousands of decompositions; these are a handful, built alone."""
    c, w, caps = hand.counts, hand.wilds, hand.caps
    out = shapes.standard_decompositions_first(c, w, caps, 1)
    if out and not any(m.type == "chi" for m in hand.melds):
        # 大七对's first reading: the first one without chows
        out += shapes.standard_decompositions_first(c, w, caps, 1, chows=False)
    if not hand.melds:
        out += shapes.seven_pairs_decompositions(c, w, FORMS.seven_pairs_quads, limit=1)
        out += shapes.lan_decompositions(c, w, False)
        out += shapes.lan_decompositions(c, w, True)
    return out


def readings(hand: Hand) -> list[Reading]:
    """Every reading worth scoring; empty when the tiles do not win."""
    n_melds = len(hand.melds)
    out: list[Reading] = []
    if hand.wilds > 4:
        best = _best_shape(_first_of_each_shape(hand), hand)
    else:
        best = _best_shape(decompose.decompositions(hand, FORMS), hand)
    if best is None:
        return []
    out.append(Reading(best[0], not hand.wilds, False, best[1]))
    if hand.wilds:
        nat = decompose.decompositions_counts(_natural(hand), 0, n_melds, FORMS, None)
        b = _best_shape(nat, hand)
        if b is not None:
            out.append(Reading(b[0], True, False))
    out += _jingdiao(hand)
    return out


def _jingdiao(hand: Hand) -> list[Reading]:
    """精调: a 精 among the tiles held before the win, without which they were
    already sets only (or six pairs): the 精 waited as the pair for any tile."""
    if hand.win_tile is None:
        return []
    before = list(hand.concealed)
    out: list[Reading] = []
    chi = any(m.type == "chi" for m in hand.melds)
    for w in sorted(set(before) & hand.wild):
        rest = list(before)
        rest.remove(w)
        counts = bytearray(34)
        wilds = 0
        for t in rest:
            if t in hand.wild:
                wilds += 1
            else:
                counts[t] += 1
        c = bytes(counts)
        caps = hand.caps
        need = shapes.sets_need(c, caps)
        if need <= wilds and (wilds - need) % 3 == 0:
            pungs = _pungs_need(c)
            shape = DAQI if not chi and pungs <= wilds and (wilds - pungs) % 3 == 0 else PINGHU
            # 德国 too when the 精 paired with its own kind and every other 精 is itself.
            nat = _as_natural(rest, hand)
            deguo = hand.win_tile == w and (
                _pungs_need(nat) == 0 if shape == DAQI else shapes.sets_need(nat) == 0
            )
            out.append(Reading(shape, deguo, True))
        if not hand.melds and sum(c) + wilds == 12 and shapes.seven_pairs_need(c) <= wilds:
            nat = _as_natural(rest, hand)
            deguo = hand.win_tile == w and shapes.seven_pairs_need(nat) == 0
            out.append(Reading(XIAOQI, deguo, True))
    return out


def _as_natural(tiles: Sequence[int], hand: Hand) -> bytes:
    c = bytearray(34)
    for t in tiles:
        c[t] += 1
    return bytes(c)


def _pungs_need(c: bytes) -> int:
    """Wild tiles that turn these tiles into pungs only (99 when a kind has four)."""
    need = 0
    for n in c:
        if n == 4:
            return shapes.INF
        if n:
            need += 3 - n
    return need


__all__ = ["FANS", "FORMS", "Reading", "readings"]
