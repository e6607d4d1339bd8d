"""The suite's shared fixtures: the factories of tests/factories.py as fixtures, and
what every test runs under.

* **Passwords hash fast.** Django's PBKDF2 costs about half a second per hash, paid
  at every ``create_user`` and every sign-in; the suite tests who may do what, not
  the hash, so it hashes with MD5 (the test settings only: ``mahjong_site.settings``
  keeps Django's defaults for every real deployment).
* **Factories** (tests/factories.py): ``room`` (a room of its own) with ``boss``
  (its owner, signed in) and ``admin`` (an admin, signed in); ``table`` (an MCR table
  of four in the default room). A module that needs another shape defines its own
  fixture of the same name, which wins over these.
* **``--database-tests``** keeps only the tests that reach the database, less the
  browser tests: what a run on a second database can find that the first could not.
  A test without the ``db`` fixture or the ``django_db`` mark cannot open a
  connection (pytest-django refuses it), so its outcome does not depend on the
  database; the browser tests drive the same views the others test on both. CI
  (.ci/run) runs the whole suite on SQLite and this part again on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings
from django.utils import translation

from scorer.models import GameSession
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from tests.factories import EVENING, make_room, make_table, member_client

DATABASE_FIXTURES = {"db", "transactional_db"}


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Each test starts in the site's language.  A Django test client's request runs in
    the test's own thread, where LocaleMiddleware activates the reader's language and
    leaves it: a test that asked in English left English to the next test of that
    process, and a label it worked out ("Table 3") no longer matched the Chinese page
    (test_room_evening, by the order xdist gave it)."""
    translation.activate(settings.LANGUAGE_CODE)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-tests",
        action="store_true",
        help="only the tests that reach the database, less the browser tests "
        "(a second database's run: see tests/conftest.py)",
    )


def reaches_the_database(item: pytest.Item) -> bool:
    """Whether pytest-django lets ``item`` open a database connection."""
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(DATABASE_FIXTURES & fixtures)


@pytest.hookimpl(trylast=True)  # after tests/browser/conftest.py has marked the browser tests
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--database-tests"):
        return
    keep = [i for i in items if reaches_the_database(i) and not i.get_closest_marker("browser")]
    kept = set(keep)
    config.hook.pytest_deselected(items=[i for i in items if i not in kept])
    items[:] = keep


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def fast_password_hasher() -> Iterator[None]:
    """MD5 for the whole run (override_settings clears Django's cached hashers)."""
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture
def room(db: None) -> Room:
    """老李棋牌室 (slug ``laoli``), open with its preset configurations."""
    return make_room("laoli", "老李棋牌室")


@pytest.fixture
def boss(room: Room) -> Client:
    """The room's owner, signed in on his phone."""
    return member_client(room, "boss", RoomMember.OWNER, "老板")


@pytest.fixture
def admin(room: Room) -> Client:
    """An admin of the room (not its owner), signed in on her phone."""
    return member_client(room, "xiaomei", RoomMember.ADMIN, "小美")


@pytest.fixture
def table(db: None) -> GameSession:
    """An MCR table of four (tests/factories.NAMES) in the default room."""
    return make_table("mcr")


@pytest.fixture
def till_evening() -> Iterator[object]:
    """The till's clock (scorer/money/clock.py) at EVENING, back to the real time after."""
    with clock.frozen(EVENING):
        yield clock.now()
