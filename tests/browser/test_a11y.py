"""Every page and every record-page state the flows reach, checked in a real browser
at 360 x 740: axe-core's WCAG 2.1 AA rules (0 violations), text a player reads at
least 14 px, and contrast measured from computed styles (tests/browser/a11y.py).

Every screen is checked in Chinese and in English in the light colour scheme at
normal size; in Chinese also dark, large text, and both. Dark and large text change
colours and sizes, not words, so a second language would check the same thing again.

Adding a page: one ``Screen`` in ``SCREENS`` -- a name, the path to open (its
``{placeholders}`` filled from the ``Tables``), and the taps that reach the state,
e.g. ``Screen("rooms-dashboard", "/rooms/{room}/", login=True)``. Data a new page
needs goes into ``make_tables`` (one place, made once for the module: a screen only
looks, and ``_live_server_helper`` holds it to that).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from urllib.parse import urljoin

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django import DjangoDbBlocker
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from scorer.models.money import WECHAT
from scorer.models.players import Player
from scorer.models.rooms import RoomMember, RoomTable
from scorer.services import till
from tests.browser.a11y import MODES, check_all_modes
from tests.factories import DRAW, by_tiles, event, make_table, play, record
from tests.support.browser import PLAYERS, sign_in, use_language
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

# A screen only looks: one phone for the module (tests/browser/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.one_phone]

# MCR: 111m 222m 333m 456p 中中, won on the second 中 (tests/browser/test_table_flow.py).
MCR_TAPS = ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "4p", "5p", "6p", "7z", "7z"]
MCR_HAND = {"concealed": "111222333m456p7z", "win_tile": "7z"}
# 四川: 对对胡 and a 清一色 (tests/scorer/test_scorer_views_record_sichuan.py).
SICHUAN_PUNGS = {"concealed": "111222p333s4455s", "win_tile": "5s"}


@dataclass
class Tables:
    """The tables the screens show, made once for the module (see ``tables``)."""

    mcr: str  # two rounds: a win on tiles, a drawn game
    sichuan: str  # a round in progress: a 暗杠, then a win (血战: the round goes on)
    closed: str  # an MCR table closed: its result page
    player: str  # 张三's player page
    room: str  # the default room's slug: its admin pages
    config: int  # its first configuration (edited once: a history line)
    table: str  # its table 3's code (the QR code's page)
    retired: str  # the code of its table 4, retired
    replaced: str  # the old code of its table 5, replaced by a new one
    member: int  # 张三 as a player of the room, with a topped-up balance (会员储值)

    def fill(self, path: str) -> str:
        return path.format(**self.__dict__)


def make_tables() -> Tables:
    mcr = make_table("mcr", PLAYERS, seated=True)
    play(mcr, [by_tiles(1, 2, MCR_HAND), DRAW])
    sichuan = make_table("sichuan", PLAYERS)
    event(sichuan, {"type": "kong", "player": 1, "kong": "concealed"})
    event(sichuan, {"type": "win", "discarder": 0, "winners": [{"seat": 3, "hand": SICHUAN_PUNGS}]})
    closed = make_table("mcr", ["甲", "乙", "丙", "丁"])
    record(closed, by_tiles(0, None, MCR_HAND))
    closed.close()
    room = mcr.room
    config = room.offered_configs()[0]
    config.params = {**config.params, "base": config.params.get("base", 8) + 2}
    config.save()
    table = RoomTable.objects.create(room=room, number=3)
    GameSession.objects.filter(pk=mcr.pk).update(room_table=table)
    # The owner (signed in by `login`, a made session: no password) retires table 4 and
    # gives table 5 a new code: their old codes' pages, and two lines in the room's log.
    boss = User.objects.create_user("boss", "boss@example.org")
    owner = RoomMember.objects.create(
        room=room, user=boss, role=RoomMember.OWNER, display_name="老板"
    )
    zhang = Player.objects.get(name=PLAYERS[0])
    till.top_up(zhang, Decimal("200"), WECHAT, owner)
    retired, replaced = room.add_tables(4, 2, by=owner)
    retired.retire(by=owner)
    old_code = replaced.code
    replaced.replace_code(by=owner)
    return Tables(
        mcr=mcr.code,
        sichuan=sichuan.code,
        closed=closed.code,
        player=zhang.slug,
        room=room.slug,
        config=config.pk,
        table=table.code,
        retired=retired.code,
        replaced=old_code,
        member=zhang.pk,
    )


def tap(page: Page, value: str) -> None:
    """Tap the record form's button with that tap value and wait for its answer."""
    page.locator(f'button[value="{value}"]').first.click()
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .pk-pending')"
    )


def taps(*values: str) -> Callable[[Page], None]:
    def run(page: Page) -> None:
        for v in values:
            tap(page, v)

    return run


def open_folds(selector: str) -> Callable[[Page], None]:
    """Open every <details> matching ``selector`` (those already open stay open)."""

    def run(page: Page) -> None:
        page.evaluate(
            "(s) => document.querySelectorAll(s).forEach(d => { d.open = true; })", selector
        )
        page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )

    return run


def follow(selector: str) -> Callable[[Page], None]:
    """Tap the link ``selector`` and wait until the page it opens has loaded: a
    click returns before the navigation, and a check run then finds no document."""

    def run(page: Page) -> None:
        link = page.locator(selector)
        target = urljoin(page.url, link.get_attribute("href") or "")
        link.click()
        page.wait_for_url(target)

    return run


def then(*steps: Callable[[Page], None]) -> Callable[[Page], None]:
    def run(page: Page) -> None:
        for step in steps:
            step(page)

    return run


@dataclass(frozen=True)
class Screen:
    """One page in one state: open ``path``, sign in first if ``login``, then ``steps``."""

    name: str
    path: str
    steps: Callable[[Page], None] | None = None
    login: bool = False
    # Text under 14 px allowed on this screen only: CSS selector -> why.
    allow_small: dict[str, str] = field(default_factory=dict)


MCR_TILES = tuple(f"tile:{c}" for c in MCR_TAPS)

SCREENS = [
    Screen("home", "/"),
    # "Your tables" with a table in it: its state, its 隐藏 button.
    Screen("home-tables", "/s/{closed}/", follow(".site-title")),
    Screen("table", "/s/{mcr}/", open_folds(".last-round, .share, .chart-box")),
    Screen("table-sichuan-live", "/s/{sichuan}/"),
    Screen("ledger", "/s/{mcr}/ledger", open_folds(".ledger-round")),
    Screen("ledger-sichuan", "/s/{sichuan}/ledger", open_folds(".ledger-round")),
    Screen("round", "/s/{mcr}/rounds/1/"),
    Screen("adjust", "/s/{mcr}/adjust"),
    Screen("round-sichuan", "/s/{sichuan}/rounds/1/"),
    # A round of events corrected: its steps, and one step on the event form.
    Screen("correct-sichuan", "/s/{sichuan}/rounds/1/edit"),
    Screen("correct-sichuan-step", "/s/{sichuan}/rounds/1/edit?step=1"),
    Screen("result", "/s/{closed}/final"),
    Screen("result-picture", "/s/{mcr}/picture"),
    Screen("player", "/p/{player}/"),
    Screen("not-found", "/s/nosuchtable/"),
    # The record page, MCR: its first screen, a half-tapped hand (held counts, a
    # meld tool on), the whole hand scored, 选番 with picks (one excluding another),
    # a drawn game, the dealer and wind open.
    Screen("record", "/s/{mcr}/record"),
    Screen(
        "record-tapping",
        "/s/{mcr}/record",
        taps("winner:1", "from:self", *MCR_TILES[:7], "tool:pung"),
    ),
    Screen("record-result", "/s/{mcr}/record", taps("winner:1", "from:2", *MCR_TILES)),
    Screen(
        "record-quick",
        "/s/{mcr}/record",
        taps("winner:1", "from:self", "mode:quick", "fan:22:+", "fan:48:+", "fan:75:+"),
    ),
    Screen("record-draw", "/s/{mcr}/record", then(taps("kind:draw"), open_folds(".rec-where"))),
    # 四川 event by event: a kong, a second win (选番), the wall's end with a told hand.
    Screen("record-sichuan", "/s/{sichuan}/record"),
    Screen(
        "record-sichuan-kong",
        "/s/{sichuan}/record",
        taps("kind:kong", "player:0", "kong:exposed", "from:2", "tile:5m"),
    ),
    Screen(
        "record-sichuan-quick",
        "/s/{sichuan}/record",
        taps("winner:2", "from:self", "mode:quick"),
    ),
    Screen(
        "record-sichuan-wall",
        "/s/{sichuan}/record",
        taps("kind:wall_end", "wstatus:ready"),
    ),
    # The room: a table's QR code, the sign-in page and the admins' pages.
    Screen("room-table-qr", "/r/{room}/t/{table}/"),
    Screen("sign-in", "/accounts/login/"),
    Screen("room-day", "/r/{room}/manage/", login=True),
    Screen("room-tables", "/r/{room}/manage/tables/", login=True),
    Screen("room-qr-sheet", "/r/{room}/manage/tables/qr-sheet", login=True),
    Screen("room-configs", "/r/{room}/manage/configs/", login=True),
    Screen("room-config", "/r/{room}/manage/configs/{config}/", login=True),
    Screen("room-config-history", "/r/{room}/manage/configs/{config}/history", login=True),
    Screen("room-players", "/r/{room}/manage/players/", login=True),
    Screen("room-members", "/r/{room}/manage/members/", login=True),
    # A retired table's code, a replaced one; the room's log; a second tap's page.
    Screen("room-table-retired", "/r/{room}/t/{retired}/"),
    Screen("room-table-replaced", "/r/{room}/t/{replaced}/"),
    Screen("room-log", "/r/{room}/manage/log/", login=True),
    Screen("room-retire-confirm", "/r/{room}/manage/tables/3/retire", login=True),
    # The till: the day, a closed table's money, the month's report, the balances and
    # one member's statement; and what a fan means (its example hand in tiles).
    Screen("room-till", "/r/{room}/manage/till/", login=True),
    Screen("room-till-table", "/r/{room}/manage/till/t/{closed}", login=True),
    Screen("room-till-report", "/r/{room}/manage/till/report", login=True),
    Screen("room-balances", "/r/{room}/manage/till/members/", login=True),
    Screen("room-statement", "/r/{room}/manage/till/players/{member}/", login=True),
    Screen("fan-help", "/rules/mcr/fans/48/"),
]


def login(page: Page, live_server: LiveServer) -> None:
    """Signed in as the default room's owner (made with the tables). The sign-in page
    is a screen of its own, and the tests of signing in are test_admin_phone's."""
    sign_in(page, live_server, User.objects.get(username="boss"))


# ----------------------------------------------------------------------------- the data


@pytest.fixture(scope="module")
def tables(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[Tables]:
    """The screens' tables, made once for the module and flushed at its end, as
    pytest-django's ``transactional_db`` flushes after every test elsewhere."""
    with django_db_blocker.unblock():
        made = make_tables()
    yield made
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


# What a screen may change: a phone's session (its language, its drafts, a sign-in)
# and the sign-in's log. Each test starts with none; everything else must stay as made.
PER_PHONE = ("sessions.session", "axes.accesslog", "axes.accessattempt", "axes.accessfailurelog")


def rows() -> dict[str, int]:
    """How many rows each model holds, but for the phones' own (``PER_PHONE``)."""
    return {
        m._meta.label_lower: m._default_manager.count()
        for m in apps.get_models()
        if m._meta.label_lower not in PER_PHONE and not m._meta.proxy
    }


@pytest.fixture(autouse=True)
def _live_server_helper(
    live_server: LiveServer, tables: Tables, django_db_blocker: DjangoDbBlocker
) -> Iterator[None]:
    """This module's stand-in for pytest-django's fixture of the same name: the live
    server, with database access for the test, but without ``transactional_db``,
    whose flush after each test would take the module's tables with it. What a
    screen leaves behind is a phone's session: cleared after each test. Anything
    else it changed fails the test, since the next screens would see it."""
    live_server._live_server_modified_settings.enable()
    with django_db_blocker.unblock():
        before = rows()
        try:
            yield
            assert rows() == before, "a screen changed the module's tables"
        finally:
            for label in PER_PHONE:
                with contextlib.suppress(LookupError):
                    apps.get_model(label)._default_manager.all().delete()
            live_server._live_server_modified_settings.disable()


# ----------------------------------------------------------------------------- the checks


def show(page: Page, live_server: LiveServer, screen: Screen, tables: Tables) -> None:
    if screen.login:
        login(page, live_server)
    page.goto(live_server.url + tables.fill(screen.path))
    if screen.login:  # the page asked for, not the sign-in page it would redirect to
        assert "/accounts/login/" not in page.url, page.url
    if screen.steps:
        screen.steps(page)


# The language a screen is read in, and the colour schemes and text sizes it is
# checked in there (see the module's docstring).
LANGUAGES = {"zh-hans": MODES, "en": [("light", False)]}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_screen_is_accessible(
    page: Page, live_server: LiveServer, tables: Tables, screen: Screen, language: str
) -> None:
    use_language(page, live_server.url, language)
    show(page, live_server, screen, tables)
    failures = check_all_modes(
        page, f"{screen.name} ({language})", screen.allow_small, LANGUAGES[language]
    )
    assert not failures, "\n\n".join(failures)


def test_large_text_is_a_tap_away_and_the_record_page_still_fits(
    page: Page, live_server: LiveServer, tables: Tables
) -> None:
    """The footer's 大字: remembered for the phone, about 1.3x, each suit on two rows
    at 360 px so that every tile is 44 px wide too, no sideways scrolling, touch
    targets still 44 px, and a hand entered in the same taps as at normal size."""
    page.goto(f"{live_server.url}/s/{tables.mcr}/record")
    normal = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    page.locator(".site-foot button").click()
    expect(page.locator("html")).to_have_class("large-text")
    expect(page.locator(".site-foot button")).to_have_attribute("aria-pressed", "true")
    large = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert 1.25 <= large / normal <= 1.35, (normal, large)
    # Another page of the site, later: still large (the cookie, not this page's state).
    page.goto(f"{live_server.url}/s/{tables.mcr}/ledger")
    expect(page.locator("html")).to_have_class("large-text")
    page.goto(f"{live_server.url}/s/{tables.mcr}/record")
    tap(page, "winner:1")
    tap(page, "from:self")
    for value in MCR_TILES[:5]:
        tap(page, value)
    # Each suit on two rows (5 + 4, the honours 4 + 3): every tile 44 px wide and tall.
    first_row = page.locator(".pk-grid-row").first.locator(".pk-tile")
    expect(first_row).to_have_count(9)
    tops = sorted({round(b["y"]) for b in (t.bounding_box() for t in first_row.all()) if b})
    assert len(tops) == 2, f"a suit is not on two rows: {tops}"
    assert_no_horizontal_scroll(page)
    assert_touch_targets(
        page,
        ".rec-seats button, .pk-tools button, .pk-flags button, .pk-confirm, .site-foot button",
    )
    assert_touch_targets(page, ".pk-grid .pk-tile")
    snap(page, "record-large-text")
    # The same hand enters in the same taps, one a tile, as at normal size.
    for value in MCR_TILES[5:]:
        tap(page, value)
    expect(page.locator(".pk-hand-count")).to_contain_text("14")
    expect(page.locator(".pk-confirm")).to_be_enabled()
    # Off again, from the same button.
    page.locator(".site-foot button").click()
    expect(page.locator("html")).not_to_have_class("large-text")


# ----------------------------------------------------------------------------- targets

# Every target a thumb taps: links, buttons, folds, fields.  A picker's tiles have
# their own measure (below); a field's label is tapped with it, not on its own.
TARGETS = (
    "a[href], button, summary, select, textarea,"
    " input:not([type=hidden]):not([type=checkbox]):not([type=radio])"
)
NOT_TARGETS = ".pk-tile, .visually-hidden"
_SCREEN = {s.name: s for s in SCREENS}
TARGET_SCREENS = [
    *(_SCREEN[name] for name in ("record-result", "record-sichuan", "ledger", "ledger-sichuan")),
    Screen("round", "/s/{mcr}/rounds/1/", open_folds(".version")),
    *(_SCREEN[name] for name in ("round-sichuan", "adjust", "table", "table-sichuan-live")),
    *(_SCREEN[name] for name in ("correct-sichuan", "correct-sichuan-step")),
    Screen("settle-up", "/s/{mcr}/final", open_folds(".close-box")),
    Screen("settle-up-closed", "/s/{closed}/final", open_folds(".reopen-box")),
    _SCREEN["result-picture"],
]


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("screen", TARGET_SCREENS, ids=[s.name for s in TARGET_SCREENS])
def test_every_target_is_a_thumb_wide(
    page: Page, live_server: LiveServer, tables: Tables, screen: Screen, large: bool
) -> None:
    """At 360 px, in both text sizes: every target but a tile is at least 44 x 44 CSS
    px (WCAG 2.5.5), the fan links in a round's rows included; the tiles of a picker
    are 44 px tall and as wide as their row allows (picker.css says why)."""
    use_language(page, live_server.url, "zh-hans")
    if large:
        page.context.add_cookies([{"name": "mj_large_text", "value": "1", "url": live_server.url}])
    show(page, live_server, screen, tables)
    if large:
        expect(page.locator("html")).to_have_class("large-text")
    assert_touch_targets(page, f":is({TARGETS}):not({NOT_TARGETS})")
    assert_no_horizontal_scroll(page)
