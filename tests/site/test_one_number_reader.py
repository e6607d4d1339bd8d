"""Every number from outside is read by scorer/clean/parse.py: the source is searched (with
`ast`, nothing imported) for the other ways a number gets read, in scorer/ and
mahjong_site/ (migrations aside).

What it looks for, each a way one field came to read three ways (`²` a 500, `٢٠`
and `2_0` read as 20):

* `str.isdigit()`, `isdecimal()`, `isnumeric()`: true of `²`, `①`, `٢`;
* `int(…)`, `float(…)`, `Decimal(…)` of text from outside: an argument naming the
  request (`request`, `.POST`, `.GET`, `.headers`, `.META`, `.COOKIES`), text by its
  usual names (`raw`, `text`), or made text (`str(…)`, `….strip()`);
* Django's number form fields (`forms.IntegerField`, `DecimalField`, `FloatField`)
  but in scorer/forms/fields.py, whose fields read through parse.py;
* the URL converter `<int:…>` (any run of digits; one past a bigint is a 500 in
  the lookup), where `<num:…>` reads through parse.py;
* a list's page read by Django (`get_page(request.GET…)`), which takes `٣`.

mahjong_site/settings.py reads the operator's environment, which is not a
visitor's text (a wrong value there stops the server, loudly, as it should).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READER = "scorer/clean/parse.py"
EXEMPT = {READER, "scorer/forms/fields.py", "mahjong_site/settings.py"}
OUTSIDE_NAMES = {"request", "raw", "text", "POST", "GET", "headers", "META", "COOKIES"}
DIGIT_TESTS = {"isdigit", "isdecimal", "isnumeric"}
NUMBER_FIELDS = {"IntegerField", "DecimalField", "FloatField"}


def _names_in(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
    return out


def _made_text(node: ast.AST) -> bool:
    """str(…) or ….strip(): text made from a value, then read as a number."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name) and f.id == "str":
                return True
            if isinstance(f, ast.Attribute) and f.attr in ("strip", "lstrip", "rstrip"):
                return True
    return False


def offences(source: str, path: str) -> list[str]:
    """Each way `source` reads a number without scorer/clean/parse.py, as "path:line what"."""
    out: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in DIGIT_TESTS:
                out.append(f"{path}:{node.lineno} .{f.attr}()")
            name = f.id if isinstance(f, ast.Name) else None
            if name in ("int", "float", "Decimal") and node.args:
                arg = node.args[0]
                if _names_in(arg) & OUTSIDE_NAMES or _made_text(arg):
                    out.append(f"{path}:{node.lineno} {name}() of outside text")
            if isinstance(f, ast.Attribute) and f.attr == "get_page" and node.args:
                arg = node.args[0]
                read = isinstance(arg, ast.Call) and getattr(arg.func, "id", "") == "page_number"
                if _names_in(arg) & {"request", "GET"} and not read:
                    out.append(f"{path}:{node.lineno} get_page() of the request")
        forms_field = isinstance(node, ast.Attribute) and node.attr in NUMBER_FIELDS
        if forms_field and getattr(node.value, "id", "") == "forms":
            out.append(f"{path}:{node.lineno} forms.{node.attr}")
        url = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if url and re.search(r"<int:\w+>", node.value):
            out.append(f"{path}:{node.lineno} <int:…> in a URL")
    return out


def project_files() -> list[tuple[str, str]]:
    files = []
    for package in ("scorer", "mahjong_site"):
        for p in sorted((ROOT / package).rglob("*.py")):
            rel = p.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or rel in EXEMPT:
                continue
            files.append((rel, p.read_text(encoding="utf-8")))
    return files


def test_no_number_is_read_but_by_the_one_reader() -> None:
    found = [o for rel, source in project_files() for o in offences(source, rel)]
    assert not found, "numbers read without scorer/clean/parse.py:\n" + "\n".join(found)


def test_the_search_finds_each_way() -> None:
    source = "\n".join(
        [
            "from django import forms",
            "def view(request):",
            "    if request.GET['v'].isdigit():",  # 3
            "        return int(request.GET['v'])",  # 4
            "    hour = float(raw)",  # 5
            "    amount = Decimal(str(value).strip())",  # 6
            "    page = Paginator(rows, 5).get_page(request.GET.get('page'))",  # 7
            "    field = forms.IntegerField()",  # 8
            "    route = path('t/<int:pk>/', view)",  # 9
            "    fine = int(len(rows))",
            "    fine_too = Paginator(rows, 5).get_page(page_number(request.GET.get('page')))",
        ]
    )
    found = offences(source, "x.py")
    lines = sorted({int(o.split(":")[1].split()[0]) for o in found})
    assert lines == [3, 4, 5, 6, 7, 8, 9], found


def test_the_reader_is_where_the_search_says() -> None:
    assert (ROOT / READER).is_file()
    source = (ROOT / READER).read_text(encoding="utf-8")
    assert "def int_or_none" in source and "def money_or_none" in source
