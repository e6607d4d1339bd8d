"""Real-browser tests: Playwright (sync API) driving Debian's Chromium against
pytest-django's ``live_server``.

How it fits together
--------------------
* **Chromium.** Never Playwright's own download (``playwright install`` is not
  needed and cannot reach its server here): we launch the system browser via
  ``executable_path`` -- ``$CHROMIUM`` if set, else ``/usr/bin/chromium``, else
  ``chromium`` on ``PATH``. Install it with ``apt-get install chromium``.
* **Skipping.** Without a Chromium, or with ``SKIP_BROWSER_TESTS=1``, every test
  marked ``browser`` (the marker is registered in pyproject.toml) is skipped and
  the reason is printed once at the end of the run. Mark browser tests with
  ``pytestmark = pytest.mark.browser`` (a test using ``page``/``second_page``/
  ``browser`` gets the marker anyway).
* **The server.** Use pytest-django's ``live_server`` fixture (a real HTTP
  server in a thread of this process). It pulls in ``transactional_db`` by
  itself: the server thread must see the rows a test creates, so the test
  cannot sit inside a rolled-back transaction; the tables are flushed after
  each test instead. Static files (CSS, ``{% htmx_script %}``) are served by
  the live server's ``StaticFilesHandler`` straight from the staticfiles
  finders -- no ``collectstatic`` needed.
* **The asyncio catch.** Playwright's sync API keeps an asyncio loop *running*
  in the main thread for as long as it is started, and Django refuses ORM calls
  from a thread with a running loop (``SynchronousOnlyOperation``). So:
  browser tests are moved to the end of the run (no other test ever runs next
  to a live Playwright), and while Playwright is up ``DJANGO_ALLOW_ASYNC_UNSAFE``
  is set so the test code and pytest-django's flush/teardown may use the
  database. The live server thread has no loop and is unaffected.
* **Pages.** ``page`` / ``second_page`` are fresh, independent browser contexts
  (own cookies, own session) emulating a 360x740 phone, zh-CN, touch. When a
  test fails, each of its pages is saved as ``<test>-<page>-FAILED.png``.
* **CSP.** Every page is served with the site's Content-Security-Policy
  (django-csp: scripts and styles from the site only, nothing inline); a
  violation reported on a page's console fails the test that opened it.
* **Helpers** (tests/support/layout.py): ``snap`` saves full-page screenshots
  under ``test-artifacts/screenshots/`` (git-ignored); ``assert_no_horizontal_scroll``
  and ``assert_touch_targets`` check the phone layout; tests/support/browser.py holds
  the flows' preamble (players, taps, totals).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
import weakref
from collections.abc import Generator, Iterator
from typing import Any

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread
from django.urls import get_resolver
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright
from pytest_django.live_server_helper import LiveServer

from tests.browser.order import flows_then_looks
from tests.support.browser import use_language
from tests.support.layout import snap

NO_CHROMIUM = (
    "browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM=/path)"
)
SKIP_REQUESTED = "browser tests skipped: SKIP_BROWSER_TESTS=1 is set"

# Known to work on a closed network: without the background-networking flags
# Chromium keeps dialling Google's services and gets refused.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",  # containers often have a tiny /dev/shm
]

# The browser's own address-bar popup, a web page of its own that a headless browser
# preloads and never shows (chrome://omnibox-popup.top-chrome/): it took a fifth of the
# browser tests' CPU (test_table_flow and test_house_flow in one process: 55-61 CPU-s
# with it, 46 without; docs/performance.md). Turned off beside the features
# Playwright's own switches turn off (``disabled_features``).
OUR_DISABLED_FEATURES = [
    "PreloadTopChromeWebUI",
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
    "WebUIOmniboxFullPopup",
]

# A mid-range Android phone: 360x740 CSS pixels at 2x.
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "zh-CN",
}

# Each Playwright action and `expect` assertion waits at most this long (Playwright's
# defaults: 30 s and 5 s). A page on localhost answers in well under a second, but CI
# shares two cores with other work: a tap's answer once took over 5 s under a load of
# 4, and the test failed with nothing wrong. A real fault still fails, 15 s later.
TIMEOUT_MS = 15_000
expect.set_options(timeout=TIMEOUT_MS)

# Tests that use these fixtures count as browser tests even if unmarked.
BROWSER_FIXTURES = {"_playwright", "browser", "page", "second_page"}

_skip_key = pytest.StashKey[str]()
_call_failed_key = pytest.StashKey[bool]()


def find_chromium() -> str | None:
    """The Chromium executable to drive, or None when there is none."""
    explicit = os.environ.get("CHROMIUM", "").strip()
    # An explicit $CHROMIUM is the only candidate: a typo must not fall back silently.
    candidates = [explicit] if explicit else ["/usr/bin/chromium", shutil.which("chromium")]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _skip_reason() -> str | None:
    if os.environ.get("SKIP_BROWSER_TESTS", "").strip().lower() in {"1", "true", "yes", "on"}:
        return SKIP_REQUESTED
    if find_chromium() is None:
        return NO_CHROMIUM
    return None


# --------------------------------------------------------------------------- hooks


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
    browser_items = [item for item in items if item.get_closest_marker("browser")]
    if not browser_items:
        return
    reason = _skip_reason()
    if reason:
        config.stash[_skip_key] = reason
        for item in browser_items:
            item.add_marker(pytest.mark.skip(reason=reason))
        return
    # Run them last: Playwright's running asyncio loop (see the module docstring)
    # must never overlap a non-browser test.
    others = [item for item in items if not item.get_closest_marker("browser")]
    items[:] = others + flows_then_looks(browser_items)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    reason = config.stash.get(_skip_key, None)
    if reason:
        terminalreporter.write_line(reason, yellow=True, bold=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    # Remember whether the test body failed, for the page fixtures' teardown.
    report = yield
    if report.when == "call":
        item.stash[_call_failed_key] = report.failed
    return report


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def _playwright(django_db_setup: None) -> Iterator[Playwright]:
    """Playwright's sync API, started once per run.

    Depends on ``django_db_setup`` so the test database is torn down only after
    Playwright (and its running asyncio loop) has stopped.
    """
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    pw = sync_playwright().start()
    try:
        yield pw
    finally:
        pw.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def browser(_playwright: Playwright) -> Iterator[Browser]:
    """One headless Chromium for the whole run (the system one, see find_chromium).

    The site's views are imported first, here: a run of browser tests alone had the
    live server's first request import them (pypinyin's dictionary among them), and
    on a loaded machine that took longer than a page may (TIMEOUT_MS)."""
    get_resolver().url_patterns  # noqa: B018 (imports the URLconf and every view)
    executable = find_chromium()
    if executable is None:  # the collection hook skips first; this is a safety net
        pytest.skip(NO_CHROMIUM)
    features = disabled_features(_playwright, executable)
    browser = _playwright.chromium.launch(
        executable_path=executable,
        headless=True,
        args=[*CHROMIUM_ARGS, "--disable-features=" + ",".join(features)],
    )
    try:
        yield browser
    finally:
        browser.close()


def disabled_features(pw: Playwright, executable: str) -> list[str]:
    """The features the browser runs without: Playwright's and ``OUR_DISABLED_FEATURES``.

    Chromium keeps only the last ``--disable-features`` it is given, and Playwright
    gives its own first (features that get in a test's way: paint holding, HTTPS
    upgrades, third-party storage partitioning...): a list of ours alone would turn
    those back on. Playwright's list is not public, so it is read off a probe browser,
    whose command line the DevTools protocol returns
    (only when it runs with ``--enable-automation``; Playwright puts its switches
    before the caller's, whatever they are): about half a second a worker."""
    probe = pw.chromium.launch(
        executable_path=executable, headless=True, args=[*CHROMIUM_ARGS, "--enable-automation"]
    )
    try:
        argv = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
    finally:
        probe.close()
    theirs = [
        feature
        for arg in argv
        if arg.startswith("--disable-features=")
        for feature in arg.split("=", 1)[1].split(",")
        if feature
    ]
    return list(dict.fromkeys([*theirs, *OUR_DISABLED_FEATURES]))


CSP_DETAIL = "CSP violation detail:"
CSP_LISTENER = (
    "document.addEventListener('securitypolicyviolation', function (e) {"
    " var t = e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 160) : String(e.target);"
    " console.log('" + CSP_DETAIL + " ' + JSON.stringify({directive: e.violatedDirective,"
    " source: e.sourceFile, line: e.lineNumber, column: e.columnNumber, sample: e.sample,"
    " target: t, page: location.pathname}));"
    "}, true);"
)


def _open_phone(browser: Browser) -> tuple[Page, list[str]]:
    """A page in a fresh context on the phone (``PHONE``), and the list its
    Content-Security-Policy violations are written to (see ``_end_of_test``)."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    page = context.new_page()
    # Content-Security-Policy violations (an inline script or style, a foreign source)
    # are failures: Chromium reports each one on the console.
    violations: list[str] = []
    page.on(
        "console",
        lambda m: (
            violations.append(m.text)
            if "Content Security Policy" in m.text or m.text.startswith(CSP_DETAIL)
            else None
        ),
    )
    # Chromium's console line names the directive but not the element or the script
    # behind it; the page's own securitypolicyviolation event does, so a failure says
    # which element and which line of which file applied the inline style or script.
    page.add_init_script(CSP_LISTENER)
    return page, violations


def _end_of_test(
    page: Page, violations: list[str], request: pytest.FixtureRequest, name: str
) -> None:
    """A test's end on a phone: its Content-Security-Policy violations fail it, and a
    failed test keeps what the phone showed (screenshots/<test>-<name>-FAILED.png)."""
    try:
        if violations:  # the page's own events follow Chromium's console line: wait for them
            page.wait_for_timeout(300)
        assert not violations, f"{name}: Content-Security-Policy violations: {violations[:8]}"
    finally:
        if request.node.stash.get(_call_failed_key, False):
            try:
                snap(page, f"{name}-FAILED")
            except Exception as exc:  # a crashed page must not hide the real failure
                print(f"(no failure screenshot for {name}: {exc})")


def _phone(browser: Browser, request: pytest.FixtureRequest, name: str) -> Iterator[Page]:
    page, violations = _open_phone(browser)
    try:
        yield page
        _end_of_test(page, violations, request, name)
    finally:
        page.context.close()
        _wait_for_request_threads()


class _LiveServer(ThreadedWSGIServer):
    """The live server, knowing the connections it holds open.

    Django's test server keeps HTTP/1.1 connections alive, one thread each, and
    Chromium keeps a closed context's idle sockets open for a while: the thread then
    waits in ``readline()`` for a request that never comes, and a teardown that
    waited for it spent its whole 5 s (``end_connections`` ends them at once).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.held: set[socket.socket] = set()
        self.held_lock = threading.Lock()
        _SERVERS.add(self)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.held_lock:
            self.held.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.held_lock:
            self.held.discard(request)
        super().shutdown_request(request)

    def end_connections(self) -> None:
        """No more requests on any open connection: a thread waiting for the next one
        reads the end of the stream and finishes; one answering a request still
        answers it (its reading is done) and then finishes."""
        with self.held_lock:
            held = list(self.held)
        for sock in held:
            with contextlib.suppress(OSError):  # closed meanwhile
                sock.shutdown(socket.SHUT_RD)


_SERVERS: weakref.WeakSet[_LiveServer] = weakref.WeakSet()
# pytest-django's live_server starts Django's LiveServerThread, which makes its server
# from this attribute.
LiveServerThread.server_class = _LiveServer


def _wait_for_request_threads(timeout: float = 5.0) -> None:
    """Let the live server finish the requests the closed page left in flight.

    Each request runs in its own daemon thread; one still closing its database
    connection while the next test flushes the tables (or after the server has
    stopped sharing the in-memory SQLite connection) raised "DatabaseWrapper
    objects created in a thread can only be used in that same thread". The
    connections the page kept alive are ended first, so only a request really in
    flight is waited for.
    """
    for server in list(_SERVERS):
        server.end_connections()
    deadline = time.monotonic() + timeout
    for t in threading.enumerate():
        if t is not threading.current_thread() and "process_request_thread" in t.name:
            t.join(max(0.0, deadline - time.monotonic()))


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page in a fresh context (own cookies and storage) on a 360x740 zh-CN phone;
    in a module marked ``one_phone``, the module's one phone (``_shared_page``)."""
    if request.node.get_closest_marker("one_phone"):
        yield from _shared_page(request)
    else:
        yield from _phone(browser, request, "page")


@pytest.fixture
def page_errors(page: Page) -> list[str]:
    """The uncaught script errors of ``page`` from the test's start (its "pageerror"
    events): a flow ends asserting there were none."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@pytest.fixture(params=["zh-hans", "en"])
def language(request: pytest.FixtureRequest, page: Page, live_server: LiveServer) -> str:
    """Each language the site speaks: the test runs once in each, its phone set to it
    before the test's first page (as the language switch leaves it)."""
    use_language(page, live_server.url, request.param)
    language: str = request.param
    return language


@pytest.fixture(scope="module")
def _module_phone(browser: Browser) -> Iterator[tuple[Page, list[str]]]:
    page, violations = _open_phone(browser)
    try:
        yield page, violations
    finally:
        page.context.close()
        _wait_for_request_threads()


def _shared_page(request: pytest.FixtureRequest) -> Iterator[Page]:
    """The page of a module marked ``one_phone``: one phone for all its tests, each
    starting with no cookies, no storage and the light theme.

    A fresh context per test cost each one a new renderer process and a first load
    of every script and style sheet (0.5-1 s on a loaded 2-core machine), and
    axe-core compiled again (0.3-0.5 s): in one page it stays compiled. A module
    whose tests change what a phone keeps beyond cookies and the site's storage (a
    viewport, a network condition, a route) is not marked: each test gets a fresh
    phone."""
    page, violations = request.getfixturevalue("_module_phone")
    live_server: LiveServer = request.getfixturevalue("live_server")
    violations.clear()
    page.context.clear_cookies()
    page.emulate_media(color_scheme="light")
    try:
        yield page
        _end_of_test(page, violations, request, "page")
    finally:
        if page.url.startswith(live_server.url):
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        # Nothing of this test's page may go on asking the server (a poll, a stream).
        page.goto("about:blank")
        _wait_for_request_threads()


@pytest.fixture
def second_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A second, independent phone (its own context) for multi-player tests."""
    yield from _phone(browser, request, "second_page")
