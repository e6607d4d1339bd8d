"""吉安冲关: who pays what — 出子 for a win, 精分 (and 冲关, 霸精) at every round's end.

出子: each payer pays 2^翻 子 (seed 000 l.28: "看看自己应该出几翻,再算次方就是出子"),
his 翻 being the hand's own plus 庄家 (he or the winner deals) plus 点炮 (he
discarded); 德国 adds 5 子 from each payer of the 德国 翻.  The 胡牌进子数 table
(l.33–36, l.159–165) comes out of this exactly: tests/rules/test_jian.py
holds every legible cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import RuleError
from rules.params import ParamValues
from rules.round import RoundEnd
from rules.rulesets.jian.hands import DEGUO, FANS
from rules.working import Term, item, term

WIN_MODES = (10, 9, 8, 7)  # 扛调, 精调, 扛开, 自摸: a self-drawn win has one of them


def payer_fans(
    hand_fans: Mapping[int, int], payer: int, winner: int, dealer: int,
    discarder: int | None,
) -> int:  # fmt: skip
    """One payer's 翻: the hand's, 庄家 when he or the winner deals, 点炮 when he discarded."""
    f = FANS.total(hand_fans)
    if dealer in (payer, winner):
        f += 1
    if discarder is not None and payer == discarder:
        f += 1
    return f


def win_payments(
    hand_fans: Mapping[int, int], players: int, winner: int, dealer: int,
    discarder: int | None, params: ParamValues,
) -> list[tuple[int, int, int]]:  # fmt: skip
    """(payer, 翻, amount) for every other player.  On a discard all three pay,
    but only the discarder pays the 点炮 翻 and 德国's 5 子 (every legible 点炮
    cell of the seed's table needs exactly that: ambiguities 14)."""
    unit = params.whole("zi")
    bonus = params.whole("deguo_bonus") if DEGUO in hand_fans else 0
    out = []
    for p in range(players):
        if p == winner:
            continue
        f = payer_fans(hand_fans, p, winner, dealer, discarder)
        extra = bonus if discarder is None or p == discarder else 0
        out.append((p, f, (2**f + extra) * unit))
    return out


def win_terms(
    hand_fans: Mapping[int, int], pays: Sequence[tuple[int, int, int]], winner: int,
    dealer: int, discarder: int | None, params: ParamValues,
) -> list[Term]:  # fmt: skip
    """Each payer's working: 2^翻 (+ 德国's 子) × the 子's value, his 翻 said."""
    unit = params.whole("zi")
    bonus = params.whole("deguo_bonus") if DEGUO in hand_fans else 0
    out = []
    for p, f, a in pays:
        extra = bonus if discarder is None or p == discarder else 0
        why_zh = "、".join(w for w, on in (("庄家 +1", dealer in (p, winner)),
                                           ("点炮 +1", p == discarder)) if on)  # fmt: skip
        why_en = ", ".join(w for w, on in (("dealer +1", dealer in (p, winner)),
                                           ("discarder +1", p == discarder)) if on)  # fmt: skip
        out.append(term(
            [p], winner, a, factors=[item(2, f)],
            additions=[item(extra, name=("德国", "no jing used"))] if extra else [],
            per=[item(unit, name=("每子", "per zi"))] if unit != 1 else [],
            note=(f"{f} 翻" + (f"，{why_zh}" if why_zh else ""),
                  f"{f} fan{'s' if f != 1 else ''}" + (f", {why_en}" if why_en else "")),
        ))  # fmt: skip
    return out


# ---------------------------------------------------------------- 精分


def jing_points(zheng: int, fu: int) -> int:
    """ "一个正精是当2个算" (l.184): a 正精 counts two, a 副精 one."""
    return 2 * zheng + fu


def jing_each(n: int, params: ParamValues) -> tuple[int, bool]:
    """What each other player pays a holder of n 精 points, and whether it is 冲关.

    Below the threshold each pays n ("一个正精2×3=6个子": 2 from each of three);
    from it on 冲关 replaces that with (n − 3) × n ("五精冲关:(2×5)×3=30个子").
    """
    if n >= params.whole("chongguan_from"):
        return (n - 3) * n, True
    return n, False


def round_end(
    seat_inputs: Mapping[str, Sequence[int]], players: int, dealer: int,
    params: ParamValues,
) -> RoundEnd | None:  # fmt: skip
    """The 精 transfers of a round: every holder is paid by each other player."""
    zheng = list(seat_inputs.get("zheng_jing") or [0] * players)
    fu = list(seat_inputs.get("fu_jing") or [0] * players)
    for kind, values, zh in (("zheng_jing", zheng, "正精"), ("fu_jing", fu, "副精")):
        if sum(values) > 4:
            raise RuleError(
                "bad_input",
                f"there are only four {kind.replace('_', ' ')} tiles, not {sum(values)}",
                f"{zh}一共只有四张，这里填了 {sum(values)} 张",
            )
    points = [jing_points(z, f) for z, f in zip(zheng, fu, strict=True)]
    holders = [s for s in range(players) if points[s]]
    if not holders:
        return None
    unit = params.whole("zi")
    # 霸精: "如只有庄家有精,别人都没有,就叫'霸精',乘以2" (l.186); any sole holder
    # unless the table keeps it to the dealer.
    ba = (
        params.flag("bajing")
        and len(holders) == 1
        and (not params["bajing_dealer_only"] or holders[0] == dealer)
    )
    transfers: list[tuple[int, int, int, str]] = []
    notes: list[str] = []
    notes_zh: list[str] = []
    seats: list[dict[str, Any]] = []
    for s in holders:
        n = points[s]
        each, chong = jing_each(n, params)
        if ba:
            each *= 2
        reason = ("chongguan" if chong else "jing") + ("_ba" if ba else "")
        for p in range(players):
            if p != s:
                transfers.append((p, s, each * unit, reason))
        seats.append({"seat": s, "points": n, "chongguan": chong, "bajing": ba,
                      "each": each * unit})  # fmt: skip
        z, f = zheng[s], fu[s]
        what_zh = "、".join(
            x for x in (f"{z} 个正精" if z else "", f"{f} 个副精" if f else "") if x
        )
        what_en = ", ".join(
            x for x in (f"{z} main jing" if z else "", f"{f} minor jing" if f else "") if x
        )
        if chong:
            calc_zh = f"冲关：({n}−3)×{n} = {(n - 3) * n}"
            calc_en = f"chong guan: ({n} − 3) × {n} = {(n - 3) * n}"
        else:
            calc_zh, calc_en = "", ""
        if ba:
            calc_zh += ("，" if calc_zh else "") + "霸精 ×2"
            calc_en += ("; " if calc_en else "") + "sole holder (ba jing) × 2"
        calc_zh = f"{calc_zh}，" if calc_zh else ""
        calc_en = f"{calc_en}; " if calc_en else ""
        notes_zh.append(f"{s} 号位：{what_zh} = {n} 精，{calc_zh}每家付 {each * unit}")
        notes.append(f"seat {s}: {what_en} = {n} jing point{'' if n == 1 else 's'}; {calc_en}"
                     f"each other player pays {each * unit}")  # fmt: skip
    return RoundEnd(tuple(transfers), tuple(notes), tuple(notes_zh), {"jing": seats})


__all__ = [
    "WIN_MODES", "jing_each", "jing_points", "payer_fans", "round_end", "win_payments", "win_terms",
]  # fmt: skip
