"""The archive: where an ended game's history goes when it leaves Redis (events/retention.py).

A store keeps one text per game, the game's exported history (JSON Lines, as
`GET /v1/games/{id}/history` serves it and `POST /v1/replays` verifies it), so
an archived game is read back, served and verified from exactly those bytes.
The contract is three calls:

    put(game_id, history_text)   write it (again: the same bytes; a second writer is harmless)
    get(game_id) -> str | None   read it back
    exists(game_id) -> bool

`DirectoryArchive` (the default: ARCHIVE_DIR) keeps one file per game;
`S3Archive` (ARCHIVE_URL=s3://bucket/prefix) any S3-compatible object store
through boto3, an optional extra (`pip install boto3`), imported only when an
s3:// URL is configured.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from events.envelope import Envelope
from events.history import parse_history

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # never a path: ids come from URLs


class ArchiveStore(Protocol):
    def put(self, game_id: str, history_text: str) -> None: ...

    def get(self, game_id: str) -> str | None: ...

    def exists(self, game_id: str) -> bool: ...


def checked_id(game_id: str) -> str:
    if not GAME_ID.match(game_id):
        raise ValueError(f"not a game id: {game_id!r}")
    return game_id


class DirectoryArchive:
    """One file per game, `<root>/<first two characters>/<id>.jsonl`, written to a temporary file
    and renamed into place (atomic: a reader sees the whole history or none)."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)

    def path(self, game_id: str) -> Path:
        checked_id(game_id)
        return self.root / game_id[:2] / f"{game_id}.jsonl"

    def put(self, game_id: str, history_text: str) -> None:
        path = self.path(game_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{game_id}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(history_text)
                out.flush()
                os.fsync(out.fileno())  # on disk before Redis lets the game go
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def get(self, game_id: str) -> str | None:
        try:
            return self.path(game_id).read_text(encoding="utf-8")
        except (FileNotFoundError, ValueError):
            return None

    def exists(self, game_id: str) -> bool:
        try:
            return self.path(game_id).is_file()
        except ValueError:
            return False


class S3Archive:
    """One object per game, `<prefix><id>.jsonl`, in a bucket of any S3-compatible store.
    `client` is a boto3 S3 client (see `from_url`)."""

    def __init__(self, client: Any, bucket: str, prefix: str = ""):
        self.client, self.bucket, self.prefix = client, bucket, prefix

    @classmethod
    def from_url(cls, url: str) -> S3Archive:
        """`s3://bucket/prefix/?endpoint_url=http://host:9000&region=us-east-1`; credentials as boto3
        finds them (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role)."""
        try:
            import boto3  # an optional extra: only a deployment that archives to S3 installs it
        except ImportError:
            raise RuntimeError("ARCHIVE_URL names an s3:// store: install boto3 (pip install boto3)") from None
        parts = urlsplit(url)
        query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
        client = boto3.client("s3", endpoint_url=query.get("endpoint_url"), region_name=query.get("region"))
        prefix = parts.path.lstrip("/")
        return cls(client, parts.netloc, prefix if not prefix or prefix.endswith("/") else prefix + "/")

    def key(self, game_id: str) -> str:
        return f"{self.prefix}{checked_id(game_id)}.jsonl"

    def put(self, game_id: str, history_text: str) -> None:
        self.client.put_object(Bucket=self.bucket, Key=self.key(game_id), Body=history_text.encode("utf-8"),
                               ContentType="application/x-ndjson")

    def get(self, game_id: str) -> str | None:
        try:
            reply = self.client.get_object(Bucket=self.bucket, Key=self.key(game_id))
        except ValueError:
            return None
        except self.client.exceptions.NoSuchKey:
            return None
        return reply["Body"].read().decode("utf-8")

    def exists(self, game_id: str) -> bool:
        from botocore.exceptions import ClientError
        try:
            self.client.head_object(Bucket=self.bucket, Key=self.key(game_id))
        except ValueError:
            return False
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return False
            raise
        return True


def open_archive(url: str | None = None, directory: str | os.PathLike | None = None) -> ArchiveStore:
    """ARCHIVE_URL (`s3://...`, or `file:///path`) if set, else the directory ARCHIVE_DIR."""
    if url:
        scheme = urlsplit(url).scheme
        if scheme == "s3":
            return S3Archive.from_url(url)
        if scheme == "file":
            return DirectoryArchive(urlsplit(url).path)
        raise ValueError(f"ARCHIVE_URL must be s3://bucket/prefix or file:///path, not {url!r}")
    return DirectoryArchive(directory or "var/archive")


def archived_game_parts(game_id: str, text: str) -> tuple[dict[str, str], list[Envelope]]:
    """An archived history back into the meta record a loaded game carries and its events."""
    records = parse_history(text)
    header, events = records[0], records[1:]
    envelopes = [Envelope(game_id, r["version"], r["type"], r["data"], r["actor"], r["at"], r.get("command_id", ""),
                          r.get("schema", 1), r.get("command")) for r in events]
    meta = {"seed": header["seed"], "seed_commitment": header["seed_commitment"], "ruleset": header["ruleset"],
            "ruleset_version": str(header.get("ruleset_version", 1)), "seats": json.dumps(header["seats"]),
            "options": json.dumps(header.get("options") or {}), "version": str(len(envelopes)),
            "created_at": str(envelopes[0].at if envelopes else 0), "deadlines": "{}",
            "seed_source": header.get("seed_source", "server")}
    return meta, envelopes
