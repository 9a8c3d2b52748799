"""HTTP details shared by the client and the stream, free of SDK types."""
from __future__ import annotations

import re
from urllib.parse import quote


def quote_segment(value: str) -> str:
    """A path segment, percent-encoded."""
    return quote(str(value), safe="")


def error_gist(error: BaseException) -> str:
    """The gist of a requests/urllib3 error ("Connection refused", "Read timed out")."""
    text = str(error)
    match = (re.search(r"\[Errno -?\d+\] ([^'\")\]]+)", text)
             or re.search(r"(Read timed out|Connect timeout[^'\")]*)", text))
    if match:
        return match.group(1).strip().rstrip(".")
    return text if len(text) < 160 else text[:157] + "..."
