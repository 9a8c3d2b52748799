"""The `cartel` CLI through `main([...])`, against the real server (gunicorn + an RQ worker)."""
from __future__ import annotations

import json
import re

import pytest

from clients.cli import build_parser, main, parse_command
from clients.sdk import CartelClient, SeatSpec
from tests.support.processes import database, free_port, running_service

BOT_GAME = ["--bot", "random", "--bot", "random", "--option", "target=3000", "--option", "turn_limit=25",
            "--seed", "cli-bots"]


@pytest.fixture(scope="module")
def server(redis_server, tmp_path_factory):
    with running_service(database(redis_server.url, 8), tmp_path_factory.mktemp("cli-server"),
                         {"SSE_MAX_SECONDS": "1"}) as web:
        yield web


@pytest.fixture
def cartel(server, capsys, monkeypatch):
    """Run `cartel ARGS` against the test server: (exit code, stdout, stderr)."""
    monkeypatch.setenv("CARTEL_URL", server.url)
    monkeypatch.delenv("CARTEL_TOKEN", raising=False)

    def run(*args: str):
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err
    return run


def created(output: str) -> tuple[str, dict[int, str]]:
    """Game id and seat tokens from `cartel create` output."""
    game_id = re.search(r"^game (\S+)", output, re.M).group(1)
    tokens = {int(seat): token for seat, token in re.findall(r"seat (\d+):\S+.*token (\S+)", output)}
    return game_id, tokens


@pytest.fixture(scope="module")
def finished_game(server):
    """A finished bot game (watched to its end by the CLI test that creates it, or here)."""
    client = CartelClient(server.url)
    game = client.create_game("kingpin", [SeatSpec.bot("random"), SeatSpec.bot("random")],
                              options={"target": 3000, "turn_limit": 25}, seed="cli-finished")
    for _ in client.follow(game.id):
        pass
    return game.id


def test_rulesets(cartel):
    code, out, err = cartel("rulesets")
    assert code == 0 and out.startswith("kingpin: ") and "--option target=" in out and err == ""
    code, out, _ = cartel("rulesets", "--json")
    assert code == 0 and json.loads(out)[0]["name"] == "kingpin"


def test_create_claim_games_show(cartel):
    code, out, _ = cartel("create", "kingpin", "--human", 1, "--open", 1, "--option", "target=3000", "--seed", "s")
    assert code == 0
    game_id, tokens = created(out)
    assert list(tokens) == [0] and "seat 1:open" in out and "status open" in out
    assert f"\nexport CARTEL_TOKEN={tokens[0]}\n" in out  # ready to paste, as the README shows

    code, out, _ = cartel("games", "--status", "open", "--ruleset", "kingpin")
    assert code == 0 and game_id in out and "open: 1" in out
    code, out, _ = cartel("games", "--status", "open", "--json")
    assert game_id in [g["id"] for g in json.loads(out)["games"]]

    code, out, _ = cartel("claim", game_id, 1, "--name", "bob")
    assert code == 0 and "status active" in out
    token1 = re.search(r"token (\S+)", out).group(1)

    code, out, _ = cartel("show", game_id)
    assert code == 0 and "status   active" in out and "spectator" in out and "turn     seat" in out
    code, out, _ = cartel("show", game_id, f"--token={token1}")
    assert "you      seat 1" in out and "'bob'" in out
    code, out, _ = cartel("show", game_id, "--json")
    doc = json.loads(out)
    assert doc["id"] == game_id and doc["you"] is None and doc["legal_moves"] == []

    # The seat is taken now: a readable error, the rule, no traceback.
    code, out, err = cartel("claim", game_id, 1)
    assert code == 2 and out == "" and "409 Seat taken" in err and "rule: lobby" in err and "Traceback" not in err


def test_every_seat_sends_its_entropy_after_the_commitment_through_the_cli_and_the_sdk(cartel, server):
    # issue 34 (2): the commitment first (in the creation's answer), then each human seat's own entropy,
    # public in the feed at once: a seat issued at creation with `cartel contribute`, claimers with their claim
    code, out, _ = cartel("create", "kingpin", "--human", 2, "--open", 1, "--seed", "cli-entropy",
                          "--contribution-seconds", 60)
    assert code == 0 and "status open" in out and "cartel contribute GAME SEAT" in out
    game_id, tokens = created(out)
    code, out, _ = cartel("contribute", game_id, 0, "--entropy", "cli seat 0: 🎲", f"--token={tokens[0]}")
    assert code == 0 and "status open" in out and "waiting for seat(s) 1" in out
    code, out, _ = cartel("claim", game_id, 2, "--entropy", "cli seat 2")
    assert code == 0 and "status open" in out
    answer = CartelClient(server.url, tokens[1]).contribute(game_id, 1)  # the SDK draws 16 random bytes
    assert answer["status"] == "active"
    events = list(CartelClient(server.url).iter_events(game_id))
    assert events[0].type == "GameCreated" and "entropy" not in events[0].data
    sent = [(e.type, e.data["seat"], e.data["entropy"]) for e in events if "entropy" in e.data]
    assert sent[:2] == [("EntropyContributed", 0, "cli seat 0: 🎲"), ("SeatClaimed", 2, "cli seat 2")]
    assert sent[2][:2] == ("EntropyContributed", 1) and len(sent[2][2]) == 32
    assert "cli-entropy" not in json.dumps([e.data for e in events])  # the seed stays secret

    code, out, err = cartel("claim", game_id, 2)
    assert code == 2 and "409" in err
    code, out, err = cartel("contribute", game_id, 0, "--entropy", "again", f"--token={tokens[0]}")
    assert code == 2 and out == "" and "409 Contribution refused" in err and "Traceback" not in err


def test_a_lone_player_creating_a_game_sends_their_entropy_at_once(cartel):
    code, out, _ = cartel("create", "kingpin", "--human", 1, "--bot", "random", "--contribution-seconds", 600)
    assert code == 0 and "status active" in out and "Your entropy was added" in out


def test_create_with_clock_and_json(cartel):
    code, out, _ = cartel("create", "kingpin", "--bot", "greedy", "--human", 1, "--move-seconds", 600,
                          "--response-seconds", 60, "--json")
    doc = json.loads(out)
    assert code == 0 and [s["kind"] for s in doc["seats"]] == ["bot", "human"] and doc["seats"][1]["token"]
    code, _, err = cartel("create", "kingpin")
    assert code == 2 and "--human" in err
    code, _, err = cartel("create", "kingpin", "--human", 2, "--option", "target=7")
    assert code == 2 and "422" in err and "target" in err
    code, _, err = cartel("create", "nope", "--human", 2)
    assert code == 2 and "404" in err and "nope" in err


def seat_with_moves(cartel, game_id, tokens):
    for seat, token in tokens.items():
        code, out, _ = cartel("moves", game_id, f"--token={token}")
        assert code == 0
        if re.search(r"^\s+1\. ", out, re.M):
            return seat, token, out
    raise AssertionError("nobody has a move")


def test_moves_and_move_three_ways(cartel, monkeypatch):
    code, out, _ = cartel("create", "kingpin", "--human", 2, "--seed", "cli-moves")
    game_id, tokens = created(out)
    code, out, _ = cartel("moves", game_id)  # no CARTEL_TOKEN: say so, not "0 legal moves"
    assert code == 0 and "you hold no seat" in out and "CARTEL_TOKEN" in out and "legal moves" not in out
    code, out, err = cartel("move", game_id, "--pick", 1)
    assert code == 2 and "you hold no seat" in err and "0 legal moves" not in err

    seat, token, listing = seat_with_moves(cartel, game_id, tokens)
    other = tokens[1 - seat]
    first = re.search(r"^\s+1\. (.+)$", listing, re.M).group(1)
    version = int(re.search(r"^version (\d+)", listing).group(1))

    # Out of turn: the server's detail and rule, exit 2.
    code, out, err = cartel("move", game_id, "--pick", 1, f"--token={other}")
    assert code == 2 and "pick 1" in err  # the other seat has nothing to pick from
    code, out, err = cartel("move", game_id, *first.split(), f"--token={other}")
    assert code == 2 and "422 Illegal move" in err and "rule: " in err and "Traceback" not in err

    # `--pick N` from the numbered list, via CARTEL_TOKEN.
    monkeypatch.setenv("CARTEL_TOKEN", token)
    code, out, _ = cartel("move", game_id, "--pick", 1)
    assert code == 0 and out.startswith(f"sent {first} -> version ")
    after_pick = int(re.search(r"-> version (\d+)", out).group(1))
    assert after_pick > version and re.search(rf"^\s+{version + 1}\s+seat:{seat}\s", out, re.M)

    # A stale --expect: 409 with the current version.
    code, out, err = cartel("move", game_id, "--pick", 1, "--expect", version)
    if "there are 0 legal moves" not in err:
        assert code == 2 and "409" in err and f"now at version {after_pick}" in err

    # `Type key=value ...` and JSON, each taken from the current legal moves.
    code, out, _ = cartel("moves", game_id, "--json")
    moves = json.loads(out)["legal_moves"]
    mover = token
    if not moves:
        monkeypatch.setenv("CARTEL_TOKEN", other)
        mover = other
        moves = json.loads(cartel("moves", game_id, "--json")[1])["legal_moves"]
    move = moves[0]
    words = [move["type"]] + [f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
                              for k, v in move.items() if k != "type"]
    code, out, _ = cartel("move", game_id, *words, "--idempotency-key", "cli-key-1")
    assert code == 0 and "sent " + move["type"] in out
    code, out, _ = cartel("move", game_id, *words, "--idempotency-key", "cli-key-1", f"--token={mover}")
    assert code == 0 and "duplicate" in out

    monkeypatch.delenv("CARTEL_TOKEN")
    seat, token, _ = seat_with_moves(cartel, game_id, tokens)
    move = json.loads(cartel("moves", game_id, "--json", f"--token={token}")[1])["legal_moves"][0]
    code, out, err = cartel("move", game_id, json.dumps(move), "--json", f"--token={token}")
    assert code == 0, err
    assert json.loads(out)["events"][0]["actor"] == f"seat:{seat}"


def test_watch_a_bot_game_to_its_end(cartel):
    code, out, _ = cartel("create", "kingpin", *BOT_GAME)
    game_id, _ = created(out)
    code, out, err = cartel("watch", game_id)
    assert code == 0, err
    lines = out.splitlines()
    versions = [int(line.split()[0]) for line in lines[:-1]]
    assert versions == list(range(1, len(versions) + 1))
    # the outcome as the server says it, a sentence in the seats' names, not "winner: seat 1"
    assert re.fullmatch(rf"game over at version {versions[-1]}: .+ wins?: .+\.", lines[-1]), lines[-1]
    assert "seat " not in lines[-1].lower()
    assert all(len(line) < 200 for line in lines)
    code, out, _ = cartel("show", game_id)
    assert "status   finished" in out and "seed     cli-bots" in out and re.search(r"^outcome  .+ wins?: ", out, re.M)
    code, out, _ = cartel("watch", game_id, "--after", versions[-1] - 2, "--json")
    assert [json.loads(line)["version"] for line in out.splitlines()] == versions[-2:]


def test_export_and_verify(cartel, finished_game, tmp_path):
    path = tmp_path / "game.jsonl"
    code, out, err = cartel("export", finished_game, "-o", path)
    assert code == 0 and out == "" and "wrote" in err
    code, out, _ = cartel("export", finished_game)
    assert code == 0 and out == path.read_text()

    code, out, _ = cartel("verify", path)
    assert code == 0 and out.startswith("valid, complete: ") and "kingpin" in out
    moves = [r for r in map(json.loads, path.read_text().splitlines()[1:]) if "bot" in r]
    assert moves and f"bot moves re-derived: {len(moves)} of {len(moves)}\n" in out
    assert "seed_source: fixed" in out  # the test server lets creators fix the seed, and it says so
    code, offline, _ = cartel("verify", "--offline", "--bots", "all", path)  # the bots re-run here, not there
    assert code == 0 and f"bot moves re-derived: {len(moves)} of {len(moves)}\n" in offline
    code, out, _ = cartel("verify", path, "--json")
    assert code == 0 and json.loads(out)["valid"] is True and json.loads(out)["complete"] is True

    # The first lines of the history (its header's outcome nulled, as in the issue): every event
    # re-derives, but it is not the game; the CLI says both words, and exit 1.
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    prefix = tmp_path / "prefix.jsonl"
    cut = next(n for n, line in enumerate(lines) if n > 30 and '"command"' in line) - 1  # a whole command
    prefix.write_text("".join(line + "\n" for line in [json.dumps(dict(header, outcome=None))] + lines[1:cut + 1]))
    code, out, _ = cartel("verify", prefix)
    assert code == 1 and out.startswith(f"valid, NOT COMPLETE: {cut} events of kingpin verified, but the events "
                                        f"stop at version {cut}; the header records the game to version "
                                        f"{len(lines) - 1}")

    # Tamper with a recorded roll or payment: verify says where, exit 1.
    records = [json.loads(line) for line in path.read_text().splitlines()]
    victim = next(r for r in records[1:] if r["version"] > 3 and r["data"])
    victim["data"][next(iter(victim["data"]))] = "tampered"
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, _ = cartel("verify", tampered)
    assert code == 1 and out.startswith("INVALID, not complete: diverged at version ")
    assert int(re.search(r"version (\d+)", out).group(1)) <= victim["version"]

    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n")
    code, _, err = cartel("verify", garbage)
    assert code == 2 and "400" in err and "line 1" in err
    code, _, err = cartel("verify", tmp_path / "missing.jsonl")
    assert code == 2 and "cannot read" in err


def test_export_before_the_end_is_refused(cartel):
    code, out, _ = cartel("create", "kingpin", "--human", 2)
    game_id, _ = created(out)
    code, out, err = cartel("export", game_id)
    assert code == 2 and "403" in err and "finished" in err and out == ""


def test_a_token_for_another_game_reads_as_a_spectator(cartel, monkeypatch):
    _, tokens = created(cartel("create", "kingpin", "--human", 2)[1])
    other_game, _ = created(cartel("create", "kingpin", "--human", 2)[1])
    monkeypatch.setenv("CARTEL_TOKEN", tokens[0])
    code, out, err = cartel("show", other_game)
    assert code == 0 and "you      spectator" in out and "reading it as a spectator" in err
    code, out, err = cartel("show", other_game, f"--token={tokens[0]}")  # asked for explicitly: the error
    assert code == 2 and "403" in err and "does not hold a seat" in err


def test_unreachable_server_and_url_option(cartel, capsys):
    url = f"http://127.0.0.1:{free_port()}"
    code, out, err = cartel("rulesets", "--url", url, "--timeout", 1)
    assert code == 3 and "could not be reached" in err and url in err and "Traceback" not in err
    code, out, err = cartel("--url", url, "games")
    assert code == 3


def test_usage_errors_exit_2(cartel, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["frobnicate"])
    assert caught.value.code == 2
    capsys.readouterr()
    code, _, err = cartel("move", "some-game")
    assert code == 2 and "--pick" in err
    code, _, err = cartel("move", "some-game", "{not json")
    assert code == 2 and "not valid JSON" in err


def test_parse_command():
    assert parse_command(['{"type": "RollDice"}']) == {"type": "RollDice"}
    assert parse_command(["PurchaseCard", "kind=junkie200", "count=2", "ok=true", "who=null", "xs=[1,2]"]) == {
        "type": "PurchaseCard", "kind": "junkie200", "count": 2, "ok": True, "who": None, "xs": [1, 2]}
    assert parse_command(["Say", 'text="42"']) == {"type": "Say", "text": "42"}
    args = build_parser().parse_args(["create", "kingpin", "--bot", "random", "--human", "2", "--open", "1"])
    assert [s.kind for s in args.seats] == ["bot", "human", "human", "open"]


def test_login_and_me(cartel, tmp_path, monkeypatch):
    """Issue 37: `cartel login NAME` creates a player and keeps the key (readable by its user only); `cartel me`
    names the player and lists the games bound to them; `login --key` keeps a key held; a name taken is an
    error answer (exit 2)."""
    monkeypatch.setenv("CARTEL_PLAYER_KEYS", str(tmp_path / "players.json"))
    monkeypatch.delenv("CARTEL_PLAYER_KEY", raising=False)
    code, out, err = cartel("me")
    assert code == 2 and "cartel login" in err
    code, out, err = cartel("login", "Cli-Ada")
    assert code == 0 and out.startswith("player Cli-Ada (") and err == ""
    assert (tmp_path / "players.json").stat().st_mode & 0o077 == 0
    (url, key), = json.loads((tmp_path / "players.json").read_text()).items()  # one server: this one
    client = CartelClient(url, token=key)
    game = client.create_game("kingpin", [SeatSpec.human(as_player=True), SeatSpec.open()], visibility="unlisted")
    code, out, _ = cartel("me")
    assert code == 0 and out.splitlines()[0].startswith("Cli-Ada (") and f"{game.id}  kingpin" in out
    assert "seat 0  unlisted" in out and "1 seat(s) bound to you" in out
    code, out, _ = cartel("me", "--json")
    assert code == 0 and json.loads(out)["games"][0]["id"] == game.id
    assert cartel("login", "cli-ada")[0] == 2  # the name, whatever its case, is taken
    (tmp_path / "players.json").unlink()
    code, out, _ = cartel("login", "--key", key)
    assert code == 0 and "Cli-Ada" in out and cartel("me")[0] == 0


def test_challenge(cartel, server, tmp_path, monkeypatch):
    """Issue 37: `cartel challenge NAME RULESET` challenges a player, `cartel challenge` lists yours, `--accept`
    answers one (printing the game and the seat's token), `bot:LEVEL` plays a bot level at once; a challenge to
    nobody is an error answer (exit 2)."""
    monkeypatch.setenv("CARTEL_PLAYER_KEYS", str(tmp_path / "players.json"))
    monkeypatch.delenv("CARTEL_PLAYER_KEY", raising=False)
    assert cartel("challenge")[0] == 2  # no player yet
    assert cartel("login", "Cli-Cy")[0] == 0
    bo = CartelClient(server.url).create_player("Cli-Bo")
    code, out, err = cartel("challenge", "Cli-Bo", "kingpin", "--option", "target=3000")
    assert code == 0 and "Cli-Cy -> Cli-Bo" in out and out.split()[-1] == "open", (out, err)
    challenge_id = out.split()[0]
    assert cartel("challenge", "Nobody-here", "kingpin")[0] == 2
    monkeypatch.setenv("CARTEL_PLAYER_KEY", bo["key"])
    code, out, _ = cartel("challenge", "--accept", challenge_id)
    assert code == 0 and "accepted  game " in out and "seat 1 token: " in out, out
    game_id = out.split("game ")[1].split()[0]
    monkeypatch.delenv("CARTEL_PLAYER_KEY")
    code, out, _ = cartel("challenge")
    assert code == 0 and f"{challenge_id}  Cli-Cy -> Cli-Bo  kingpin" in out and f"game {game_id}" in out
    code, out, _ = cartel("challenge", "bot:random", "narcos", "--json")
    made = json.loads(out)
    assert code == 0 and made["bot"] == "random" and made["status"] == "accepted" and made["token"]
    assert cartel("challenge", "--decline", challenge_id)[0] == 2  # not Cy's to answer: 404
