"""Parsing JSON that a client sent: strict, bounded, and never a server error.

`json.loads` accepts things that later break the server far from the parser:
nesting deep enough to exhaust the recursion limit (RecursionError, here or in
whatever walks the value next), integers too long for `int()` (ValueError
about `sys.set_int_max_str_digits`), `NaN`/`Infinity` (not JSON; they come back
out as invalid JSON), and `"\\ud800"` escapes that decode to lone surrogates
(UnicodeEncodeError as soon as the text is hashed or stored).  `loads` refuses
all of these up front with `RefusedJSON`, a ValueError whose message says what
was wrong, so the HTTP layer answers 400 and nothing downstream sees them.

The limits (I-JSON, RFC 7493, plus bounds this API never needs to exceed):
    MAX_DEPTH       64 nested arrays/objects
    MAX_INT_DIGITS  40 digits in an integer (2**128 has 39)
    numbers finite, no NaN or Infinity; strings valid Unicode (no lone surrogates)
"""
from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 64
MAX_INT_DIGITS = 40

_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class RefusedJSON(ValueError):
    """Text that is not JSON, or JSON outside the limits above."""


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in `text`, without parsing it (no recursion)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise RefusedJSON(f"an integer has {len(digits.lstrip('-'))} digits; at most {MAX_INT_DIGITS} are accepted")
    return int(digits)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RefusedJSON(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is out of range")
    return value


def _refuse_constant(name: str):
    raise RefusedJSON(f"{name} is not JSON: numbers must be finite")


_LONG_DIGITS = re.compile(r"\d{%d}" % (MAX_INT_DIGITS + 1))
_DECODER = json.JSONDecoder(parse_float=_parse_float, parse_constant=_refuse_constant)
_CHECKING_INTS = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant)


def _has_lone_surrogate(value: Any) -> bool:
    # Encoding the whole value is the one complete check (keys, nested strings) and runs in C.
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


# every ASCII digit a "0", anything else a space: a run of digits becomes a run of "0"
_DIGIT_RUNS = bytes(0x30 if 0x30 <= c <= 0x39 else 0x20 for c in range(256))
_TOO_MANY_DIGITS = b"0" * (MAX_INT_DIGITS + 1)


def vouch(text: str) -> bool:
    """Whether nothing in `text` needs the two checks that scan it: no run of over MAX_INT_DIGITS
    digits (JSON numbers are ASCII) and no surrogate escape.  Checked once for a whole file, it lets
    `loads(part, vouched=True)` skip both scans in each of its lines (a history's thousands)."""
    if _SURROGATE_ESCAPE.search(text):
        return False
    runs = text.encode("utf-8", "surrogatepass").translate(_DIGIT_RUNS)  # C speed, unlike a regex
    return _TOO_MANY_DIGITS not in runs


def loads(text: str | bytes, vouched: bool = False) -> Any:
    """Parse `text` (UTF-8 when bytes); RefusedJSON says why when it is not acceptable JSON.
    `vouched`: `text` is part of a text `vouch` accepted."""
    if vouched and type(text) is str and text.count("[") + text.count("{") <= MAX_DEPTH:
        # no scan can refuse it: one C decode, and anything unusual (an error, whitespace, a BOM)
        # takes the full path below, which gives the same value or the same refusal
        try:
            value, end = _DECODER.raw_decode(text)
            if end == len(text):
                return value
        except ValueError:
            pass
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise RefusedJSON(f"the body is not UTF-8 (byte {error.start})") from None
    # Fast paths, for the thousands of lines of a history: text with no more brackets than the
    # depth allowed cannot nest deeper, and text without 41 digits in a row holds no integer too long
    # (C's int then reads them).  Anything else takes the full checks.
    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth = nesting_depth(text)
        if depth > MAX_DEPTH:
            raise RefusedJSON(f"arrays and objects nest {depth} deep; at most {MAX_DEPTH} levels are accepted")
    decoder = _CHECKING_INTS if _LONG_DIGITS.search(text) else _DECODER
    try:
        if text.startswith("\ufeff"):  # as json.loads refuses it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        value = decoder.decode(text)
    except RefusedJSON:
        raise
    except json.JSONDecodeError as error:
        raise RefusedJSON(f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    except (ValueError, RecursionError) as error:  # belt and braces: the checks above should catch both
        raise RefusedJSON(f"not acceptable JSON: {error}") from None
    if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(value):
        raise RefusedJSON("a string holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape without its pair): "
                          "strings must be valid Unicode")
    return value
