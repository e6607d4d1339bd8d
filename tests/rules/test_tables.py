"""The per-suit tables against a brute force over the suit alone.

The whole-hand properties live in test_bruteforce.py; this checks the table
entries themselves, exhaustively for every pattern of up to 5 tiles.
"""

from functools import cache
from itertools import combinations_with_replacement, product

from rules.shapes import INF, suit_need


@cache
def plain_sets(c: tuple[int, ...], pair: bool, honor: bool) -> bool:
    """c splits into sets (and exactly one pair if `pair`)."""
    i = next((j for j, x in enumerate(c) if x), None)
    if i is None:
        return not pair
    lst = list(c)
    if pair and lst[i] >= 2:
        lst[i] -= 2
        if plain_sets(tuple(lst), False, honor):
            return True
        lst[i] += 2
    if lst[i] >= 3:
        lst[i] -= 3
        if plain_sets(tuple(lst), pair, honor):
            return True
        lst[i] += 3
    if not honor and i + 2 < len(lst) and lst[i + 1] and lst[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        if plain_sets(tuple(lst), pair, honor):
            return True
    return False


MAX_K = 6


def brute_need(c: tuple[int, ...], pair: bool) -> int:
    """Least wild count up to MAX_K, else INF."""
    n = len(c)
    for k in range(0, MAX_K + 1):
        for add in combinations_with_replacement(range(n), k):
            full = list(c)
            for t in add:
                full[t] += 1
            if max(full) <= 4 and plain_sets(tuple(full), pair, n == 7):
                return k
    return INF


def same(table: int, brute: int) -> bool:
    return table == brute if brute <= MAX_K else table > MAX_K


def patterns(n: int, most: int) -> list[tuple[int, ...]]:
    return [p for p in product(range(5), repeat=n) if sum(p) <= most]


def test_suit_need_matches_brute_force_suits() -> None:
    checked = 0
    for p in patterns(9, 5):
        n0, d = suit_need(bytes(p))
        assert same(n0, brute_need(p, False)), p
        assert same(n0 + d, brute_need(p, True)), p
        checked += 1
    assert checked == 1993  # C(14, 5) minus the nine with a digit 5


def test_suit_need_matches_brute_force_honors() -> None:
    for p in patterns(7, 6):
        n0, d = suit_need(bytes(p))
        assert same(n0, brute_need(p, False)), p
        assert same(n0 + d, brute_need(p, True)), p


def test_caps_bind_the_table() -> None:
    # 1m pung declared: a wild cannot make 11m into 111m, so 11m + 1 wild sets-only fails
    caps = bytes([1, 4, 4, 4, 4, 4, 4, 4, 4])
    key = bytes([0, 0, 0, 0, 0, 0, 0, 0, 0])
    assert suit_need(key, caps) == (0, 2)
    assert suit_need(bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]), caps)[0] == 2  # 1m + 23m from wilds


# ---------------------------------------------------------------------------
# the shipped tables (rules/data/suit_need.bin, `python -m rules.build_tables`)


def test_shipped_tables_match_the_solver() -> None:
    """Every honors pattern, and 1,500 random suit patterns of up to 14 tiles, of
    the shipped file against the solver the tables were filled by before."""
    import random

    from rules import shapes

    def solved(key: bytes) -> tuple[int, int]:
        full = bytes([4] * len(key))
        n0 = shapes._solve_need(key, full, False)
        return (n0, shapes._solve_need(key, full, True) - n0)

    def shipped(key: bytes) -> tuple[int, int]:
        t = shapes.NEED_TABLES[len(key)]
        return t.values[t.codes[shapes._index(key)]]

    for c in product(range(5), repeat=7):
        if sum(c) <= 9:
            assert shipped(bytes(c)) == solved(bytes(c)), c
    rng = random.Random(15)
    for _ in range(1500):
        c = bytes(rng.randrange(5) for _ in range(9))
        if sum(c) <= 14:
            assert shipped(c) == solved(c), list(c)


def test_shipped_tables_are_the_builders() -> None:
    """The file is what `python -m rules.build_tables` writes (the honors part is
    rebuilt here; the suit part is checked above and by the brute force)."""
    import zlib

    from rules import build_tables, shapes

    need0, need1 = build_tables.build_suit(7)
    t = shapes.NEED_TABLES[7]
    for x in range(5**7):
        a, d = t.values[t.codes[x]]
        assert (a, a + d) == (need0[x], need1[x]), x
    raw = zlib.decompress(build_tables.PATH.read_bytes())
    assert raw.startswith(build_tables.MAGIC)


# ---------------------------------------------------------------------------
# the shipped one-more-tile rows (rules/data/suit_adds.bin), read by rules/plain_reader.py


def _row_masks(x: int, key: bytes) -> list[tuple[int, int, int, int]]:
    """(other, spare, the shipped row's mask, the need tables' mask) for one pattern."""
    from rules import adds, plain_reader, shapes

    t = shapes.NEED_TABLES[len(key)]
    i = shapes._index(key)
    row_id = adds.ROW_ID[x][i]
    packed = sum(c << 5 * j for j, c in enumerate(key))
    a0 = t.values[t.codes[i]][0]
    out = []
    for other in range(-1, 3):
        for spare in range(-4, 9):
            want = plain_reader._row_of_index(x, i, packed, other, spare + a0)
            key_int = adds.row_key(row_id, x == 3, other, spare)
            got = want if key_int is None else adds.row_mask(key_int)
            out.append((other, spare, got, want))
    return out


def test_shipped_rows_are_the_need_tables_rows() -> None:
    """Each pattern's shipped row says, for every pair difference elsewhere and
    every spare, the kinds the need tables say one more tile of completes:
    every honors pattern of up to 13 tiles (35,000), every suit pattern of up to
    5 and random ones of up to 13 (8,000).  Nearly all have a row; the rest (four of an
    honor: no sets at all) are worked out from the tables by the caller."""
    import random

    rowless = checked = 0
    cases = [(3, c) for c in product(range(5), repeat=7) if sum(c) <= 13]
    cases += [(0, c) for c in patterns(9, 5)]
    rng = random.Random(16)
    while len(cases) < 45_000:
        c = tuple(rng.randrange(5) for _ in range(9))
        if sum(c) <= 13:
            cases.append((rng.randrange(3), c))
    from rules import adds, shapes

    for x, c in cases:
        key = bytes(c)
        for other, spare, got, want in _row_masks(x, key):
            assert got == want, (x, c, other, spare)
        checked += 1
        if not (x == 3 and 4 in c):
            rowless += not adds.ROW_ID[x][shapes._index(key)]
    assert checked == len(cases)
    assert rowless < checked // 100, rowless


def test_shipped_rows_are_the_builders() -> None:
    """The honors part of suit_adds.bin is what `python -m rules.build_tables` writes."""
    from rules import adds, build_tables

    need0, need1 = build_tables.build_suit(7)
    ids, rows = build_tables.add_rows(7, need0, need1)
    shipped_ids, shipped_rows, n = adds._ADDS[1]
    assert n == 7
    assert list(shipped_ids) == ids
    assert shipped_rows == b"".join(rows)


def test_every_shipped_table_is_package_data() -> None:
    """Every file under rules/data and a ruleset's data/ is matched by pyproject's
    package-data globs, so an installed (non-editable) copy has the tables it
    loads at import."""
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["rules"]
    rules = root / "rules"
    files = sorted(
        p.relative_to(rules).as_posix()
        for p in [*(rules / "data").iterdir(), *rules.glob("rulesets/*/data/*")]
    )
    assert {
        "data/suit_need.bin",
        "data/suit_adds.bin",
        "rulesets/mcr/data/mcr_relations.bin",
        "rulesets/mcr/data/mcr_suit_cuts.bin",
    } <= set(files)
    for f in files:
        assert any(fnmatch.fnmatch(f, g) for g in globs), f
