"""The code's import structure, read from its source with `ast` (nothing is imported).

Three rules of the guide's Style section, checked over every module of rules/,
scorer/, mahjong_site/ and benchmarks/ (tests and migrations aside):

* what another module uses is public: no `from x import _name` across modules,
  nor `x._name` off an imported module (`import x as _x`, a private alias of a
  public name, is fine);
* scorer's layers import downward only (SCORER_LAYERS, bottom first), and so do the
  repository's packages (PACKAGE_ORDER: rules, scorer, mahjong_site, benchmarks);
* no import cycles;
* the record flow chooses its form once: no `isinstance(…, EventPick)` in scorer/,
  and no test of a table's `stepwise` in the record flow's code but in the one
  module that chooses the protocol (scorer/entry/protocol.py `pick_for`).

And one rule of the tests' own: no test module (a file named test_*.py) is imported
by another module of tests/; what tests share lives in the support modules
(tests/support/, conftest.py, tests/factories.py, ...).

Every import counts: at module level, inside a function (it runs later, but it
runs) and under `if TYPE_CHECKING:` (a module that names a higher one for its
annotations still depends on it).

Run this file as a script (`python -m tests.site.test_structure`) for the
figures: imports that run upward, cycles, private names imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "scorer", "mahjong_site", "benchmarks")

# scorer's layers, bottom first: a module imports from its own layer or below.
# "pkg.*" is every module under pkg; any other entry is that one module.  A
# module of scorer/ in no layer fails the test: a new module is given its place.
# Each layer is a folder of scorer/, or a few (docs/architecture.md is the map).
SCORER_LAYERS: tuple[tuple[str, ...], ...] = (
    # The ground, no model: the border (clean/: free text's one cleaner, the one number
    # reader, look-alikes, an imported table's schema, spreadsheet cells), the HTTP
    # edge (web/: htmx answers, caching, sign-in, share links, the middleware) and the
    # reader's language.
    ("scorer", "scorer.clean", "scorer.clean.*", "scorer.web", "scorer.web.*", "scorer.language"),
    # The engine's results as the app stores them, the live broker and its streams,
    # the templates' filters.
    (
        "scorer.scoring",
        "scorer.live",
        "scorer.live.*",
        "scorer.templatetags",
        "scorer.templatetags.*",
    ),
    # Money (money/): the fee rules (台费, 计时), the table's clock, settle-up.
    ("scorer.money", "scorer.money.*"),
    # The league's arithmetic (league/), the checks of a stored configuration.
    ("scorer.league", "scorer.league.*", "scorer.config_checks"),
    # The models (scorer/models/), one subject per module, bottom first: the refusals
    # a table's changes answer with and a table's rules (no model), then one kind of
    # row per module; the one lock every change of a table takes (locking); the
    # rounds and their changes never name a session, and scorer.models imports them all so that Django finds
    # them.
    ("scorer.models.errors", "scorer.models.session_rules"),
    ("scorer.models.locking",),
    ("scorer.models.roomlog",),
    ("scorer.models.players",),
    ("scorer.models.tables",),
    ("scorer.models.rooms",),
    ("scorer.models.invites",),
    ("scorer.models.money",),
    ("scorer.models.league",),
    ("scorer.models.results",),
    ("scorer.models.rounds",),
    ("scorer.models.round_changes",),
    ("scorer.models.sessions",),
    ("scorer.models",),
    # What reads and changes the models (scorer/services/): access helpers, the
    # phone's own state, the live streams, the day's report and the till, seating,
    # export, a player's record.
    ("scorer.services", "scorer.services.*"),
    # The words and rows the pages show (scorer/present/): the board, the ledger, the
    # final summary, the events, the room's log.
    ("scorer.present", "scorer.present.*"),
    # The record forms' state machines (scorer/entry/).
    ("scorer.entry", "scorer.entry.*"),
    # The record page (scorer/record/): the picker, the live result, the page's view
    # model over both flows, and what the page reads of the request.
    ("scorer.record", "scorer.record.*"),
    # The forms (scorer/forms/): the start form, a room's forms, the fee fields.
    ("scorer.forms", "scorer.forms.*"),
    ("scorer.views", "scorer.views.*"),
    # The top: routes, the admin site, commands, the app's config and the middleware.
    (
        "scorer.admin",
        "scorer.apps",
        "scorer.management",
        "scorer.management.*",
        "scorer.urls",
    ),
)

# Private names still imported across modules, and import cycles, that are
# known and accepted: none.  A new one fails the test, and so does an entry no
# longer needed (take it out).
PRIVATE_ALLOWED: frozenset[tuple[str, str, str]] = frozenset()
CYCLES_ALLOWED: frozenset[frozenset[str]] = frozenset()


@dataclass(frozen=True)
class Import:
    """One name a module takes from another module of the project."""

    importer: str
    module: str  # the project module imported from
    name: str | None  # the name taken from it (`from m import name`); None: the module itself
    line: int


def dotted_name(root: Path, path: Path) -> str:
    """A module's dotted name from its file (a package's from its __init__.py)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def write_tree(root: Path, files: Mapping[str, str]) -> None:
    """A small tree of modules for the checks to read: {path: text}."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the packages by its dotted name (a package by its __init__)."""
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            out[dotted_name(root, path)] = path
    return out


def _base(importer: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a `from … import` reads from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    parts = importer.split(".")
    if path.name != "__init__.py":
        parts.pop()
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def _project_module(name: str, known: Iterable[str]) -> str | None:
    """The longest project module `name` is or lies in (a.b.c → a.b when c is a name)."""
    known = set(known)
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _dotted(node: ast.expr) -> str | None:
    """ "a.b.c" for the expression a.b.c; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (head := _dotted(node.value)) is not None:
        return f"{head}.{node.attr}"
    return None


def imports(root: Path = ROOT) -> list[Import]:
    """Every import of a project module by another (read once per tree: five checks
    read the same imports)."""
    return list(_read_imports(root))


@cache
def _read_imports(root: Path) -> tuple[Import, ...]:
    """Every import of a project module by another, wherever it stands in the file, and
    every name read off an imported module (`shapes._TABLE` counts as taking _TABLE)."""
    files = module_files(root)
    out: list[Import] = []
    for importer, path in files.items():
        tree = ast.parse(path.read_text(), str(path))
        bound: dict[str, str] = {}  # a name in this file -> the module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _project_module(alias.name, files)
                    if target is not None and target != importer:
                        out.append(Import(importer, target, None, node.lineno))
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:  # `import a.b` binds a
                        top = alias.name.partition(".")[0]
                        bound[top] = top
            elif isinstance(node, ast.ImportFrom):
                base = _base(importer, path, node)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    if full in files:  # a module of a package
                        target, name = full, None
                        bound[alias.asname or alias.name] = full
                    elif base in files:
                        target, name = base, alias.name
                    else:
                        continue
                    if target != importer:
                        out.append(Import(importer, target, name, node.lineno))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or (value := _dotted(node.value)) is None:
                continue
            head, _, rest = value.partition(".")
            if head not in bound:
                continue
            module = ".".join(part for part in (bound[head], rest) if part)
            if module in files and module != importer:
                out.append(Import(importer, module, node.attr, node.lineno))
    return tuple(out)


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(found: Iterable[Import]) -> set[tuple[str, str, str]]:
    """(importer, module, name) for each private name taken from another module."""
    return {(i.importer, i.module, i.name) for i in found if i.name and is_private(i.name)}


def import_cycles(found: Iterable[Import]) -> set[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for i in found:
        graph.setdefault(i.importer, set()).add(i.module)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.add(frozenset(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


@cache
def _layer_index() -> tuple[Mapping[str, int], Sequence[tuple[str, int]]]:
    exact: dict[str, int] = {}
    prefixes: list[tuple[str, int]] = []
    for rank, layer in enumerate(SCORER_LAYERS):
        for entry in layer:
            if entry.endswith(".*"):
                prefixes.append((entry[:-1], rank))
            else:
                exact[entry] = rank
    return exact, sorted(prefixes, key=lambda p: -len(p[0]))


def layer_of(module: str) -> int | None:
    """The rank of a scorer module's layer (0 the bottom); None when it has none."""
    exact, prefixes = _layer_index()
    if module in exact:
        return exact[module]
    return next((rank for prefix, rank in prefixes if module.startswith(prefix)), None)


def upward_imports(found: Iterable[Import]) -> list[Import]:
    """Imports inside scorer/ from a module of a higher layer than the importer's."""
    out = []
    for i in found:
        if not (i.importer.startswith("scorer") and i.module.startswith("scorer")):
            continue
        low, high = layer_of(i.importer), layer_of(i.module)
        if low is not None and high is not None and high > low:
            out.append(i)
    return out


# The repository's packages, bottom first: the engine knows no app, the app no site,
# the site no benchmark.  An import by a lower package of a higher one runs up.
PACKAGE_ORDER: tuple[str, ...] = ("rules", "scorer", "mahjong_site", "benchmarks")


def package_upward_imports(found: Iterable[Import]) -> list[Import]:
    """The imports by a package of one above it in PACKAGE_ORDER."""
    rank = {p: n for n, p in enumerate(PACKAGE_ORDER)}

    def floor(module: str) -> int:
        return rank.get(module.partition(".")[0], -1)

    return [i for i in found if floor(i.module) > floor(i.importer)]


def _where(i: Import) -> str:
    what = f"{i.module}.{i.name}" if i.name else i.module
    return f"{i.importer}:{i.line} imports {what}"


# ---------------------------------------------------------------- the tests' own imports


def suite_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module under tests/ by its dotted name (a package by its __init__)."""
    out: dict[str, Path] = {}
    for path in sorted((root / "tests").rglob("*.py")):
        out[dotted_name(root, path)] = path
    return out


def is_test_module(path: Path) -> bool:
    """A module pytest collects tests from; every other module of tests/ is support."""
    return path.name.startswith("test_")


def imported_test_modules(root: Path = ROOT) -> list[str]:
    """Each import of a test module by another module of tests/: "importer:line imports
    module" (`from tests.a import test_b`, `import tests.a.test_b`, `from .test_b import x`)."""
    files = suite_modules(root)
    out: list[str] = []
    for importer, path in files.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _base(importer, path, node)
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            else:
                continue
            for target in targets:
                module = _project_module(target, files)
                if module and module != importer and is_test_module(files[module]):
                    out.append(f"{importer}:{node.lineno} imports {module}")
    return sorted(set(out))


# ---------------------------------------------------------------- the tests


def test_every_scorer_module_has_a_layer() -> None:
    unplaced = [m for m in module_files() if m.startswith("scorer") and layer_of(m) is None]
    assert not unplaced, f"give these a layer in SCORER_LAYERS: {unplaced}"


def test_scorer_imports_point_down() -> None:
    up = [_where(i) for i in upward_imports(imports())]
    assert not up, "imports that run upward:\n" + "\n".join(up)


def test_no_import_runs_up_between_packages() -> None:
    up = [_where(i) for i in package_upward_imports(imports())]
    assert not up, "imports of a higher package (PACKAGE_ORDER):\n" + "\n".join(up)


def test_no_private_name_crosses_modules() -> None:
    found = private_imports(imports())
    new = sorted(found - PRIVATE_ALLOWED)
    assert not new, "private names imported from another module (make them public):\n" + "\n".join(
        f"{a} imports {b}.{n}" for a, b, n in new
    )
    stale = sorted(PRIVATE_ALLOWED - found)
    assert not stale, f"no longer imported: take these out of PRIVATE_ALLOWED: {stale}"


def test_no_import_cycles() -> None:
    found = import_cycles(imports())
    new = [sorted(c) for c in found - CYCLES_ALLOWED]
    assert not new, f"import cycles: {new}"
    stale = [sorted(c) for c in CYCLES_ALLOWED - found]
    assert not stale, f"no longer a cycle: take these out of CYCLES_ALLOWED: {stale}"


def test_no_test_module_imports_another() -> None:
    found = imported_test_modules()
    assert not found, "move what these share into tests/support/:\n" + "\n".join(found)


# The record flow's one chooser: a round picked whole (`Pick`) or one event of it
# (`EventPick`) is decided here, from the table's ruleset, and nowhere else.
FLOW_CHOOSER = "scorer/entry/protocol.py"
# The record flow's code: the forms' states, the record page, its views, the model's
# changes of rounds and the scoring they go through (and the record page's templates).
FLOW_CODE = (
    "scorer/entry/",
    "scorer/record/",
    "scorer/views/record",
    "scorer/models/round_changes.py",
    "scorer/scoring.py",
    "templates/scorer/record/",
)


def flow_choices(root: Path = ROOT) -> list[str]:
    """Where code asks which record flow it has instead of asking the form: an
    `isinstance(…, EventPick)` anywhere in scorer/, a `stepwise` in the record
    flow's code (Python or template) outside FLOW_CHOOSER."""
    found = []
    for path in sorted((root / "scorer").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance"
                and len(node.args) == 2
                and "EventPick" in ast.unparse(node.args[1])
            ):
                found.append(f"{rel}:{node.lineno} isinstance(…, EventPick)")
            in_flow = rel.startswith(FLOW_CODE) and rel != FLOW_CHOOSER
            if in_flow and isinstance(node, ast.Attribute) and node.attr == "stepwise":
                found.append(f"{rel}:{node.lineno} stepwise")
    for path in sorted((root / "templates").rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(FLOW_CODE):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if "stepwise" in line:
                    found.append(f"{rel}:{n} stepwise")
    return found


def test_the_record_flow_is_chosen_in_one_place() -> None:
    found = flow_choices()
    assert not found, (
        f"the record flow is chosen by {FLOW_CHOOSER} alone (ask the form, "
        "scorer/entry/protocol.py RecordPick):\n" + "\n".join(found)
    )


def test_the_flow_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    files = {
        "scorer/entry/protocol.py": "def pick_for(s):\n    return 1 if s.stepwise else 2\n",
        "scorer/record/page.py": "def f(p):\n    return isinstance(p, (Pick, EventPick))\n",
        "scorer/views/record.py": "def g(session):\n    if session.stepwise:\n        pass\n",
        "scorer/views/api.py": "def h(s):\n    return s.stepwise\n",
        "templates/scorer/record/form.html": "{% if session.stepwise %}{% endif %}\n",
        "templates/scorer/session.html": "{% if stepwise %}{% endif %}\n",
    }
    write_tree(tmp_path, files)
    assert flow_choices(tmp_path) == [
        "scorer/record/page.py:2 isinstance(…, EventPick)",
        "scorer/views/record.py:2 stepwise",
        "templates/scorer/record/form.html:1 stepwise",
    ]


# The checks must see what they look for: a tree with one offender of each kind
# (the tests' rule included).
def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    files = {
        "scorer/__init__.py": "",
        "scorer/language.py": "from scorer.views import helper\n",
        "scorer/views/__init__.py": "def helper(): ...\n",
        "scorer/models/__init__.py": "",
        "scorer/models/sessions.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from scorer.models.rooms import Room\n"
            "from ..fees import _secret\n"
        ),
        "scorer/models/rooms.py": (
            "def f():\n    from scorer.models import sessions\n"
            "import scorer.fees as money\nmoney._secret\n"
        ),
        "scorer/fees.py": "_secret = 1\n",
        "rules/__init__.py": "",
        "rules/a.py": "from rules.b import x as _x\n",
        "rules/b.py": "x = 1\n",
        "rules/c.py": "import scorer.language\n",
        # tests/: test modules imported by a test module, a support module, a function.
        "tests/__init__.py": "",
        "tests/conftest.py": "from tests.support.phone import Phone\n",
        "tests/support/__init__.py": "",
        "tests/support/phone.py": "class Phone: ...\n",
        "tests/a/__init__.py": "",
        "tests/a/test_one.py": "from tests.support.phone import Phone\nX = 1\n",
        "tests/a/test_two.py": "from tests.a.test_one import X\n",
        "tests/a/test_three.py": "def f():\n    from .test_one import X\n",
        "tests/b/__init__.py": "",
        "tests/b/test_four.py": "import tests.a.test_one\nfrom tests.a import test_two\n",
        "tests/b/helpers.py": "from tests.a.test_one import X\n",
    }
    write_tree(tmp_path, files)
    for package in PACKAGES[2:]:
        (tmp_path / package).mkdir()
    found = imports(tmp_path)
    assert sorted(_where(i) for i in upward_imports(found)) == [
        "scorer.language:1 imports scorer.views.helper",
        "scorer.models.rooms:2 imports scorer.models.sessions",
    ]
    assert [_where(i) for i in package_upward_imports(found)] == [
        "rules.c:1 imports scorer.language"
    ]
    assert private_imports(found) == {
        ("scorer.models.rooms", "scorer.fees", "_secret"),
        ("scorer.models.sessions", "scorer.fees", "_secret"),
    }
    assert import_cycles(found) == {frozenset({"scorer.models.sessions", "scorer.models.rooms"})}
    assert imported_test_modules(tmp_path) == [
        "tests.a.test_three:2 imports tests.a.test_one",
        "tests.a.test_two:1 imports tests.a.test_one",
        "tests.b.helpers:1 imports tests.a.test_one",
        "tests.b.test_four:1 imports tests.a.test_one",
        "tests.b.test_four:2 imports tests.a.test_two",
    ]


if __name__ == "__main__":
    everything = imports()
    up = upward_imports(everything)
    cycles = import_cycles(everything)
    private = private_imports(everything)
    print(f"imports that run upward inside scorer/: {len(up)}")
    for i in up:
        print("   ", _where(i))
    across = package_upward_imports(everything)
    print(f"imports of a higher package ({' < '.join(PACKAGE_ORDER)}): {len(across)}")
    for i in across:
        print("   ", _where(i))
    print(f"import cycles: {len(cycles)}")
    for c in sorted(sorted(c) for c in cycles):
        print("   ", " <-> ".join(c))
    files = {importer for importer, _, _ in private}
    print(f"private names imported across modules: {len(private)} in {len(files)} files")
    for a, b, n in sorted(private):
        print(f"    {a} imports {b}.{n}")
    imported = imported_test_modules()
    print(f"test modules imported by another module of tests/: {len(imported)}")
    for line in imported:
        print("   ", line)
