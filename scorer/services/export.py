"""A table out and back in: JSON (everything, re-importable) and CSV (every transfer).

The JSON carries what was entered for every version of every round, who made it
and when, the undo/restore history and the table's own close/reopen history.
Importing re-scores every version with the engine (a file's figures are never
taken on trust) and refuses the whole file, changing nothing, when any version
scores differently from what the file says: the imported table's tallies are
the exported ones or there is no imported table.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import pgettext

from rules import RuleError
from rules.registry import get_ruleset
from scorer.clean import table_schema
from scorer.clean.parse import FIRST_DAY, LAST_DAY, MAX_RATE, datetime_or_none, money_or_none
from scorer.clean.spreadsheet import csv_text, local_time
from scorer.clean.text import (
    AUTHOR,
    NOTE,
    PLAYER_NAME,
    REASON,
    TextKind,
    TextRefused,
    check_characters,
    clean_text,
    strings_in,
)
from scorer.language import by_language
from scorer.models import GameSession, Round, RoundChange, RoundRevision, SessionChange
from scorer.models.players import Player
from scorer.models.results import write_results
from scorer.models.rooms import Room, default_room
from scorer.money import clock
from scorer.money.fees import FEE_KIND, FEE_REASON, FeeRule, charged, rescore_close
from scorer.money.timefee import TimeFee
from scorer.scoring import score_entry
from scorer.services.seating import start_table

FORMAT, VERSION = table_schema.FORMAT, table_schema.VERSION


def _at(d: datetime | None) -> str | None:
    return d.isoformat() if d is not None else None


def table_json(session: GameSession) -> dict[str, Any]:
    rounds = (
        session.rounds.order_by("number")
        .prefetch_related("revisions__transfers", "changes")
        .select_related("current")
    )
    out_rounds = []
    for r in rounds:
        out_rounds.append({
            "number": r.number,
            "status": r.status,
            "in_progress": r.in_progress,
            "created_at": _at(r.created_at),
            "undone_at": _at(r.undone_at),
            "undone_by": r.undone_by,
            "current": r.current.number if r.current is not None else None,
            "revisions": [
                {
                    "number": v.number, "created_at": _at(v.created_at), "author": v.author,
                    "kind": v.kind, "dealer": v.dealer, "prevalent_wind": v.prevalent_wind,
                    "entry": v.entry, "deltas": v.deltas, "room_take": v.room_take,
                    "transfers": [{"from": t.from_seat, "to": t.to_seat, "amount": t.amount,
                                   "reason": t.reason} for t in v.transfers.all()],
                }
                for v in r.revisions.all()
            ],
            "changes": [{"action": c.action, "author": c.author, "at": _at(c.at)}
                        for c in r.changes.all()],
        })  # fmt: skip
    return {
        "format": FORMAT,
        "version": VERSION,
        # The table's lineage, never its code (the link is its key): importing this file
        # where the table, or a copy of it, already is says so (`import_table`).
        "origin": session.origin,
        "ruleset": session.ruleset,
        "preset": session.preset,
        "params": session.params,
        "players": list(session.players),
        "first_dealer": session.first_dealer,
        "money_per_point": None
        if session.money_per_point is None
        else str(session.money_per_point),
        "fee": session.rules.fee.to_json(),
        "created_at": _at(session.created_at),
        "closed_at": _at(session.closed_at),
        "changes": [
            {"action": c.action, "author": c.author, "note": c.note, "at": _at(c.at)}
            for c in session.changes.all()
        ],  # fmt: skip
        "rounds": out_rounds,
        "tallies": session.tallies(),
        # The room's take (台费): with the tallies it sums to zero.
        "room_take": session.room_take(),
        # The table's money ledger in 元 (scorer/models/money.py), apart from the points: its 计时
        # rule, its clock's pauses, and what each seat owes the room at its close.
        "time_fee": session.rules.time_fee.to_json(),
        "pauses": session.pauses or [],
        "money_charged": [str(m) for m in session.money_charged()],
    }


def table_rows(session: GameSession) -> list[list[Any]]:
    """The table's transfers as a spreadsheet reads them, in the page's language.

    One row per transfer of every version of every round (the history too), then
    one column per player and one for the room (台费, where the table pays it):
    on a row that counts (counted and current: 是, 是) the points it moves to or
    from each of them, on the history's rows nothing.  The last row is the totals
    in the same columns, so that a spreadsheet's SUM of each column is its total:
    each player's tally, and what the room took."""
    reasons = session.rules.table.reasons
    names = [str(n) for n in session.players]
    charged_room = bool(session.rules.fee.to_json()) or session.room_take() != 0
    room = pgettext("the room as a payee of the table's export", "the room")
    head = [
        # Round.number: the ledger's line (hands, adjustments, penalties, the fee), not 局.
        pgettext("table export column", "Line"),
        pgettext("table export column", "Counted"),
        pgettext("table export column", "Version"),
        pgettext("table export column", "Current"),
        pgettext("table export column", "Kind"),
        pgettext("table export column", "Dealer"),
        pgettext("table export column", "Recorded by"),
        pgettext("table export column", "Time"),
        pgettext("table export column", "From"),
        pgettext("table export column", "To"),
        pgettext("table export column", "Points"),
        pgettext("table export column", "Reason"),
        *names,
        *([room] if charged_room else []),
    ]
    yes, no = pgettext("table export", "yes"), pgettext("table export", "no")
    rows: list[list[Any]] = [head]
    totals = [0] * (len(names) + 1)
    rounds = session.rounds.order_by("number").prefetch_related("revisions__transfers")
    for r in rounds:
        for v in r.revisions.all():
            counts = r.status == Round.ACTIVE and v.pk == r.current_id
            for t in v.transfers.all():
                moved: list[Any] = [""] * len(totals)
                if counts:
                    moved = [0] * len(totals)
                    moved[t.from_seat] -= t.amount
                    moved[len(names) if t.to_seat is None else t.to_seat] += t.amount
                    totals = [a + b for a, b in zip(totals, moved, strict=True)]
                rows.append([
                    r.number, yes if r.status == Round.ACTIVE else no, v.number,
                    yes if v.pk == r.current_id else no, _kind_word(v.kind),
                    names[v.dealer], v.author, local_time(v.created_at), names[t.from_seat],
                    room if t.to_seat is None else names[t.to_seat], t.amount,
                    _reason_words(v, t.reason, reasons, t.to_seat),
                    *(moved if charged_room else moved[:-1]),
                ])  # fmt: skip
    total = pgettext("table export", "Total")
    rows.append([total, *[""] * 11, *(totals if charged_room else totals[:-1])])
    return rows


def table_csv(session: GameSession) -> str:
    """`table_rows` as a CSV file's text (BOM first, scorer/clean/spreadsheet.py)."""
    return csv_text(table_rows(session))


def _kind_word(kind: str) -> str:
    words = {
        RoundRevision.WIN: pgettext("table export kind", "Win"),
        RoundRevision.DRAW: pgettext("table export kind", "Draw"),
        RoundRevision.ROUND: pgettext("table export kind", "Round played event by event"),
        RoundRevision.FEE: pgettext("table export kind", "Table fee"),
        RoundRevision.ADJUST: pgettext("table export kind", "Adjustment"),
        RoundRevision.PENALTY: pgettext("table export kind", "Penalty"),
    }
    return words.get(kind, kind)


def _reason_words(
    version: RoundRevision, code: str, reasons: Mapping[str, tuple[str, str]],
    to_seat: int | None = None,
) -> str:  # fmt: skip
    """A transfer's reason as the ledger says it; an adjustment's line says why, as
    entered; a win's, the fans it was paid for."""
    if code == FEE_REASON:
        return pgettext("table export kind", "Table fee")
    if code == RoundRevision.ADJUST:
        word = pgettext("table export kind", "Adjustment")
        why = version.entry.get("reason") if isinstance(version.entry, Mapping) else None
        return f"{word}: {why}" if why else word
    zh, en = reasons.get(code, (code, code))
    word = by_language(zh, en)
    fans = _fans_of(version, to_seat) if code.startswith("win") else ""
    return f"{word}: {fans}" if fans else word


def _fans_of(version: RoundRevision, seat: int | None) -> str:
    """The fans a win was paid for (issue 35: the CSV said "胡牌" and no more):
    the whole round's, or in a round of events those of the win `seat` was paid
    for, each with its count ("清一色、碰碰胡 ×2"); "" when none are known."""
    result = version.result if isinstance(version.result, Mapping) else {}
    fans: Any = result.get("fans")
    if not fans and seat is not None:
        for ev in result.get("events") or []:
            for w in (ev.get("winners") or []) if isinstance(ev, Mapping) else []:
                if isinstance(w, Mapping) and w.get("seat") == seat and w.get("fans"):
                    fans = w["fans"]
    names = []
    for f in fans or []:
        if isinstance(f, Mapping) and (f.get("name_zh") or f.get("name_en")):
            name = str(by_language(f.get("name_zh") or "", f.get("name_en") or ""))
            count = f.get("count", 1)
            names.append(f"{name} ×{count}" if isinstance(count, int) and count > 1 else name)
    return by_language("、", ", ").join(names)


def _bad(en: str, zh: str) -> RuleError:
    return RuleError("bad_input", en, zh)


def _when(raw: Any) -> datetime:
    """A time of the file; now where it has none.  RuleError for one that is not a
    time between 2000 and 2999 (a table's pages and reports would overflow on it)."""
    if raw in (None, ""):
        return timezone.now()
    when = datetime_or_none(raw)
    if when is None:
        raise _bad(f"a time in the file is not a time from {FIRST_DAY.year} to {LAST_DAY.year}: "
                   f"{str(raw)[:40]}", f"文件里有一个时间不是 {FIRST_DAY.year} 到 {LAST_DAY.year} "
                   f"年之间的时间：{str(raw)[:40]}")  # fmt: skip
    return when


# The free text of an exported table, by where it is (an index: any); every other
# text of the file (a tile, a kind, a key) holds no character no text may hold.
_FILE_TEXTS: dict[tuple[Any, ...], TextKind] = {
    ("players", int): PLAYER_NAME,
    ("changes", int, "author"): AUTHOR,
    ("changes", int, "note"): NOTE,
    ("rounds", int, "undone_by"): AUTHOR,
    ("rounds", int, "changes", int, "author"): AUTHOR,
    ("rounds", int, "revisions", int, "author"): AUTHOR,
    ("rounds", int, "revisions", int, "entry", "reason"): REASON,
}


def _check_file_text(data: Any) -> None:
    """Every text of the file through scorer/clean/text.py, before anything is read: RuleError
    naming the field (`players[0]: ...`), in both languages, for the first refused."""
    for path, found in strings_in(data):
        kind = _FILE_TEXTS.get(tuple(int if isinstance(p, int) else p for p in path))
        try:
            if kind is None:
                check_characters(found)
            else:
                clean_text(kind, found)
        except TextRefused as e:
            where = table_schema.field_name(path)
            raise e.rule_error(f"{where}: ", f"{where}：") from None


def _text(kind: TextKind, raw: Any) -> str:
    """A text of the file as it is stored (checked by _check_file_text already)."""
    return clean_text(kind, raw) if isinstance(raw, str) else ""


def _refuse_lookalikes(room: Room, players: list[str]) -> None:
    """A file's player whose name looks like a room player's without being it ("Bоb",
    Cyrillic о, beside the room's "Bob": Player.looking_like) is refused, naming the
    field.  Not asked, as the start form asks: whoever imports may be anyone on the
    room's page, there is nobody at a table to say who is who, and a file, once read,
    cannot come back with an answer (it would be chosen again); the admins then rename
    one of the two, or the file names him as the room does."""
    for i, name in enumerate(players):
        other = Player.looking_like(room.pk, name)
        if other is not None:
            where = table_schema.field_name(("players", i))
            raise _bad(f"{where}: “{name}” looks like {other.name}, a player of this room, "
                       f"without being the same name: nothing was imported. Write the name "
                       f"as the room does if they are one person; if not, the room's admins "
                       f"can rename one of them first.",
                       f"{where}：“{name}” 看起来和本室的玩家 {other.name} 一样，却不是同一个"
                       f"名字：什么都没有导入。如果是同一个人，请按本室的写法写这个名字；"
                       f"如果不是，请管理员先给其中一人改名。")  # fmt: skip


class AlreadyHere(Exception):
    """The file's table is here already (itself, or a copy imported before): nothing was
    imported.  A second copy would count its rounds twice in the players' statistics,
    so it is made only on the reader's explicit choice (`copy_of`)."""

    def __init__(self, origin: str, tables: list[GameSession]) -> None:
        super().__init__(origin)
        self.origin, self.tables = origin, tables


def origin_of(data: Mapping[str, Any]) -> str:
    """The lineage of an exported table: the one its file carries, or for a file exported
    before files carried it, a fingerprint of what made that table (its ruleset, players
    and start to the microsecond), the same in every old export of it."""
    origin = data.get("origin")
    if isinstance(origin, str) and origin:
        return origin
    made = [data.get("ruleset"), data.get("players"), data.get("created_at")]
    if data.get("created_at") is None:  # no start: the file's whole content
        made = [dict(data)]
    canonical = json.dumps(made, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(f"mahjong-file:{canonical}".encode()).hexdigest()


def _check_money(session: GameSession, charged: Any) -> None:
    """A closed table's 计时 fee in 元, charged again on the file's clock (its start, its
    close, its pauses) and held to what the file says each seat owed."""
    if session.closed_at is not None:
        session.charge_time()
    if charged is None:
        return
    said = [str(m) for m in session.money_charged()]
    if [str(money_or_none(m)) for m in charged] != said:
        raise _bad("the time fee does not add up to the file's", "计时费和文件里的不一样")


def import_table(data: Any, copy_of: str = "", room: Room | None = None) -> GameSession:
    """A new table from an exported JSON in `room` (the default room when None), all
    or nothing (RuleError: nothing created).

    The table is marked imported: anyone may import on a room's page, so it stays
    out of the room's books until the room's admins take it in (GameSession.take_in).

    A table already in the room (the file's origin is one of the room's tables') is
    not imported again (AlreadyHere, nothing created) unless `copy_of` is that
    origin: the reader chose a second copy of that very table.  Another room's
    tables are never looked at: what one room sees of another is nothing.

    The file is held to its declared shape (scorer/clean/table_schema.py) before any
    field is read, so a wrong type anywhere is a refusal naming the field, never
    a TypeError half-way through; what the shape cannot say (a known ruleset,
    its parameters, every version scoring as the file says) is checked below."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _bad("this is not an exported table", "这不是导出的牌桌文件")
    if data.get("version") != VERSION:
        raise _bad("this file's version is not known", "不认识这个文件的版本")
    _check_file_text(data)
    wrong = table_schema.problem(data)
    if wrong is not None:
        raise _bad(f"the file does not fit an exported table: {wrong[0]}",
                   f"文件内容和导出的牌桌格式不符：{wrong[1]}")  # fmt: skip
    rs = get_ruleset(data.get("ruleset"))
    players = data.get("players")
    if (
        not isinstance(players, list)
        or len(players) not in rs.players
        or not all(isinstance(p, str) and p.strip() for p in players)
    ):
        raise _bad("the players are missing or wrong", "玩家名单不对")
    players = [_text(PLAYER_NAME, p) for p in players]
    _refuse_lookalikes(room or default_room(), players)
    params = rs.resolve_params(data.get("params") or {})
    rate = data.get("money_per_point")
    # Written as text ("0.50"); a JSON number (0.5) is read by its shortest text.
    money = (
        None
        if rate in (None, "")
        else money_or_none(repr(rate) if isinstance(rate, float) else rate, 0, MAX_RATE)
    )
    if money is None and rate not in (None, ""):
        raise _bad("money_per_point is not an amount in yuan (0.50)",
                   "money_per_point：每分多少钱不是金额（如 0.50）")  # fmt: skip
    first = data.get("first_dealer", 0)
    if not isinstance(first, int) or not 0 <= first < len(players):
        raise _bad("the first dealer is not a seat", "首位庄家不是座位号")
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise _bad("the rounds are missing", "缺少牌局")
    fee = FeeRule.from_json(data.get("fee"))  # RuleError in both languages when unsound
    time_fee = TimeFee.from_json(data.get("time_fee"))
    with transaction.atomic():
        # Seated and told to the room like any table started here (seating.start_table).
        session = start_table(
            room, imported_at=timezone.now(),
            ruleset=rs.id, preset=str(data.get("preset") or "")[:32], params=dict(params),
            players=players, first_dealer=first, money_per_point=money, fee=fee.to_json(),
            time_fee=time_fee.to_json(),
            pauses=clock.pauses_json(clock.pauses_of(data.get("pauses"))),
        )  # fmt: skip
        if time_fee.charges and data.get("created_at"):
            # Billed by its clock: the table's start is the file's (else it is the import's).
            session.created_at = _when(data["created_at"])
            session.save(update_fields=["created_at"])
        for i, r in enumerate(rounds):
            _import_round(session, r, i)
        for c in data.get("changes") or []:
            if isinstance(c, Mapping) and c.get("action") in (SessionChange.CLOSE,
                                                              SessionChange.REOPEN):  # fmt: skip
                SessionChange.objects.create(
                    session=session, action=c["action"], author=_text(AUTHOR, c.get("author")),
                    note=_text(NOTE, c.get("note")), at=_when(c.get("at")),
                )  # fmt: skip
        if data.get("closed_at"):
            session.closed_at = _when(data["closed_at"])
            session.save(update_fields=["closed_at"])
        expected = data.get("tallies")
        if expected is not None and session.tallies() != expected:
            raise _bad("the rounds do not add up to the file's totals",
                       "牌局加起来和文件里的总分不一样")  # fmt: skip
        _check_close_fee(session)
        _check_money(session, data.get("money_charged"))
        if session.room_take() != data.get("room_take", 0):
            raise _bad("the table fee does not add up to the file's",
                       "台费加起来和文件里的不一样")  # fmt: skip
        # Asked last, once the file is known good: a refusal says what is wrong with it.
        # Two phones importing the same file at the same instant may both find nothing
        # and make two copies; no row exists yet to lock, and a copy is what the reader
        # could have chosen anyway (it can be seen, and the rounds are right).
        session.origin = origin_of(data)
        session.save(update_fields=["origin"])
        here = list(session.room.sessions.filter(origin=session.origin).exclude(pk=session.pk)
                    .order_by("created_at", "pk"))  # fmt: skip
        if here and copy_of != session.origin:
            raise AlreadyHere(session.origin, here)  # rolls the import back
        write_results(session)  # kept, not counted by the league until taken in
        session.bump()
    return session


def _import_round(session: GameSession, r: Any, i: int) -> None:
    where, where_zh = f"round {i + 1}", f"第 {i + 1} 局"
    if not isinstance(r, Mapping) or not isinstance(r.get("revisions"), list) or not r["revisions"]:
        raise _bad(f"{where} has no versions", f"{where_zh}没有内容")
    number = r.get("number")
    if not isinstance(number, int) or number < 1 or session.rounds.filter(number=number).exists():
        raise _bad(f"{where}: bad round number", f"{where_zh}：局号不对")
    rnd = Round.objects.create(
        session=session, number=number, token=uuid.uuid4(), created_at=_when(r.get("created_at"))
    )
    by_number = {}
    for v in r["revisions"]:
        if not isinstance(v, Mapping) or not isinstance(v.get("entry"), Mapping):
            raise _bad(f"{where}: a version has no entry", f"{where_zh}：有一个版本没有内容")
        try:
            if v["entry"].get("kind") == FEE_KIND:  # the fee charged at the close
                scored = rescore_close(session.rules.fee, v["entry"], session.n_players,
                                       _seat_or_east(v.get("dealer")), str(v.get("prevalent_wind") or "E"))  # fmt: skip
                net = scored
            else:
                scored = score_entry(session, v["entry"])
                net = charged(scored, session.rules.fee)  # the per-round fee, charged again
        except RuleError as e:
            raise RuleError(
                e.code, f"{where}: {e.message}", f"{where_zh}：{e.message_zh}"
            ) from None
        if list(net.deltas) != v.get("deltas"):
            raise _bad(f"{where}: a version scores {net.deltas}, the file says {v.get('deltas')}",
                       f"{where_zh}：重新计分和文件里的分数不一样")  # fmt: skip
        if net.room_take != v.get("room_take", 0):
            raise _bad(f"{where}: a version's table fee is {net.room_take}, the file says "
                       f"{v.get('room_take')}", f"{where_zh}：重新计算的台费和文件里的不一样")  # fmt: skip
        rev = rnd.add_revision(scored, _text(AUTHOR, v.get("author")))
        rev.created_at = _when(v.get("created_at"))
        rev.save(update_fields=["created_at"])
        by_number[v.get("number")] = rev
    current = by_number.get(r.get("current"))
    if current is not None:
        rnd.current = current
    rnd.in_progress = bool(r.get("in_progress"))
    if r.get("status") == Round.UNDONE:
        rnd.status, rnd.in_progress = Round.UNDONE, False
        rnd.undone_at = _when(r.get("undone_at"))
        rnd.undone_by = _text(AUTHOR, r.get("undone_by"))
    rnd.save()
    for c in r.get("changes") or []:
        if isinstance(c, Mapping) and c.get("action") in (RoundChange.UNDO, RoundChange.RESTORE):
            RoundChange.objects.create(round=rnd, action=c["action"],
                                       author=_text(AUTHOR, c.get("author")), at=_when(c.get("at")))  # fmt: skip


def _seat_or_east(raw: Any) -> int:
    """A stored seat number (0-3), else 0: the first dealer, East."""
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < 4 else 0


def _check_close_fee(session: GameSession) -> None:
    """A fee charged at the close that still counts is charged on the totals of the
    hands before it, and only on a closed table (reopening undoes it)."""
    rounds = session.standing_rounds()
    for i, r in enumerate(rounds):
        if not r.is_fee:
            continue
        assert r.current is not None
        before = [x for x in rounds[:i] if not x.is_fee]
        if session.closed_at is None or i != len(rounds) - 1:
            raise _bad("a table fee charged at the close counts on an open table",
                       "牌桌没有结束，却收了结束时的台费")  # fmt: skip
        if r.current.entry.get("totals") != session.tallies(before):
            raise _bad("the table fee was not charged on the table's totals",
                       "台费不是按这桌的总分收的")  # fmt: skip


__all__ = ["AlreadyHere", "import_table", "origin_of", "table_csv", "table_json", "table_rows"]
