"""A small, standalone Server-Sent Events parser (the WHATWG "event stream" format).

It follows the interpretation rules of the HTML standard, section 9.2.6:

* lines end with CRLF, LF or CR, even when a CRLF is split across two chunks;
* a leading UTF-8 byte order mark is dropped;
* a line starting with ``:`` is a comment (servers use them as heartbeats);
* ``field: value`` sets a field (one space after the colon is dropped), a line
  without a colon is a field with an empty value, unknown fields are ignored;
* ``data`` lines accumulate, joined with ``\\n``; ``event`` names the type
  (default ``message``); ``id`` sets the last event id (ignored if it holds a
  NUL; an empty ``id`` resets it); ``retry`` sets the reconnection delay (ms,
  ASCII digits only);
* a blank line dispatches the message; a message with no data is not
  dispatched (but its ``id`` still counts), and a message cut off by the end of
  the stream is dropped.

Usage::

    parser = SSEParser()
    for chunk in response.iter_content(chunk_size=None):
        for message in parser.feed(chunk):
            ...
"""
from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Iterable, Iterator

__all__ = ["SSEMessage", "SSEParser", "parse_stream"]


@dataclass(frozen=True)
class SSEMessage:
    """One dispatched message."""

    data: str
    event: str = "message"
    id: str | None = None
    """The stream's last event id when this message was dispatched (may come from an earlier message)."""
    retry: int | None = None
    """The reconnection delay in ms in force when this message was dispatched."""


class SSEParser:
    """Incremental parser: feed it bytes (or str) as they arrive, get complete messages back."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._started = False
        self._data: list[str] = []
        self._event = ""
        self.last_event_id: str | None = None
        """The last event id seen on the stream (what to send back as Last-Event-ID)."""
        self._id_buffer: str | None = None
        self.retry: int | None = None
        """The reconnection delay (ms) the server asked for, if it did."""

    # ------------------------------------------------------------------ input
    def feed(self, chunk: bytes | str) -> list[SSEMessage]:
        """Parse a chunk; return the messages it completed (possibly none)."""
        text = self._decoder.decode(chunk) if isinstance(chunk, (bytes, bytearray)) else chunk
        if not self._started and text:
            self._started = True
            if text.startswith("\ufeff"):
                text = text[1:]
        self._buffer += text
        messages: list[SSEMessage] = []
        for line in self._complete_lines():
            message = self._line(line)
            if message is not None:
                messages.append(message)
        return messages

    def close(self) -> list[SSEMessage]:
        """End of stream: flush the decoder.  An unterminated message is dropped, as the standard says."""
        tail = self._decoder.decode(b"", final=True)
        messages = self.feed(tail) if tail else []
        if self._buffer.endswith("\r"):
            # A lone CR at the very end is a complete line ending.
            self._buffer = self._buffer[:-1] + "\n"
            messages += self.feed("")
        self._buffer = ""
        self._data, self._event = [], ""
        return messages

    def _complete_lines(self) -> Iterator[str]:
        buffer = self._buffer
        start = 0
        length = len(buffer)
        index = 0
        while index < length:
            char = buffer[index]
            if char == "\n":
                yield buffer[start:index]
                start = index = index + 1
            elif char == "\r":
                if index + 1 == length:
                    break  # wait: the next chunk may start with the LF of a CRLF
                yield buffer[start:index]
                index += 2 if buffer[index + 1] == "\n" else 1
                start = index
            else:
                index += 1
        self._buffer = buffer[start:]

    # --------------------------------------------------------------- a line
    def _line(self, line: str) -> SSEMessage | None:
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None  # a comment
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\0" not in value:
                self._id_buffer = value
        elif name == "retry":
            if value.isascii() and value.isdigit():
                self.retry = int(value)
        return None

    def _dispatch(self) -> SSEMessage | None:
        if self._id_buffer is not None:
            self.last_event_id = self._id_buffer or None
        data, event = self._data, self._event
        self._data, self._event = [], ""
        if not data:
            return None
        return SSEMessage(data="\n".join(data), event=event or "message", id=self.last_event_id, retry=self.retry)


def parse_stream(chunks: Iterable[bytes | str]) -> Iterator[SSEMessage]:
    """Every message of a whole stream given as chunks."""
    parser = SSEParser()
    for chunk in chunks:
        yield from parser.feed(chunk)
    yield from parser.close()
