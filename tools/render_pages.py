"""python -m tools.render_pages OUTDIR: render a fixed set of the site's pages to files,
so that a restructure meant to change no behaviour (issue 38: models split into a
package, view helpers moved, record.html split into partials) can show it did not:
run it on main and on the branch, then ``diff -r`` the two directories.

Why a tool and not a test: a test asserts what someone thought of; a byte-for-byte
diff of every page of the record flows catches what nobody thought of (a moved
``{% include %}`` that drops a space, a context variable renamed in one place).

What it does, on a throwaway SQLite database (migrated, presets loaded):

* drives the record flows with django.test.Client, as a phone does (the form's state
  read back from each answer, one tap at a time, htmx partials included): a table
  started from the start page, a tile-picked win step by step, a fan-picked win, a
  draw, an undo, the round, ledger, adjust, correction, final and player pages; a
  四川 table recorded event by event (kong, win, wall's end, taking an event back);
  a 武汉 win; a tile-picked win on every other ruleset; a room's admin pages
  (dashboard, tables, till, log, configurations, players, members);
* all of it in zh-hans and in en (the language cookie, as the site reads it);
* writes each answer to OUTDIR/NNN-name.html, its first line a comment with the
  status, the HX-* headers and the redirect;
* makes each run the same: the codes, slugs, tokens and CSRF masks come from seeded
  generators (``secrets``, ``uuid.uuid4``, ``random`` are replaced before Django
  starts), the clock is fixed and moves one minute per request, and what is left
  random is normalised (CSRF tokens, UUIDs numbered by first appearance per page).

Run from a checkout's root (its code is the one imported); /work/snap/render_pages.py
is a copy that also runs from a checkout that does not have this file.
"""

from __future__ import annotations

import base64
import datetime as dt
import html as htmllib
import io
import logging
import os
import random
import re
import secrets
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HTMX = {"HTTP_HX_REQUEST": "true"}
LANGUAGES = ("zh-hans", "en")
NAMES = ("老王", "小李", "阿强", "美玲")
# 一色三节高 + 三暗刻 ...: over MCR's 8-fan minimum (tests/scorer/test_scorer_views_record.py).
WIN_TILES = "111222333m456p7z7z"
# A hand every ruleset that scores by tiles takes (tests/factories.HAND), win tile last.
PLAIN_TILES = "111m222m333m456p7z7z"
# 四川: 对对胡 in 筒/条 (tests/scorer/test_scorer_views_record_sichuan.py).
PUNGS = "111222p333s4455s5s"
PIG = "1112223334445m"  # a standing hand of 13 tiles at the wall's end
BASE_TIME = dt.datetime(2025, 3, 1, 11, 0, tzinfo=dt.UTC)


# ----------------------------------------------------------------------------- determinism


class Clock:
    """The site's "now": fixed, moved on by one minute before each request."""

    def __init__(self) -> None:
        self.at = BASE_TIME

    def now(self) -> dt.datetime:
        return self.at

    def tick(self) -> None:
        self.at += dt.timedelta(minutes=1)


CLOCK = Clock()


def seeded() -> None:
    """Replace what makes each run differ, before Django (and the models' field
    defaults, which hold the function) are imported.  One generator per use, so that
    a change in how often one is called does not shift the others."""
    random.seed(38)
    codes = random.Random("codes")
    masks = random.Random("masks")
    uuids = random.Random("uuids")

    def token_urlsafe(nbytes: int | None = None) -> str:
        raw = codes.randbytes(nbytes or 32)
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    def token_hex(nbytes: int | None = None) -> str:
        return codes.randbytes(nbytes or 32).hex()

    secrets.token_urlsafe = token_urlsafe
    secrets.token_hex = token_hex
    secrets.choice = masks.choice
    uuid.uuid4 = lambda: uuid.UUID(int=uuids.getrandbits(128), version=4)

    from django.utils import timezone

    timezone.now = CLOCK.now


_CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
_CSRF_JSON = re.compile(r'("X-CSRFToken"\s*:\s*")[^"]*(")', re.I)
_CSRF_META = re.compile(r'(name="csrf-token" content=")[^"]*(")')
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")


def normalised(body: str) -> str:
    """The page less what is random per run even with the generators seeded."""
    for pattern in (_CSRF, _CSRF_JSON, _CSRF_META):
        body = pattern.sub(r"\1CSRF\2", body)
    seen: dict[str, str] = {}

    def number(m: re.Match[str]) -> str:
        return seen.setdefault(m.group(0), f"uuid-{len(seen) + 1}")

    return _UUID.sub(number, body)


# ----------------------------------------------------------------------------- reading pages

_HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
_SELECT = re.compile(r'<select name="([^"]+)"[^>]*>(.*?)</select>', re.S)
_SELECTED = re.compile(r'<option value="([^"]*)" selected')
_AUTHOR = re.compile(r'<input type="text" name="author" value="([^"]*)"')


def state_of(page: str) -> dict[str, str]:
    """What the browser would post next: the hidden inputs, the selects, the author."""
    data = {k: htmllib.unescape(v) for k, v in _HIDDEN.findall(page) if k != "csrfmiddlewaretoken"}
    for name, inside in _SELECT.findall(page):
        chosen = _SELECTED.search(inside)
        data[name] = htmllib.unescape(chosen.group(1)) if chosen else ""
    m = _AUTHOR.search(page)
    if m:
        data["author"] = htmllib.unescape(m.group(1))
    return data


def tile_taps(tiles: str) -> list[str]:
    """ "123m55p" -> tile:1m tile:2m tile:3m tile:5p tile:5p, in the order written."""
    from rules.tiles import parse_tiles, tile_str

    return [f"tile:{tile_str(t)}" for t in parse_tiles(tiles)]


# ----------------------------------------------------------------------------- the walk


class Walk:
    """Requests made one after another, each answer written to a numbered file."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.n = 0

    def write(self, name: str, response: Any) -> str:
        self.n += 1
        body = response.content.decode("utf-8", "replace")
        heads = [f"status={response.status_code}"]
        for key in sorted(response.headers):
            if key.lower().startswith("hx-") or key.lower() == "location":
                heads.append(f"{key}={response.headers[key]}")
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")
        text = f"<!-- {' '.join(heads)} -->\n{normalised(body)}"
        (self.out / f"{self.n:03d}-{safe}.html").write_text(text, encoding="utf-8")
        return body

    def get(self, client: Any, name: str, url: str, htmx: bool = False) -> str:
        CLOCK.tick()
        return self.write(name, client.get(url, **(HTMX if htmx else {})))

    def post(
        self, client: Any, name: str, url: str, data: dict[str, Any], htmx: bool = False
    ) -> Any:
        CLOCK.tick()
        response = client.post(url, data, **(HTMX if htmx else {}))
        self.write(name, response)
        return response


class Phone:
    """One phone with a table's record page open (the tests' Phone, writing each answer)."""

    def __init__(self, walk: Walk, client: Any, code: str, name: str, query: str = "") -> None:
        self.walk, self.client, self.name = walk, client, name
        self.record = f"/s/{code}/record"
        self.page = walk.get(client, f"{name}-open", self.record + query)
        self.state = state_of(self.page)

    def tap(self, *taps: str, write: bool = True) -> str:
        for t in taps:
            CLOCK.tick()
            response = self.client.post(self.record + "/preview", {**self.state, "tap": t}, **HTMX)
            if write:
                self.walk.write(f"{self.name}-tap-{t}", response)
            self.page = response.content.decode()
            self.state = state_of(self.page)
        return self.page

    def confirm(self, htmx: bool = False, **extra: str) -> Any:
        return self.walk.post(
            self.client,
            f"{self.name}-confirm{'-htmx' if htmx else ''}",
            self.record + "/confirm",
            {**self.state, "confirm": "1", **extra},
            htmx,
        )


def start_table(
    walk: Walk, client: Any, slug: str, ruleset: str, names: Sequence[str], table: str = ""
) -> str:
    """Start a table of `ruleset` from the room's start page (its first configuration
    of that ruleset, its values unchanged): the new table's code."""
    from rules.registry import get_ruleset
    from scorer.models import Room

    room = Room.objects.get(slug=slug)
    config = next(c for c in room.offered_configs() if c.ruleset == ruleset)
    rules = get_ruleset(ruleset)
    n = len(names) if len(names) in rules.players else max(rules.players)
    data: dict[str, str] = {"config": str(config.pk), "players": str(n), "first_dealer": "0"}
    for i in range(n):
        data[f"name_{i}"] = (list(names) + ["阿五", "阿六"])[i]
    for p in rules.params:
        value = config.params.get(p.name, p.default)
        if p.type == "bool":
            if value:
                data[f"param_{p.name}"] = "on"
        elif value is not None:
            data[f"param_{p.name}"] = str(value)
    if table:
        data["table"] = table
    response = walk.post(client, f"start-{ruleset}", f"/r/{slug}/new", data)
    location = response.headers.get("Location", "")
    m = re.match(r"/s/([^/]+)/", location)
    if m is None:
        raise SystemExit(f"starting a {ruleset} table failed: {response.status_code}")
    return m.group(1)


def table_pages(walk: Walk, client: Any, code: str, tag: str) -> None:
    walk.get(client, f"{tag}-table", f"/s/{code}/")
    walk.get(client, f"{tag}-table-htmx", f"/s/{code}/", htmx=True)
    walk.get(client, f"{tag}-tallies", f"/s/{code}/tallies")
    walk.get(client, f"{tag}-tallies-htmx", f"/s/{code}/tallies", htmx=True)


def mcr_flow(walk: Walk, client: Any, slug: str) -> None:
    from scorer.models import GameSession, Player

    walk.get(client, "home", f"/r/{slug}/")
    code = start_table(walk, client, slug, "mcr", NAMES)
    table_pages(walk, client, code, "mcr-empty")
    walk.post(client, "mcr-whoami", f"/s/{code}/me", {"seat": "0"})

    # A tile-picked win, every tap's partial; a no-JavaScript tap; a delta tap.
    phone = Phone(walk, client, code, "mcr-tiles")
    phone.tap("winner:1", "from:2")
    phone.tap(*tile_taps("111222333m"))
    walk.post(client, "mcr-tiles-nojs", phone.record, {**phone.state, "tap": "tile:4p"})
    phone.tap("tile:4p")
    delta = {**phone.state, "tap": "tile:5p", "delta": "1"}
    walk.post(client, "mcr-tiles-delta", phone.record + "/preview", delta, htmx=True)
    phone.tap("tile:5p", "tile:6p", "tile:7z", "tile:7z")
    walk.get(client, "mcr-tiles-reload", phone.record)
    phone.confirm()
    table_pages(walk, client, code, "mcr-1")

    # A fan-picked win (选番), confirmed through htmx.
    phone = Phone(walk, client, code, "mcr-fans")
    phone.tap("winner:3", "from:self", "mode:quick", "fan:24:+", "fan:59:+", "flowers:+")
    phone.confirm(htmx=True)
    # A draw; then a refused confirm (a win with nobody who discarded).
    phone = Phone(walk, client, code, "mcr-draw")
    phone.tap("kind:draw")
    phone.confirm()
    phone = Phone(walk, client, code, "mcr-refused")
    phone.tap("winner:1", *tile_taps(WIN_TILES))
    phone.confirm(htmx=True)
    phone.confirm()
    walk.post(client, "mcr-refused-drop", phone.record, {**phone.state, "tap": "clear"})
    table_pages(walk, client, code, "mcr-3")

    # Undo the draw.
    response = walk.post(client, "mcr-undo", f"/s/{code}/undo", {"round": "3"})
    walk.get(client, "mcr-after-undo", response.headers["Location"])

    for number in (1, 2, 3):  # 3: the draw, undone
        walk.get(client, f"mcr-round-{number}", f"/s/{code}/rounds/{number}/")
    walk.get(client, "mcr-ledger", f"/s/{code}/ledger")
    walk.get(client, "mcr-ledger-htmx", f"/s/{code}/ledger", htmx=True)
    edit = walk.get(client, "mcr-edit", f"/s/{code}/rounds/1/edit")
    state = state_of(edit)
    walk.post(client, "mcr-edit-tap", phone.record + "/preview", {**state, "tap": "from:3"}, True)
    adjust = walk.get(client, "mcr-adjust", f"/s/{code}/adjust")
    walk.post(client, "mcr-adjust-htmx", f"/s/{code}/adjust", state_of(adjust), htmx=True)
    walk.get(client, "mcr-final", f"/s/{code}/final")
    walk.get(client, "mcr-final-htmx", f"/s/{code}/final", htmx=True)
    session = GameSession.objects.get(code=code)
    player = Player.objects.filter(room=session.room, name=NAMES[0]).first()
    if player is not None:
        walk.get(client, "mcr-player", f"/p/{player.slug}/")
    walk.post(client, "mcr-close", f"/s/{code}/close", {})
    walk.get(client, "mcr-final-closed", f"/s/{code}/final")
    walk.get(client, "mcr-table-closed", f"/s/{code}/")
    walk.get(client, "mcr-record-closed", phone.record)


def sichuan_flow(walk: Walk, client: Any, slug: str) -> None:
    code = start_table(walk, client, slug, "sichuan", NAMES)
    phone = Phone(walk, client, code, "sc-kong", "?kind=kong")
    phone.tap("player:0", "kong:exposed", "from:1", "tile:5m")
    phone.confirm(author="小王")
    table_pages(walk, client, code, "sc-kong")
    phone = Phone(walk, client, code, "sc-win")
    phone.tap("winner:1", "from:2", *tile_taps(PUNGS))
    phone.confirm(htmx=True)
    table_pages(walk, client, code, "sc-win")
    phone = Phone(walk, client, code, "sc-wall", "?kind=wall_end")
    phone.tap(*tile_taps(PIG), write=False)
    phone.tap("seat:2")
    phone.tap(*tile_taps("123456789m1234m"), write=False)
    phone.tap("seat:3")
    phone.tap(*tile_taps("12345678p13579s"))
    walk.post(client, "sc-wall-nojs", phone.record, {**phone.state, "tap": "seat:0"})
    walk.post(client, "sc-undo-event", f"/s/{code}/undo-event", {"round": "1", "events": "2"})
    table_pages(walk, client, code, "sc-undone")
    walk.get(client, "sc-round-1", f"/s/{code}/rounds/1/")
    walk.get(client, "sc-ledger", f"/s/{code}/ledger")
    walk.get(client, "sc-final", f"/s/{code}/final")


def wuhan_flow(walk: Walk, client: Any, slug: str) -> None:
    code = start_table(walk, client, slug, "wuhan", ("甲", "乙", "丙", "丁"))
    phone = Phone(walk, client, code, "wh")
    phone.tap("tool:turned", "tile:5m", "winner:1", "from:2")
    phone.tap("tool:chi", "tile:2p", "tool:added_kong", "tile:9m")
    phone.tap(*tile_taps("345m567s8p8p"))
    phone.tap("seat_input:openings:2:+", "seat_input:an_gang:0:+", "seat_input:hz_gang:3:+")
    phone.confirm()
    table_pages(walk, client, code, "wh")
    walk.get(client, "wh-round-1", f"/s/{code}/rounds/1/")
    walk.get(client, "wh-ledger", f"/s/{code}/ledger")


def other_rulesets(walk: Walk, client: Any, slug: str) -> None:
    from rules import REGISTRY
    from scorer.models import Room

    offered = {c.ruleset for c in Room.objects.get(slug=slug).offered_configs()}
    for ruleset in sorted(REGISTRY):
        if ruleset in ("mcr", "sichuan", "wuhan") or ruleset not in offered:
            continue
        walk.get(client, f"{ruleset}-start-form", f"/r/{slug}/?ruleset={ruleset}")
        code = start_table(walk, client, slug, ruleset, NAMES)
        phone = Phone(walk, client, code, ruleset)
        phone.tap("winner:1", "from:2")
        phone.tap(*tile_taps(PLAIN_TILES)[:-1], write=False)
        phone.tap(tile_taps(PLAIN_TILES)[-1])
        phone.confirm()
        table_pages(walk, client, code, ruleset)


def room_flow(walk: Walk, lang: str) -> None:
    from scorer.models import RoomMember, RoomTable
    from tests.factories import make_member, make_room

    slug = f"room-{lang}"
    room = make_room(slug, "老李棋牌室")
    client = language_client(lang)
    client.force_login(make_member(room, f"boss-{lang}", RoomMember.OWNER, "老板").user)
    first = room.offered_configs()[0]
    walk.get(client, "room-home-config-htmx", f"/r/{slug}/?config={first.pk}", htmx=True)
    walk.get(client, "room-dashboard-empty", f"/r/{slug}/manage/")
    walk.get(client, "room-tables", f"/r/{slug}/manage/tables/")
    table, _ = RoomTable.objects.get_or_create(room=room, number=1)
    walk.get(client, "room-table-qr-start", f"/r/{slug}/t/{table.code}/")
    code = start_table(walk, client, slug, first.ruleset, NAMES, table=table.code)
    phone = Phone(walk, client, code, "room-table")
    phone.tap("winner:1", "from:2", *tile_taps(WIN_TILES), write=False)
    phone.confirm()
    walk.get(client, "room-dashboard", f"/r/{slug}/manage/")
    walk.get(client, "room-dashboard-htmx", f"/r/{slug}/manage/", htmx=True)
    walk.get(client, "room-tables-1", f"/r/{slug}/manage/tables/")
    walk.get(client, "room-table-1", f"/r/{slug}/manage/tables/1/")
    walk.get(client, "room-till", f"/r/{slug}/manage/till/")
    walk.get(client, "room-till-htmx", f"/r/{slug}/manage/till/", htmx=True)
    walk.get(client, "room-till-table", f"/r/{slug}/manage/till/t/{code}")
    walk.get(client, "room-till-balances", f"/r/{slug}/manage/till/members/")
    walk.get(client, "room-log", f"/r/{slug}/manage/log/")
    walk.get(client, "room-log-htmx", f"/r/{slug}/manage/log/", htmx=True)
    walk.get(client, "room-configs", f"/r/{slug}/manage/configs/")
    walk.get(client, "room-configs-htmx", f"/r/{slug}/manage/configs/", htmx=True)
    walk.get(client, "room-config", f"/r/{slug}/manage/configs/{first.pk}/")
    walk.get(client, "room-config-new", f"/r/{slug}/manage/configs/new")
    walk.get(client, "room-players", f"/r/{slug}/manage/players/")
    walk.get(client, "room-members", f"/r/{slug}/manage/members/")
    walk.get(client, "my-rooms", "/accounts/rooms/")


def language_client(lang: str) -> Any:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


def walk_all(out: Path) -> int:
    from scorer.models.rooms import default_room

    walk = Walk(out)
    flows: list[Callable[[Walk, Any, str], None]] = [
        mcr_flow,
        sichuan_flow,
        wuhan_flow,
        other_rulesets,
    ]
    for lang in LANGUAGES:
        slug = default_room().slug
        for flow in flows:
            flow(walk, language_client(lang), slug)
        room_flow(walk, lang)
    return walk.n


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.html"):
        old.unlink()
    started = time.monotonic()
    tmp = tempfile.TemporaryDirectory(prefix="render_pages-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp.name}/pages.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
    os.environ.setdefault("DJANGO_ALLOW_INSECURE_KEY", "1")
    os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
    os.environ.setdefault("MAHJONG_LIVE_STREAM_SECONDS", "0")
    os.environ.setdefault("MAHJONG_LIVE_BROKER", "memory")
    seeded()

    import django
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    django.setup()
    setup_test_environment()  # "testserver" allowed; e-mail kept in memory
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    logging.getLogger("django.request").setLevel(logging.ERROR)  # the 4xx pages are wanted
    call_command("migrate", verbosity=0)
    call_command("load_presets", verbosity=0, stdout=io.StringIO())
    try:
        n = walk_all(out)
    finally:
        tmp.cleanup()
    print(f"{n} pages in {out} ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    sys.exit(main(sys.argv[1:]))
