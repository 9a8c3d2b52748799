"""parse_history's fast path (strictjson.vouch once per file, then one C decode per line) accepts
and refuses exactly what strictjson.loads line by line does, with the same messages."""
from __future__ import annotations

import pytest

from events import strictjson
from events.history import parse_history

ORDINARY = '{"version":1,"type":"DieRolled","data":{"die":4,"who":"seat:0"}}'
ODD_LINES = [
    '{"n":' + "9" * 40 + "}",                 # the longest integer accepted
    '{"n":-' + "9" * 41 + "}",                # one digit too many: refused
    '{"s":"' + "7" * 60 + '"}',               # a long run of digits in a string: text, accepted
    '{"s":"\\ud83d\\ude00"}',                 # a surrogate pair: accepted
    '{"s":"\\ud800"}',                        # a lone surrogate: refused
    '\ufeff{"a":1}',                          # a BOM: refused as json.loads does
    '  {"a":1}  ',                            # whitespace around: accepted
    '{"a":1} x',                              # trailing text: refused
    '{"a":NaN}', '{"a":1e999}', '{"a":1.5}',  # not finite: refused; finite: accepted
    '{"a":' + "[" * 64 + "]" * 64 + "}",      # 65 levels: refused
    '{"a":' + "[" * 63 + "]" * 63 + "}",      # 64: accepted
    "[1,2]",                                  # JSON, not an object
    '{"a":' + "\u0663" * 50 + "}",            # non-ASCII digits are not a number
    '{"a":"[[[[{{{{"}',                        # brackets in a string
]


def line_by_line(text: str) -> list[dict] | str:
    """The reference: every line through the full checks."""
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = strictjson.loads(line)
        except strictjson.RefusedJSON as error:
            return f"line {number}: {error}"
        if not isinstance(record, dict):
            return f"line {number} is not a JSON object"
        records.append(record)
    return records


def parsed(text: str) -> list[dict] | str:
    try:
        return parse_history(text)
    except ValueError as error:
        return str(error)


@pytest.mark.parametrize("odd", ODD_LINES)
def test_a_line_parses_or_is_refused_as_the_full_checks_say(odd):
    text = "\n".join([ORDINARY, odd, "", ORDINARY])
    assert parsed(text) == line_by_line(text)


def test_the_file_wide_checks_find_what_the_per_line_scans_find():
    assert strictjson.vouch(ORDINARY * 100)
    assert not strictjson.vouch(ORDINARY + '\n{"n":' + "1" * 41 + "}")
    assert strictjson.vouch(ORDINARY + '\n{"n":' + "1" * 40 + "}")
    assert not strictjson.vouch('{"s":"\\uD800"}')
    assert strictjson.vouch('{"s":"' + "\u0663" * 50 + '"}')  # only ASCII digits make JSON numbers
