"""One way to change a row and one way to answer a page or its part, read from the
source (docs/architecture.md, "The one locking rule" and "The htmx answers"):

* no select_for_update() outside the lock helper, scorer/models/locking.py: every
  row lock is taken by `lock_objects`, in its one order;
* no module under scorer/views/ opens a transaction: a change is a model method or
  a service, which takes its locks itself;
* no view writes "the partial if htmx, else the page" by hand: `page_or_partial`
  (scorer/web/htmx_answers.py) says it once, for the views and the record page's
  answers (scorer/record/request.py) alike.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCORER = ROOT / "scorer"
LOCK_HELPER = SCORER / "models" / "locking.py"
TRANSACTION = "django.db.transaction"


def modules(under: Path) -> list[Path]:
    return sorted(p for p in under.rglob("*.py") if "migrations" not in p.parts)


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


def test_no_row_lock_outside_the_lock_helper() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in modules(SCORER)
        if path != LOCK_HELPER
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.Attribute) and node.attr == "select_for_update"
    ]
    assert not found, f"lock rows with lock_objects (scorer/models/locking.py): {found}"


def test_the_lock_helper_is_found_by_the_walk() -> None:
    """The walk above can fail: the helper itself calls select_for_update."""
    assert any(
        isinstance(n, ast.Attribute) and n.attr == "select_for_update"
        for n in ast.walk(parsed(LOCK_HELPER))
    )


def opens_a_transaction(tree: ast.Module) -> list[int]:
    """The lines that reach transaction.atomic (or import what does)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in {"atomic", "non_atomic_requests"}:
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module in {"django.db", TRANSACTION}:
            lines += [node.lineno for a in node.names if a.name in {"transaction", "atomic"}]
    return lines


def test_no_view_opens_a_transaction() -> None:
    found = {
        str(path.relative_to(ROOT)): lines
        for path in modules(SCORER / "views")
        if (lines := opens_a_transaction(parsed(path)))
    }
    assert not found, f"a change belongs in a model method or a service: {found}"


def reads_htmx(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "htmx" for n in ast.walk(node))


def templates_named(node: ast.AST) -> set[str]:
    return {
        n.value
        for n in ast.walk(node)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and n.value.endswith(".html")
        or isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and ".html#" in n.value
    }


def page_or_partial_by_hand(fn: ast.FunctionDef) -> bool:
    """A function that reads request.htmx and names both a page and a partial of a
    page ("x.html" and "….html#name"): the choice the helper makes, made by hand."""
    if not reads_htmx(fn):
        return False
    names = templates_named(fn)
    return any("#" in n for n in names) and any("#" not in n for n in names)


def test_no_view_writes_the_page_or_partial_by_hand() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {fn.name}"
        for folder in ("views", "record")
        for path in modules(SCORER / folder)
        for fn in ast.walk(parsed(path))
        if isinstance(fn, ast.FunctionDef) and page_or_partial_by_hand(fn)
    ]
    assert not found, f"answer with scorer.web.htmx_answers.page_or_partial: {found}"


def test_the_walk_finds_a_page_or_partial_written_by_hand() -> None:
    """The walk above can fail: the answer as the record page wrote it before."""
    by_hand = ast.parse(
        "def render_form(request, page):\n"
        '    template = "scorer/record/form.html#form" if request.htmx else "scorer/record/page.html"\n'
        "    return render(request, template, page.context())\n"
    )
    fn = by_hand.body[0]
    assert isinstance(fn, ast.FunctionDef) and page_or_partial_by_hand(fn)
