"""Strict JSON in: what the HTTP API and the command line accept as a situation or a round.

Python's json module is lenient where JSON is not (RFC 8259): it reads NaN,
Infinity and numbers too big for a float (1e400 -> inf), and "\\ud800" gives a
string with a lone surrogate, which has no UTF-8 form.  Accepted, such a value
is echoed (`id`) into an answer that strict parsers reject, or breaks the
encoding of the answer itself.  Here each of them is `bad_input`.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from rules.errors import RuleError

_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_constant(name: str) -> Any:
    raise RuleError(
        "bad_input",
        f"{name} is not a JSON number: give a finite number",
        f"{name} 不是有效的 JSON 数字：请填有限的数",
    )


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RuleError(
            "bad_input",
            f"the number {text[:20]} is too large",
            f"数字 {text[:20]} 太大",
        )
    return value


def loads(data: bytes | str) -> Any:
    """Parse one JSON document strictly; RuleError `bad_input` on anything else.

    Bytes are read as UTF-8 (UTF-16/32 with their marks, as json.loads does) and
    an undecodable byte is an error, not a surrogate carried along."""
    try:
        text = data if isinstance(data, str) else data.decode(json.detect_encoding(data))
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, absurd nesting
        raise RuleError(
            "bad_input", "the body is not valid JSON", "请求内容不是有效的 JSON"
        ) from None
    if _has_surrogate(value):
        raise RuleError(
            "bad_input",
            "the text holds a lone surrogate (\\ud800-\\udfff): not a character",
            "内容里有单独的代理码位（\\ud800-\\udfff），不是有效字符",
        )
    return value


def _has_surrogate(value: Any) -> bool:
    """Any string (key or value) with a lone surrogate; pairs were joined by the parser."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                return True
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False
