"""One fan model for every ruleset: a fan is a row of data, exclusions are data too.

A ruleset lists its fans as `FanDef`s (id, names, points, the fans it
excludes, those it excludes only in part, a group) in a `FanTable`, and the
table applies the rulebook's 不计 notes with one `apply_exclusions`.  Because
exclusions are data, a test can hold each table against the rulebook's notes,
and every ruleset reads its fans the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple


class FanDef(NamedTuple):
    id: int
    zh: str
    en: str
    points: int
    # Fans this one excludes (不计).  A fan that is itself excluded excludes nothing.
    excludes: tuple[int, ...] = ()
    # Those of `excludes` that are excluded only for the tiles or sets this fan
    # uses: the ruleset decides them from the hand; apply_exclusions skips them.
    partial: tuple[int, ...] = ()
    rule_zh: str = ""
    rule_en: str = ""
    group: str = ""  # how a picker lists it (pattern, extra, flag …); free per ruleset
    # How often the fan applies to the ruleset's frozen hand context (0: not at
    # all); None when the ruleset decides the fan some other way (a flag, a count
    # entered at the table).  Kept beside the row so a fan is read in one place.
    when: Callable[[Any], int] | None = None


class FanTable:
    """A ruleset's fans by id, with the order and exclusions worked out once.

    `apply_exclusions` goes from the highest fan down (points, then id: the
    lower id first, or the higher one with `higher_id_first`); a counted fan
    removes the fans it excludes, an excluded one removes nothing.  `fallback`
    is the fan that stands when nothing is left (无番和, say), if the ruleset has one.
    """

    def __init__(
        self,
        fans: Iterable[FanDef],
        *,
        fallback: int | None = None,
        higher_id_first: bool = False,
    ) -> None:
        self.by_id: dict[int, FanDef] = {}
        for f in fans:
            if f.id in self.by_id:
                raise ValueError(f"fan {f.id} is listed twice")
            self.by_id[f.id] = f
        for f in self.by_id.values():
            unknown = [x for x in (*f.excludes, *f.partial) if x not in self.by_id]
            if unknown:
                raise ValueError(f"fan {f.id} excludes unknown fans {unknown}")
            if not set(f.partial) <= set(f.excludes):
                raise ValueError(f"fan {f.id}: partial exclusions must be listed in excludes")
        if fallback is not None and fallback not in self.by_id:
            raise ValueError(f"fallback fan {fallback} is not in the table")
        self.fallback = fallback
        sign = -1 if higher_id_first else 1
        self.rank = {fid: (-f.points, sign * fid) for fid, f in self.by_id.items()}
        # the same order as plain ints (a sort key compares faster than a tuple)
        self._place = {
            fid: i for i, fid in enumerate(sorted(self.by_id, key=self.rank.__getitem__))
        }
        self.points = {fid: f.points for fid, f in self.by_id.items()}
        self.exclude_sets = {
            fid: frozenset(x for x in f.excludes if x not in f.partial)
            for fid, f in self.by_id.items()
        }

    def __getitem__(self, fid: int) -> FanDef:
        return self.by_id[fid]

    def __contains__(self, fid: object) -> bool:
        return fid in self.by_id

    def __iter__(self) -> Iterator[FanDef]:
        return iter(self.by_id.values())

    def __len__(self) -> int:
        return len(self.by_id)

    def apply_exclusions(self, raw: Mapping[int, int]) -> tuple[dict[int, int], dict[int, int]]:
        """(the fans that count with their counts, excluded fan -> the fan that excluded it)."""
        excluded: dict[int, int] = {}
        sets = self.exclude_sets
        for fid in sorted(raw, key=self._place.__getitem__) if len(raw) > 1 else raw:
            if fid not in excluded:
                ex = sets[fid]
                if ex:
                    for x in ex.intersection(raw):
                        if x not in excluded:
                            excluded[x] = fid
        # a copy less the excluded (each a fan of raw's): fewer steps than a
        # comprehension over every fan, the rest in raw's order all the same
        fans = dict(raw)
        for x in excluded:
            del fans[x]
        if not fans and self.fallback is not None:
            fans = {self.fallback: 1}
        return fans, excluded

    def total(self, fans: Mapping[int, int]) -> int:
        points = self.points
        return sum(points[f] * n for f, n in fans.items())


__all__ = ["FanDef", "FanTable"]
