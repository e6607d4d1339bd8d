"""The order the browser tests run in (tests/browser/conftest.py's collection hook,
after every other test): xdist hands tests to its workers in collection order."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar


class Collected(Protocol):
    """What the ordering reads of a collected test (a ``pytest.Item`` is one)."""

    @property
    def nodeid(self) -> str: ...

    def get_closest_marker(self, name: str) -> Any: ...


Item = TypeVar("Item", bound=Collected)


def module_of(item: Collected) -> str:
    """The test file a test is in, as its node id names it."""
    return item.nodeid.split("::")[0]


def flows_then_looks(browser_items: list[Item]) -> list[Item]:
    """The browser tests in the order the workers take them: first those on fresh
    phones (the flows, up to 25 s each, and a few short checks), then the modules
    marked ``one_phone``, whose tests are short (1-6 s) and, parametrized, many; the
    module with the most tests at the very end.

    When a long flow came last (the weak network's, the 四川 round's: they sort late
    by name), one worker ran it alone while the other had finished: about half a
    minute of the run on one core. Short tests last let the two workers finish
    together. A module's tests stay together, so each worker builds a module's phone
    and tables once."""
    flows = [item for item in browser_items if not item.get_closest_marker("one_phone")]
    by_module: dict[str, list[Item]] = {}
    for item in browser_items:
        if item.get_closest_marker("one_phone"):
            by_module.setdefault(module_of(item), []).append(item)
    looks = sorted(by_module.values(), key=len)  # stable: equal counts keep their order
    return flows + [item for module in looks for item in module]
