"""The working's term shapes (rules/working.py): worked out and printed from their numbers.

Every ruleset's terms are held to its payments over the contract's hands
(tests/contract/test_working.py) and, for 武汉's caps, 金顶 and 承包, by its
property test (tests/rules/test_wuhan.py); here the shapes themselves.
"""

from __future__ import annotations

from rules.working import by_payment, evaluate, item, merged, seat_words, term, term_text

FAN = ("番", "fans")
BASE = ("底分", "base")


def test_a_sum_of_fans_and_the_base() -> None:
    t = term([2], 1, 52, base=item(44, unit=FAN), additions=[item(8, name=BASE)])
    assert evaluate(t) == 52
    assert term_text(t, True, seat_words(True)) == "2 号位：44 番 + 底分 8 = 52"
    assert term_text(t, False, seat_words(False)) == "seat 2: 44 fans + base 8 = 52"
    rest = term([0, 3], 1, 8, additions=[item(8, name=BASE)])
    assert term_text(rest, True, seat_words(True)) == "0 号位、3 号位 各：底分 8"
    assert term_text(rest, False, str) == "0, 3 each: base 8"
    assert by_payment([t, rest]) == {(2, 1): 52, (0, 1): 8, (3, 1): 8}


def test_powers_per_and_caps() -> None:
    assert term_text(term([2], 1, 24, base=item(6), factors=[item(2, 2)]), True, str) == (
        "2：6 × 2² = 24"
    )
    jian = term([0], 1, 26, factors=[item(2, 3)], additions=[item(5)], per=[item(2)])
    assert evaluate(jian) == 26 and term_text(jian, False, str) == "0: 2 × (2³ + 5) = 26"
    capped = term([0], 1, 300, base=item(10), factors=[item(8), item(6)],
                  cap=item(300, name=("封顶", "cap")))  # fmt: skip
    assert evaluate(capped) == 300
    assert term_text(capped, True, str) == "0：10 × 8 × 6 = 480 → 封顶 300"
    golden = term([0], 1, 400, base=item(10), factors=[item(48)],
                  instead=item(400, name=("金顶", "golden cap")))  # fmt: skip
    assert evaluate(golden) == 400 and term_text(golden, False, str).endswith("→ golden cap 400")


def test_a_fraction_rounds_half_up() -> None:
    t = term([0], 1, 0, base=item(1), factors=[item(1.5), item(3)])
    assert evaluate(t) == 5  # 4.5 → 5
    assert term_text(t, True, str) == "0：1 × 1.5 × 3 = 4.5 → 5"


def test_a_factor_is_named_after_its_number_and_payers_alike_are_merged() -> None:
    dealer = item(2, name=("庄家", "dealer"))
    a = term(
        [0], 1, 40, base=item(5, name=("平胡", "plain win")), factors=[item(2), item(2), dealer]
    )
    b = term([2], 1, 20, base=item(5, name=("平胡", "plain win")), factors=[item(2), item(2)])
    c = {**b, "payers": [3]}
    lines = [term_text(t, True, str) for t in merged([a, b, c])]
    assert lines == ["0：平胡 5 × 2 × 2 × 2（庄家） = 40", "2、3 各：平胡 5 × 2 × 2 = 20"]


def test_a_kongs_money_names_its_receiver() -> None:
    kong = term([1, 2, 3], 0, 4, additions=[item(4, name=("暗杠", "concealed kongs"))],
                reason="kong")  # fmt: skip
    assert term_text(kong, True, "甲乙丙丁".__getitem__) == "乙、丙、丁 → 甲 各：暗杠 4"
    assert term_text(kong, False, "ABCD".__getitem__) == "B, C, D → A each: concealed kongs 4"
