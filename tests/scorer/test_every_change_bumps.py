"""Every change of a table ends with `bump()`: its version moves, so its phones and
the room's pages hear of it (docs/architecture.md, "The one locking rule").

The walk is built to fail on a change nobody listed:

* every public method of GameSession (with its RoundChanges part) and Round that
  the app defines is in exactly one of CHANGES (a driver that makes the change on a
  fresh table: the table's version must move), PARTS (a step of a change, called
  under its lock by the changes, which bump) or READS (called on a played table:
  no INSERT, UPDATE or DELETE may run);
* the services that change a table (SERVICE_CHANGES) are driven the same way;
* and, read from the source, every function in scorer/ that takes a table's lock
  (`locked(...)`) calls `.bump()`, unless it is one of NO_BUMP, each with why.
"""

from __future__ import annotations

import ast
import datetime as dt
import inspect
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorer.models import GameSession, Round
from scorer.models.money import CASH
from scorer.models.rooms import RoomMember
from scorer.money import clock
from scorer.services import export, taken_in, till
from tests.factories import by_tiles, make_member, make_room, make_table, record

pytestmark = pytest.mark.django_db

KONG = {"type": "kong", "player": 1, "kong": "concealed"}
HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 120}
SCORER = Path(__file__).resolve().parents[2] / "scorer"

# A driver: a table made ready for the change, and the change (whose answer must
# say it changed something: not None, False nor empty).
Driver = Callable[[], tuple[GameSession, Callable[[], Any]]]


@pytest.fixture(autouse=True)
def evening() -> Iterator[None]:
    clock.set_now(dt.datetime(2026, 11, 27, 19, 0))
    yield
    clock.set_now(None)


def later(minutes: int) -> None:
    clock.set_now(clock.now() + dt.timedelta(minutes=minutes))


def played() -> tuple[GameSession, Round]:
    s = make_table()
    return s, record(s)


def closed(**fields: Any) -> GameSession:
    s = make_table(seated=True, **fields)
    record(s)
    later(130)
    assert s.close()
    return s


def imported(taken: bool = False) -> GameSession:
    """A closed table of another room imported here (out of the books until taken in)."""
    s = export.import_table(export.table_json(closed()), room=make_room("east"))
    if taken:
        assert s.take_in()
    return s


def boss(s: GameSession) -> RoomMember:
    return make_member(s.room, "boss")


def with_event() -> GameSession:
    s = make_table("sichuan")
    s.add_event(uuid.uuid4(), KONG)
    return s


def undone() -> tuple[GameSession, Round]:
    s, r = played()
    assert s.undo_last() is not None
    return s, r


def paused() -> GameSession:
    s = make_table()
    assert s.pause()
    return s


def case(make: Callable[[], Any], act: Callable[..., Any]) -> Driver:
    """A driver from what makes the table (a table, or a table and its round) and
    what changes it (given the same)."""

    def driver() -> tuple[GameSession, Callable[[], Any]]:
        made = make()
        args = made if isinstance(made, tuple) else (made,)
        return args[0], lambda: act(*args)

    return driver


CHANGES: dict[str, Driver] = {
    "GameSession.record_round": case(make_table, lambda s: s.record_round(uuid.uuid4(), by_tiles())),
    "GameSession.undo_last": case(played, lambda s, r: s.undo_last()),
    "GameSession.restore": case(undone, lambda s, r: s.restore(r.number)),
    "GameSession.revise_round": case(played, lambda s, r: s.revise_round(r, {"kind": "draw"})),
    "GameSession.add_event": case(lambda: make_table("sichuan"), lambda s: s.add_event(uuid.uuid4(), KONG)),
    "GameSession.close": case(played, lambda s, r: s.close()),
    "GameSession.reopen": case(closed, lambda s: s.reopen()),
    "GameSession.pause": case(make_table, lambda s: s.pause()),
    "GameSession.resume": case(paused, lambda s: s.resume()),
    "GameSession.take_in": case(imported, lambda s: s.take_in()),
    "Round.revise": case(played, lambda s, r: r.revise({"kind": "draw"})),
}  # fmt: skip
# A change's other way in, driven too (the same method, another branch under the lock).
BRANCHES: dict[str, Driver] = {
    "GameSession.undo_last(step=True)": case(with_event, lambda s: s.undo_last(step=True)),
}

SERVICE_CHANGES: dict[str, Driver] = {
    "till.collect": case(
        lambda: closed(time_fee=HOURLY), lambda s: till.collect(s, {0: CASH}, boss(s))
    ),
    "taken_in.send_back": case(
        lambda: imported(taken=True), lambda s: taken_in.send_back(s, boss(s))
    ),
}

# Steps of a change, called under its lock by the changes above (which bump).
PARTS = {
    "GameSession.bump": "the bump itself",
    "GameSession.save": "the row's own save (a change's, under its lock)",
    "GameSession.charge_at_close": "the close's fee (close, a match's last hand)",
    "GameSession.charge_time": "the close's 计时 (close, a match's last hand, an import)",
    "GameSession.finish_match": "a match's last hand closes it (record_round, add_event)",
    "GameSession.log_change": "the close's and the reopening's trail line",
    "Round.add_revision": "a round's new version (record_round, revise_round, events)",
    "Round.mark_undone": "a round undone (undo_last, a whole round or its last step; reopen)",
}

# What reads a table: called on a played table, none may write.
READS: dict[str, Callable[[GameSession, Round], Any]] = {
    "GameSession.billed_seconds": lambda s, r: s.billed_seconds(),
    "GameSession.clock_data": lambda s, r: s.clock_data(),
    "GameSession.clock_pauses": lambda s, r: s.clock_pauses(),
    "GameSession.config_id_of": lambda s, r: s.config_id_of(s.preset, s.imported_at),
    "GameSession.in_books_q": lambda s, r: GameSession.objects.filter(s.in_books_q()).count(),
    "GameSession.log_data": lambda s, r: s.log_data(),
    "GameSession.money_charged": lambda s, r: s.money_charged(),
    "GameSession.next_hand_number": lambda s, r: s.next_hand_number(),
    "GameSession.next_number": lambda s, r: s.next_number(),
    "GameSession.next_position": lambda s, r: s.next_position(),
    "GameSession.recorded": lambda s, r: s.recorded(uuid.uuid4()),
    "GameSession.room_take": lambda s, r: s.room_take(),
    "GameSession.round_in_progress": lambda s, r: s.round_in_progress(),
    "GameSession.standing_rounds": lambda s, r: s.standing_rounds(),
    "GameSession.standings_of": lambda s, r: GameSession.standings_of([s]),
    "GameSession.tallies": lambda s, r: s.tallies(),
    "GameSession.time_fee_due": lambda s, r: s.time_fee_due(),
    "Round.hand_number": lambda s, r: r.hand_number(),
    "Round.hands_q": lambda s, r: Round.objects.filter(Round.hands_q()).count(),
}

# Functions that take a table's lock and rightly move no version.
NO_BUMP = {
    "rewrite_results": "writes the league's kept results of a merge, not the table",
}


def public_methods(cls: type) -> set[str]:
    """The public methods (and static ones) the app itself defines on `cls`."""
    out = set()
    for name in dir(cls):
        owner = next((c for c in cls.__mro__ if name in c.__dict__), None)
        if name.startswith("_") or owner is None or not owner.__module__.startswith("scorer."):
            continue
        attr = inspect.getattr_static(cls, name)
        if inspect.isfunction(attr) or isinstance(attr, staticmethod | classmethod):
            out.add(f"{cls.__name__}.{name}")
    return out


def test_every_method_of_a_table_is_listed_once() -> None:
    methods = public_methods(GameSession) | public_methods(Round)
    listed = [*CHANGES, *PARTS, *READS]
    assert len(listed) == len(set(listed)), "a method listed twice"
    unlisted = methods - set(listed)
    assert not unlisted, f"say whether each changes a table (CHANGES), and drive it: {unlisted}"
    assert not set(listed) - methods, "listed, but no method of that name"


def version_of(s: GameSession) -> int:
    return GameSession.objects.values_list("version", flat=True).get(pk=s.pk)


@pytest.mark.parametrize("name", sorted({**CHANGES, **BRANCHES, **SERVICE_CHANGES}))
def test_every_change_moves_the_tables_version(name: str) -> None:
    table, change = {**CHANGES, **BRANCHES, **SERVICE_CHANGES}[name]()
    before = version_of(table)
    answer = change()
    assert answer not in (None, False, []), f"{name} changed nothing: the driver is wrong"
    assert version_of(table) > before, f"{name} changed the table without bump()"


def test_an_import_is_told_as_a_change_too() -> None:
    """A table made from a file has a version: its pages' first fetch is not stale."""
    assert imported().version > 0


@pytest.mark.parametrize("name", sorted(READS))
def test_a_read_writes_nothing(name: str) -> None:
    s, r = played()
    with CaptureQueriesContext(connection) as seen:
        READS[name](s, r)
    writes = [
        q["sql"]
        for q in seen.captured_queries
        if q["sql"].split()[0] in {"INSERT", "UPDATE", "DELETE"}
    ]
    assert not writes, f"{name} writes: list it as a change, with a driver ({writes[0][:80]})"


def test_every_part_is_a_step_of_a_change() -> None:
    """Each part is called by a change (its `.name(` in a change's source), under the
    change's lock: none is an entry point left without a bump."""
    sources = "".join(
        inspect.getsource(getattr(GameSession if n.startswith("GameSession") else Round,
                                  n.split(".")[1]))
        for n in CHANGES
    ) + inspect.getsource(GameSession._set_clock)  # fmt: skip
    for part in PARTS:
        method = part.split(".")[1]
        assert f".{method}(" in sources or method == "save", f"{part} is called by no change"


def takes_a_table_lock(fn: ast.AST) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.withitem) and isinstance(node.context_expr, ast.Call):
            func = node.context_expr.func
            if isinstance(func, ast.Name) and func.id in {"locked", "locked_table"}:
                return True
    return False


def calls_bump(fn: ast.AST) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "bump"
        for node in ast.walk(fn)
    )


def test_every_function_taking_a_tables_lock_bumps() -> None:
    """Read from the source: a new change of a table that forgets bump() fails here
    before any driver is written for it."""
    missing, seen = [], set()
    for path in sorted(SCORER.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for fn in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(fn, ast.FunctionDef) and takes_a_table_lock(fn):
                seen.add(fn.name)
                if not calls_bump(fn) and fn.name not in NO_BUMP:
                    missing.append(f"{path.relative_to(SCORER.parent)}: {fn.name}")
    assert not missing, f"a table changed under its lock without bump(): {missing}"
    assert {"collect", "send_back", "take_in", "close", "record_round"} <= seen  # the walk sees
