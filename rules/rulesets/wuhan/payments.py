"""武汉: what each loser pays — base × the winner's factor × the loser's own factor, capped.

"輸分=基礎分(1或10)乘以輸家自己番數乘以贏家番數,贏分=3個輸家的分之和" (seed 002).
Every player's own factor comes from what he did this hand (开口, 暗杠 ×4, 明杠,
红中杠, 癞子杠), winner or loser; the winner adds 自摸 and 硬胡, the discarder
(or the robbed player) 放冲, and in a 小胡 the dealer's pair 庄闲 ×2.  Each loser
pays at most the cap, all three the 金顶 when every raw amount is over it; in
承包 one player pays the three capped amounts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.params import ParamValues

COUNTS = ("openings", "ming_gang", "an_gang", "hz_gang", "lz_gang")


@dataclass(frozen=True)
class Factor:
    """One player's own factor and the words for how it came."""

    value: int
    words_zh: tuple[str, ...] = ()
    words_en: tuple[str, ...] = ()


def own_factor(counts: Mapping[str, int], params: ParamValues) -> Factor:
    """开口 ×2 once (口口翻: per opening), 暗杠 ×4, 明杠 ×2, 红中杠 ×2, 癞子杠 ×2, each."""
    zh: list[str] = []
    en: list[str] = []
    v = 1
    o = counts.get("openings", 0)
    if o:
        if params["variant"] == "koukoufan":
            v *= 2**o
            zh.append(f"开口 {o} 次 ×{2**o}")
            en.append(f"{o} opening{'s' if o > 1 else ''} ×{2**o}")
        else:
            v *= 2
            zh.append("开口 ×2")
            en.append("opened ×2")
    for key, mult, name_zh, name_en in (
        ("an_gang", params.whole("concealed_kong"), "暗杠", "concealed kong"),
        ("ming_gang", params.whole("exposed_kong"), "明杠", "exposed kong"),
        ("hz_gang", params.whole("hongzhong_kong"), "红中杠", "red dragon kong"),
        ("lz_gang", params.whole("laizi_kong"), "癞子杠", "wild kong"),
    ):
        n = counts.get(key, 0)
        if n:
            v *= mult**n
            zh.append(f"{name_zh}{'' if n == 1 else f' {n} 个'} ×{mult**n}")
            en.append(f"{n} {name_en}{'s' if n > 1 else ''} ×{mult**n}")
    return Factor(v, tuple(zh), tuple(en))


@dataclass
class Loser:
    seat: int
    factor: Fraction
    words_zh: list[str] = field(default_factory=list)
    words_en: list[str] = field(default_factory=list)
    raw: Fraction = Fraction(0)
    paid: int = 0
    why_zh: str = ""
    why_en: str = ""


def settle(
    base: int,
    big: bool,
    winner: int,
    dealer: int,
    discarder: int | None,
    self_drawn: bool,
    hard: bool,
    factors: Sequence[Factor],
    contractor: int | None,
    params: ParamValues,
) -> tuple[Fraction, list[str], list[str], list[Loser]]:
    """(the winner's factor, its words in zh and en, each loser's amounts)."""
    fw = factors[winner]
    w = Fraction(fw.value)
    wz, we = list(fw.words_zh), list(fw.words_en)
    if self_drawn:
        m = (
            Fraction(params.number("self_draw_big"))
            if big
            else Fraction(params.whole("self_draw_small"))
        )
        w *= m
        wz.append(f"自摸 ×{_num(m)}")
        we.append(f"self-drawn ×{_num(m)}")
    if hard:
        w *= 2
        wz.append("硬胡 ×2")
        we.append("no wild used (hard) ×2")
    losers = []
    for s in range(len(factors)):
        if s == winner:
            continue
        f = factors[s]
        lo = Loser(s, Fraction(f.value), list(f.words_zh), list(f.words_en))
        if discarder is not None and s == discarder:
            m = (
                Fraction(params.number("discarder_big"))
                if big
                else Fraction(params.whole("discarder_small"))
            )
            lo.factor *= m
            lo.words_zh.append(f"放冲 ×{_num(m)}")
            lo.words_en.append(f"discarder ×{_num(m)}")
        if not big and dealer in (s, winner):
            lo.factor *= 2
            lo.words_zh.append("庄闲 ×2")
            lo.words_en.append("dealer ×2")
        lo.raw = base * w * lo.factor
        losers.append(lo)
    cap = params.whole("cap")
    golden = params.whole("golden")
    strict = params["golden_threshold"] == "gt"
    over = [(lo.raw > cap) if strict else (lo.raw >= cap) for lo in losers]
    if all(over):
        for lo in losers:
            lo.paid = golden
            lo.why_zh, lo.why_en = (
                f"三家都超过 {cap}：金顶 {golden}",
                f"all three over {cap}: golden cap {golden}",
            )
    else:
        for lo in losers:
            amount = _round(lo.raw)
            if amount > cap:
                lo.paid = cap
                lo.why_zh, lo.why_en = f"封顶 {cap}", f"capped at {cap}"
            else:
                lo.paid = amount
    if contractor is not None:
        total = sum(lo.paid for lo in losers)
        for lo in losers:
            lo.paid = total if lo.seat == contractor else 0
    return w, wz, we, losers


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _round(x: Fraction) -> int:
    """Amounts are whole: base 10 × 1.5 always is; a 小胡 never carries 1.5."""
    return int(x.numerator // x.denominator) if x.denominator == 1 else int(x + Fraction(1, 2))


__all__ = ["COUNTS", "Factor", "Loser", "own_factor", "settle"]
