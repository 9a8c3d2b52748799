"""The SDK's public import surface: what README.md and docs/clients.md name is exported by `clients.sdk`.

No server needed: these read the documents and the package only.
"""
from __future__ import annotations

import re
from pathlib import Path

import clients.sdk as sdk
from clients.sdk import CartelClient

ROOT = Path(__file__).resolve().parents[2]
CLIENTS_MD = (ROOT / "docs" / "clients.md").read_text()
README = (ROOT / "README.md").read_text()
SDK_SECTION = CLIENTS_MD.split("## The SDK", 1)[1].split("## The CLI", 1)[0]

CODE = re.compile(r"```python\n(.*?)```|`([^`\n]+)`", re.S)
# A capitalised identifier, not part of a header name (If-Match), a dotted path or a string literal ("RollDice").
CLASS_LIKE = re.compile(r"(?<![\w.\-\"])[A-Z][a-z]+(?:[A-Z][a-z]*)*(?![\w\-\"])")
# An HTTP header, and the builtin, typing and stdlib names the section uses.
NOT_SDK = {"Authorization", "False", "Iterator", "None", "Path", "True"}
IMPORTS = re.compile(r"from clients\.sdk import (?:\(([^)]*)\)|([^\n(]*))")


def code_names(markdown: str) -> set[str]:
    """Capitalised names in inline code and Python blocks, comments left out (they are prose)."""
    return {name for block, span in CODE.findall(markdown)
            for name in CLASS_LIKE.findall(re.sub(r"#.*", "", block) if block else span)}


def imported_names(markdown: str) -> set[str]:
    return {name.strip() for wrapped, line in IMPORTS.findall(markdown) for name in (wrapped or line).split(",")
            if name.strip()}


def test_every_exported_name_is_importable_once():
    assert len(sdk.__all__) == len(set(sdk.__all__))
    assert [name for name in sdk.__all__ if not hasattr(sdk, name)] == []


def test_every_name_the_docs_import_or_describe_is_exported():
    imported = imported_names(README) | imported_names(CLIENTS_MD)
    described = code_names(SDK_SECTION) - NOT_SDK
    assert {"CartelClient", "SeatSpec", "Conflict", "IllegalMove"} <= imported
    assert {"Game", "EventStream", "GameSummary", "OptionInfo", "ServiceUnavailable"} <= described  # parsed at all
    assert sorted((imported | described) - set(sdk.__all__)) == []


def test_every_method_in_the_docs_table_exists():
    table = SDK_SECTION.split("| method | endpoint | returns |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    methods = {name for cell in rows for name in re.findall(r"`(\w+)[(`]", cell)}
    assert {"send", "send_fresh", "follow", "lobby", "verify"} <= methods
    assert sorted(name for name in methods if not callable(getattr(CartelClient, name, None))) == []
