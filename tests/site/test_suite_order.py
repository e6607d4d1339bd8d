"""The order the suite runs its tests in (tests/browser/order.py, applied by
tests/browser/conftest.py's collection hook): the browser tests after all others, and
among them the flows first and the modules that share one phone last, the one with the
most tests at the very end, each module's tests together. xdist hands tests out in this order, so the two workers end on short tests
and finish together."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.browser.order import flows_then_looks, module_of


@dataclass
class Item:
    """What the ordering reads of a collected test: its node id and its marks."""

    nodeid: str
    marks: tuple[str, ...] = ()

    def get_closest_marker(self, name: str) -> object | None:
        """The mark's name when the test carries it (pytest gives the mark itself)."""
        return name if name in self.marks else None


def test_flows_first_then_the_shared_phone_modules_smallest_first() -> None:
    """Flows keep their order; shared-phone modules follow whole, by how many tests."""
    flow = ("browser",)
    shared = ("browser", "one_phone")
    items = [
        Item("tests/browser/test_a11y.py::a1", shared),
        Item("tests/browser/test_a11y.py::a2", shared),
        Item("tests/browser/test_a11y.py::a3", shared),
        Item("tests/browser/test_flow.py::f1", flow),
        Item("tests/browser/test_long.py::l1", shared),
        Item("tests/browser/test_long.py::l2", shared),
        Item("tests/browser/test_weak.py::w1", flow),
        Item("tests/browser/test_badge.py::b1", shared),
    ]
    order = [i.nodeid.split("::")[1] for i in flows_then_looks(items)]
    assert order == ["f1", "w1", "b1", "l1", "l2", "a1", "a2", "a3"]


def test_this_run_has_the_browser_tests_last_and_a_shared_phone_module_at_the_end(
    request: pytest.FixtureRequest,
) -> None:
    """The order this very run took (each xdist worker holds the whole collection):
    the rule is applied, not only right on paper."""
    items = request.session.items
    browser = [i.get_closest_marker("browser") is not None for i in items]
    skipped = [
        i.get_closest_marker("skip") is not None for i, b in zip(items, browser, strict=True) if b
    ]
    if not any(browser) or any(skipped):
        pytest.skip("this run has no browser tests to order (or skips them)")
    first = browser.index(True)
    assert all(browser[first:]), "a test that is not a browser test runs among them"
    shared = [i.get_closest_marker("one_phone") is not None for i in items[first:]]
    if any(shared):
        start = shared.index(True)
        assert all(shared[start:]), "a flow runs among the shared-phone modules"
        modules = [module_of(i) for i in items[first + start :]]
        runs = [m for k, m in enumerate(modules) if k == 0 or modules[k - 1] != m]
        assert len(runs) == len(set(runs)), f"a module's tests are split: {runs}"
