"""`cartel`: the Tabletop Cartel command line, a thin shell over clients.sdk.

    cartel [--url URL] [--token TOKEN] COMMAND ...

The server URL comes from --url, else $CARTEL_URL, else http://127.0.0.1:8000;
the seat token from --token, else $CARTEL_TOKEN (none: a spectator).  Both
options may also be given after the command.

Exit codes: 0 success; 1 a negative answer (`verify`: the history diverges, or
is not the whole game); 2 a usage error or an error answer from the server (its
detail and rule are printed, never a traceback); 3 the server could not be
reached, or stopped answering (the message says which).

A 429 (rate limited) or 503 answer with `Retry-After` is waited out and
retried, at most 3 times and 30 s a wait (a command keeps its
Idempotency-Key); then the error is printed, exit 2.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from clients.offline import verify_offline
from clients.sdk import (
    DEFAULT_URL,
    CartelClient,
    ClockSpec,
    Event,
    Forbidden,
    Game,
    ProblemError,
    Seat,
    SeatSpec,
    TransportError,
)
from clients.sdk.client import history_game_id

EXIT_OK, EXIT_NEGATIVE, EXIT_ERROR, EXIT_UNREACHABLE = 0, 1, 2, 3
ENTROPY_HELP = ("your own entropy for the game's dice and shuffles (1 to 256 characters, public at once), mixed "
                "into the committed seed when the game starts (docs/fairness.md); "
                'e.g. --entropy "$(head -c 16 /dev/urandom | base64)"')


def player_key_path() -> Path:
    """Where `cartel login` keeps player keys, one per server: $CARTEL_PLAYER_KEYS, else
    $XDG_CONFIG_HOME/cartel/players.json (~/.config/...)."""
    configured = os.environ.get("CARTEL_PLAYER_KEYS")
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return Path(configured) if configured else base / "cartel" / "players.json"


def kept_player_keys() -> dict[str, str]:
    try:
        return dict(json.loads(player_key_path().read_text()))
    except (OSError, ValueError):
        return {}


def keep_player_key(url: str, key: str) -> Path:
    """Keep `key` as this machine's player key for the server at `url` (readable by its user only)."""
    path = player_key_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)
    path.write_text(json.dumps({**kept_player_keys(), url.rstrip("/"): key}, indent=0))
    return path


def player_key_for(url: str) -> str | None:
    """The player key for `url`: $CARTEL_PLAYER_KEY, else the one `cartel login` kept."""
    return os.environ.get("CARTEL_PLAYER_KEY") or kept_player_keys().get(url.rstrip("/"))


class UsageError(Exception):
    """A command line the CLI cannot act on (reported like argparse's errors, exit 2)."""


class KeptCommitments(dict):
    """game id -> the seed commitment this machine was shown when it created, joined or contributed to the
    game: `cartel verify` holds the game's history to it.  Kept in $CARTEL_COMMITMENTS, else
    $XDG_CONFIG_HOME/cartel/commitments.json (~/.config/...); written as it changes."""

    path: Path

    @classmethod
    def load(cls) -> KeptCommitments:
        configured = os.environ.get("CARTEL_COMMITMENTS")
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
        kept = cls()
        kept.path = Path(configured) if configured else base / "cartel" / "commitments.json"
        try:
            kept.update(json.loads(kept.path.read_text()))
        except (OSError, ValueError):
            pass  # none kept yet (or unreadable): start afresh
        return kept

    def __setitem__(self, game_id: str, commitment: str) -> None:
        super().__setitem__(game_id, commitment)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(dict(self), indent=0))
        except OSError:
            pass  # a read-only home: kept for this run only

    def setdefault(self, game_id: str, commitment: str) -> str:
        if game_id not in self:
            self[game_id] = commitment
        return self[game_id]


# ================================================================== parsing
def parse_value(text: str) -> Any:
    """`k=v` values are JSON when they parse as JSON (3000, true, null, [1,2], "x"), else plain strings."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_pairs(pairs: Sequence[str], what: str) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key:
            raise UsageError(f"{what} {pair!r} is not key=value")
        result[key] = parse_value(value)
    return result


def parse_command(words: Sequence[str]) -> dict[str, Any]:
    """A command from the command line: one JSON object, or `Type key=value ...`."""
    if not words:
        raise UsageError("give a command (JSON or `Type key=value ...`) or --pick N")
    if len(words) == 1 and words[0].lstrip().startswith("{"):
        try:
            command = json.loads(words[0])
        except ValueError as error:
            raise UsageError(f"the command is not valid JSON: {error}") from None
        if not isinstance(command, dict) or "type" not in command:
            raise UsageError('a JSON command must be an object with a "type", e.g. \'{"type": "RollDice"}\'')
        return command
    kind, *args = words
    if "=" in kind:
        raise UsageError(f"the command type comes first, then key=value arguments (got {kind!r})")
    return {"type": kind, **parse_pairs(args, "argument")}


class AddSeats(argparse.Action):
    """--human N / --bot LEVEL / --open N append to one `seats` list, in command-line order."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, value: Any,
                 option_string: str | None = None) -> None:
        seats = list(getattr(namespace, "seats", None) or [])
        if self.const == "bot":
            seats.append(SeatSpec.bot(value))
        else:
            if value < 1:
                parser.error(f"{option_string} needs a count of at least 1")
            seats.extend(SeatSpec(self.const) for _ in range(value))
        namespace.seats = seats


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    # Defaults are suppressed here so the options work before or after the command.
    common.add_argument("--url", default=argparse.SUPPRESS,
                        help=f"server URL (default: $CARTEL_URL or {DEFAULT_URL})")
    common.add_argument("--token", default=argparse.SUPPRESS, help="seat token (default: $CARTEL_TOKEN)")
    common.add_argument("--timeout", type=float, default=argparse.SUPPRESS, help="seconds per request (default 10)")

    parser = argparse.ArgumentParser(
        prog="cartel", description="Play and inspect Tabletop Cartel games over HTTP.",
        epilog="Exit codes: 0 ok, 1 verify found a divergence or a prefix, 2 usage or server error, "
               "3 server unreachable or stopped answering.")
    parser.add_argument("--url", default=None, help=f"server URL (default: $CARTEL_URL or {DEFAULT_URL})")
    parser.add_argument("--token", default=None, help="seat token (default: $CARTEL_TOKEN)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per request (default 10)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[common], help=help, description=help)

    p = command("login", "Become a player: create one named NAME (its key is kept on this machine, "
                         "$CARTEL_PLAYER_KEYS), or keep an existing key with --key.")
    p.add_argument("name", nargs="?", help="the new player's name (2 to 24 letters, digits, _ or -)")
    p.add_argument("--key", help="a player key you hold (checked, then kept)")

    p = command("me", "Who you are as a player (the kept key, or $CARTEL_PLAYER_KEY) and your games.")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--json", action="store_true")

    p = command("challenge", "Challenge a player by NAME (or a bot level: bot:LEVEL) to RULESET; or list your "
                             "challenges (no arguments), or --accept, --decline or --cancel one by its id.")
    p.add_argument("to", nargs="?", help="a player's name, or bot:LEVEL (e.g. bot:greedy)")
    p.add_argument("ruleset", nargs="?", help="e.g. kingpin")
    p.add_argument("--option", metavar="KEY=VALUE", action="append", default=[],
                   help="a ruleset option; the value is parsed as JSON if it can be (repeatable)")
    p.add_argument("--seats", type=int, help="how many seats (default 2, or the ruleset's fewest)")
    p.add_argument("--visibility", choices=("public", "unlisted", "private"))
    answer = p.add_mutually_exclusive_group()
    answer.add_argument("--accept", metavar="ID", help="accept the challenge ID (prints the game and your token)")
    answer.add_argument("--decline", metavar="ID", help="decline the challenge ID")
    answer.add_argument("--cancel", metavar="ID", help="cancel the challenge ID you made")
    p.add_argument("--json", action="store_true")

    p = command("rulesets", "List the games the server hosts, with seat counts, options and bot levels.")
    p.add_argument("--json", action="store_true", help="print the raw JSON")

    p = command("create", "Create a game; prints its id and the human seats' tokens (shown only once).")
    p.add_argument("ruleset", help="e.g. kingpin")
    p.add_argument("--human", metavar="N", type=int, action=AddSeats, const="human", dest="seats",
                   help="add N human seats")
    p.add_argument("--bot", metavar="LEVEL", action=AddSeats, const="bot", dest="seats",
                   help="add a bot seat of that level (repeatable)")
    p.add_argument("--open", metavar="N", type=int, action=AddSeats, const="open", dest="seats",
                   help="add N open seats, claimable from the lobby")
    p.add_argument("--option", metavar="KEY=VALUE", action="append", default=[],
                   help="a ruleset option; the value is parsed as JSON if it can be (repeatable)")
    p.add_argument("--seed", help="fix the secret seed (only where the server's operator allows it: tests, "
                                  "tournaments)")
    p.add_argument("--contribution-seconds", type=int, metavar="N",
                   help="how long the game waits for the human seats' entropy before it starts (server default 30)")
    p.add_argument("--move-seconds", type=int, help="clock: seconds a human seat has per turn")
    p.add_argument("--response-seconds", type=int, help="clock: seconds to answer an out-of-turn window")
    p.add_argument("--timeouts-before-bot", type=int, help="clock: expiries before a bot takes the seat over")
    p.add_argument("--json", action="store_true", help="print the raw JSON answer")

    p = command("games", "The lobby: games newest first.")
    p.add_argument("--status", choices=["open", "active", "finished", "abandoned"])
    p.add_argument("--ruleset")
    p.add_argument("--offset", type=int, default=0)
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--json", action="store_true")

    p = command("claim", "Take an open seat; prints its token (shown only once).")
    p.add_argument("game")
    p.add_argument("seat", type=int)
    p.add_argument("--name", help="display name")
    p.add_argument("--entropy", metavar="TEXT", help=ENTROPY_HELP)
    p.add_argument("--json", action="store_true")

    p = command("contribute", "Add your seat's entropy to a game's seed before it starts (needs its token).")
    p.add_argument("game")
    p.add_argument("seat", type=int)
    p.add_argument("--entropy", metavar="TEXT", help=ENTROPY_HELP + " (default: 16 random bytes from this machine)")

    p = command("reclaim", "Take back your seat after the clock handed it to a bot (needs its token).")
    p.add_argument("game")
    p.add_argument("seat", type=int)

    p = command("show", "A game's status, version, whose turn, clocks and outcome.")
    p.add_argument("game")
    p.add_argument("--json", action="store_true", help="the full game document (with the view)")

    p = command("moves", "Your legal moves now, numbered for `move --pick`.")
    p.add_argument("game")
    p.add_argument("--json", action="store_true")

    p = command("move", "Send a command: JSON, `Type key=value ...`, or --pick N from `moves`.")
    p.add_argument("game")
    p.add_argument("words", nargs="*", metavar="COMMAND",
                   help="""'{"type": "PurchaseCard", "kind": "junkie200"}' or PurchaseCard kind=junkie200""")
    p.add_argument("--pick", type=int, metavar="N", help="send legal move number N (as listed by `moves`)")
    p.add_argument("--expect", type=int, metavar="VERSION",
                   help="the version you decided against (If-Match): a 409 if the game moved on, even if the "
                        "same command is still legal (without --expect, a --pick is resent when it is)")
    p.add_argument("--idempotency-key", help="default: a fresh random key")
    p.add_argument("--json", action="store_true")

    p = command("watch", "Follow a game live, one line per event, until it ends.")
    p.add_argument("game")
    p.add_argument("--after", type=int, default=0, help="start after this version (default: from the start)")
    p.add_argument("--json", action="store_true", help="print each event as a JSON line")

    p = command("export", "Download a finished game's history (JSON Lines).")
    p.add_argument("game")
    p.add_argument("-o", "--output", help="file to write (default: stdout)")

    p = command("verify", "Verify a history file on the server, or with --offline on this machine "
                          "(exit 0 valid and complete, 1 not).")
    p.add_argument("file", help="a .jsonl history, or - for stdin")
    p.add_argument("--json", action="store_true")
    p.add_argument("--offline", action="store_true",
                   help="verify with this package's own rules, without asking any server (the same verdict, word "
                        "for word, as POST /v1/replays)")
    p.add_argument("--expect-commitment", metavar="HEX",
                   help="the seed commitment you were shown when the game was created or you joined it (default: "
                        "the one this machine kept then, if any): another is refused, however well it verifies")
    p.add_argument("--origin", action="append", default=[], metavar="FILE",
                   help="with --offline, for a fork of a finished game: its original's history (repeat it for a "
                        "fork of a fork); the server finds the original by id itself")
    p.add_argument("--bots", choices=["fast", "all", "none"], default="fast",
                   help="with --offline: which bot moves to re-run from their seat's view and the bot key (fast: "
                        "all but the search levels, as the server does; all: the searches too, at what they cost "
                        "to play)")
    return parser


# ================================================================== output
def compact(value: Any, limit: int = 100) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def command_text(command: dict[str, Any]) -> str:
    args = " ".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in command.items() if k != "type")
    return f"{command.get('type')} {args}".rstrip()


def event_line(event: Event) -> str:
    return f"{event.version:>6}  {event.actor:<9} {event.type:<22} {compact(event.data)}"


def outcome_text(outcome: dict[str, Any] | None) -> str:
    if not outcome:
        return "-"
    if outcome.get("text"):  # the server's sentence, in the seats' names (every outcome served has one)
        return str(outcome["text"])
    winners = outcome.get("winners")
    parts = []
    if winners is not None:
        parts.append("winner" + ("s" if len(winners) != 1 else "") + ": " + (
            ", ".join(f"seat {w}" for w in winners) or "none"))
    if outcome.get("reason"):
        parts.append(str(outcome["reason"]))
    rest = {k: v for k, v in outcome.items() if k not in ("winners", "reason")}
    if rest:
        parts.append(compact(rest, 80))
    return "; ".join(parts) or compact(outcome)


def awaiting_text(game: Game) -> str:
    if not game.awaiting:
        return "nobody"
    now_ms = time.time() * 1000
    parts = []
    for seat, kind in sorted(game.awaiting.items()):
        text = f"seat {seat} ({kind})"
        if seat == game.you:
            text += " <- you"
        if seat in game.clocks:
            text += f" [{max(0, (game.clocks[seat] - now_ms) / 1000):.0f}s left]"
        parts.append(text)
    return ", ".join(parts)


def seat_text(seat: Seat) -> str:
    text = f"{seat.seat}:{seat.kind}"
    if seat.level:
        text += f"({seat.level})"
    if seat.name:
        text += f" {seat.name!r}"
    return text


def dump(value: Any, out: TextIO) -> None:
    print(json.dumps(value, indent=2), file=out)


# ================================================================= commands
def cmd_login(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    if bool(args.name) == bool(args.key):
        raise UsageError("give a NAME for a new player, or --key for a key you hold")
    if args.key:
        player = client.login(args.key).me()
        key = args.key
    else:
        player = client.create_player(args.name)
        key = player["key"]
    path = keep_player_key(client.base_url, key)
    print(f"player {player['name']} ({player['id']}); key kept in {path}", file=out)
    return EXIT_OK


def cmd_me(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    key = player_key_for(client.base_url)
    if not key:
        raise UsageError("no player key for this server: run `cartel login NAME` (or set $CARTEL_PLAYER_KEY)")
    player = client.with_token(key)
    me, games = player.me(), player.my_games(limit=args.limit)
    if args.json:
        dump({"player": me, **games}, out)
        return EXIT_OK
    print(f"{me['name']} ({me['id']})", file=out)
    for game in games["games"]:
        print(f"{game['id']}  {game['ruleset']:<18} {game['status']:<9} seat {game['seat']}  "
              f"{game.get('visibility', 'public')}", file=out)
    print(f"{games['total']} seat(s) bound to you", file=out)
    return EXIT_OK


def challenge_text(challenge: dict) -> str:
    to = challenge["challenged"]["name"] if challenge["challenged"] else f"bot:{challenge['bot']}"
    text = (f"{challenge['id']}  {challenge['challenger']['name']} -> {to}  {challenge['ruleset']:<18} "
            f"{challenge['status']}")
    return text + (f"  game {challenge['game_id']}" if challenge.get("game_id") else "")


def cmd_challenge(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    key = player_key_for(client.base_url)
    if not key:
        raise UsageError("no player key for this server: run `cartel login NAME` (or set $CARTEL_PLAYER_KEY)")
    player = client.with_token(key)
    answered = args.accept or args.decline or args.cancel
    if answered and (args.to or args.ruleset):
        raise UsageError("--accept, --decline and --cancel take a challenge's id alone")
    if answered:
        action = player.accept if args.accept else player.decline if args.decline else player.cancel_challenge
        result = action(answered)
    elif args.to and args.ruleset:
        to: Any = {"bot": args.to[4:]} if args.to.startswith("bot:") else args.to
        result = player.challenge(to, args.ruleset, options=parse_pairs(args.option, "option"), seats=args.seats,
                                  visibility=args.visibility)
    elif args.to:
        raise UsageError("give the RULESET too: cartel challenge NAME RULESET")
    else:
        challenges = player.my_challenges()
        if args.json:
            dump({"challenges": challenges}, out)
        for challenge in [] if args.json else challenges:
            print(challenge_text(challenge), file=out)
        return EXIT_OK
    if args.json:
        dump(result, out)
        return EXIT_OK
    print(challenge_text(result), file=out)
    if result.get("token"):
        print(f"seat {result['seat']} token: {result['token']}", file=out)
    return EXIT_OK


def cmd_rulesets(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    rulesets = client.rulesets()
    if args.json:
        dump([r.raw for r in rulesets], out)
        return EXIT_OK
    for r in rulesets:
        print(f"{r.name}: {r.title} ({r.min_seats}-{r.max_seats} seats; bots: {', '.join(r.bot_levels) or 'none'})",
              file=out)
        for name, option in r.options.items():
            choices = f" one of {option.choices}" if option.choices else ""
            print(f"  --option {name}=<value>  default {json.dumps(option.default)}{choices}", file=out)
            if option.description:
                print(f"      {option.description}", file=out)
    return EXIT_OK


def cmd_create(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    seats = getattr(args, "seats", None) or []
    if not seats:
        raise UsageError("give the seats: --human N, --bot LEVEL and/or --open N (in seat order)")
    clock = None
    if args.move_seconds or args.response_seconds or args.timeouts_before_bot:
        clock = ClockSpec(args.move_seconds, args.response_seconds, args.timeouts_before_bot)
    game = client.create_game(args.ruleset, seats, options=parse_pairs(args.option, "option"), seed=args.seed,
                              clock=clock, contribution_seconds=args.contribution_seconds)
    status = game.status
    if len(game.tokens) == 1 and game.raw.get("contributions"):  # one player: you; your entropy, from here
        ((seat, token),) = game.tokens.items()
        status = client.with_token(token).contribute(game.id, seat)["status"]
    if args.json:
        dump(game.raw, out)
        return EXIT_OK
    print(f"game {game.id}  ({game.ruleset}, status {status}, version {game.version})", file=out)
    for seat in game.seats:
        print(f"  seat {seat_text(seat)}" + (f"  token {seat.token}" if seat.token else ""), file=out)
    print(f"seed commitment {game.seed_commitment} (kept here: `cartel verify` holds its history to it)", file=out)
    if len(game.tokens) == 1:
        (token,) = game.tokens.values()
        print("Your entropy was added to its seed. The token is shown only once. To play your seat from this "
              "shell:", file=out)
        print(f"export CARTEL_TOKEN={token}", file=out)
    elif game.tokens:
        print("Tokens are shown only once: keep them (export CARTEL_TOKEN=<token> to play a seat). Each player adds "
              "their entropy with `cartel contribute GAME SEAT` (or their client does), or the game starts without "
              "it when its window closes.", file=out)
    return EXIT_OK


def cmd_games(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    lobby = client.games(status=args.status, ruleset=args.ruleset, offset=args.offset, limit=args.limit)
    if args.json:
        dump(lobby.raw, out)
        return EXIT_OK
    if not lobby.games:
        print("no games", file=out)
        return EXIT_OK
    print(f"{'id':<18}{'ruleset':<10}{'status':<10}{'version':>8}  seats", file=out)
    for g in lobby.games:
        seats = " ".join(seat_text(s) for s in g.seats)
        open_ = f"  open: {', '.join(map(str, g.open_seats))}" if g.open_seats else ""
        print(f"{g.id:<18}{g.ruleset:<10}{g.status:<10}{g.version:>8}  {seats}{open_}", file=out)
    shown_to = lobby.offset + len(lobby.games)
    if shown_to < lobby.total:
        print(f"({lobby.offset + 1}-{shown_to} of {lobby.total}; --offset {shown_to} for more)", file=out)
    return EXIT_OK


def cmd_claim(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    claimed = client.claim(args.game, args.seat, args.name, entropy=args.entropy)
    if args.json:
        dump(claimed.raw, out)
        return EXIT_OK
    print(f"seat {claimed.seat} of game {claimed.game_id}  token {claimed.token}", file=out)
    print(f"game status {claimed.status}, version {claimed.version}. The token is shown only once.", file=out)
    return EXIT_OK


def cmd_contribute(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    answer = client.contribute(args.game, args.seat, args.entropy)
    owed = (answer.get("contributions") or {}).get("owed") or []
    waiting = f"; waiting for seat(s) {', '.join(map(str, owed))}" if owed else ""
    print(f"seat {args.seat}'s entropy is in game {args.game}'s seed (status {answer['status']}{waiting}); "
          f"seed commitment {answer['seed_commitment']}", file=out)
    return EXIT_OK


def cmd_reclaim(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    back = client.reclaim(args.game, args.seat)
    print(f"seat {back.seat} of game {back.game_id} is yours again (version {back.version})", file=out)
    return EXIT_OK


def cmd_show(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    game = client.game(args.game)
    if args.json:
        dump(game.raw, out)
        return EXIT_OK
    print(f"game {game.id}  ({game.ruleset})", file=out)
    print(f"status   {game.status}", file=out)
    print(f"version  {game.version}", file=out)
    print(f"seats    {' '.join(seat_text(s) for s in game.seats)}", file=out)
    print(f"you      {'seat ' + str(game.you) if game.you is not None else 'spectator'}", file=out)
    if game.status == "open":
        print(f"open     {', '.join(map(str, game.open_seats))} (cartel claim {game.id} SEAT)", file=out)
    if not game.finished:
        print(f"turn     {awaiting_text(game)}", file=out)
    if game.legal_moves:
        print(f"moves    {len(game.legal_moves)} legal (cartel moves {game.id})", file=out)
    if game.finished:
        print(f"outcome  {outcome_text(game.outcome)}", file=out)
        if game.seed is not None:
            print(f"seed     {game.seed}", file=out)
    return EXIT_OK


def cmd_moves(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    game = client.game(args.game)
    if args.json:
        dump({"version": game.version, "legal_moves": game.legal_moves}, out)
        return EXIT_OK
    if game.you is None and not game.finished:
        # "0 legal moves" would read as if the game were stuck: the truth is that we hold no seat
        print(f"you hold no seat in game {game.id}: without a seat token you are a spectator. "
              f"Pass --token or set CARTEL_TOKEN to the token `cartel create` or `cartel claim` printed. "
              f"Now waiting for {awaiting_text(game)}.", file=out)
        return EXIT_OK
    if not game.legal_moves:
        print(f"no legal moves for seat {game.you} at version {game.version}; waiting for {awaiting_text(game)}"
              if not game.finished else f"the game is finished: {outcome_text(game.outcome)}", file=out)
        return EXIT_OK
    print(f"version {game.version}, seat {game.you}:", file=out)
    for number, move in enumerate(game.legal_moves, start=1):
        print(f"{number:>3}. {command_text(move)}", file=out)
    return EXIT_OK


def cmd_move(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    expected = args.expect
    if args.pick is not None:
        if args.words:
            raise UsageError("give either a command or --pick N, not both")
        game = client.game(args.game)
        if game.you is None:
            raise UsageError("you hold no seat in this game (a spectator has no moves to pick): "
                             "pass --token or set CARTEL_TOKEN")
        if not 1 <= args.pick <= len(game.legal_moves):
            raise UsageError(f"--pick {args.pick}: there are {len(game.legal_moves)} legal moves at version "
                             f"{game.version} (see `cartel moves {args.game}`)")
        command = game.legal_moves[args.pick - 1]
        # The pick was made against this version: do not let it apply to another.
        expected = game.version if expected is None else expected
    else:
        command = parse_command(args.words)
    # --expect is the caller's own word that the move holds only at that version: a 409, never a resend.
    # A --pick made against the version just read may go on if the same command is still legal.
    result = client.send(args.game, command, expected_version=expected, idempotency_key=args.idempotency_key,
                         resend_if_still_legal=0 if args.expect is not None else 3)
    if args.json:
        dump(result.raw, out)
        return EXIT_OK
    note = " (duplicate: the original answer, nothing appended)" if result.duplicate else ""
    print(f"sent {command_text(command)} -> version {result.version}, status {result.status}{note}", file=out)
    for event in result.events:
        print(event_line(event), file=out)
    return EXIT_OK


def cmd_watch(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    stream = client.follow(args.game, after=args.after)
    try:
        for event in stream:
            print(json.dumps(event.raw, separators=(",", ":")) if args.json else event_line(event), file=out,
                  flush=True)
    finally:
        stream.close()
    if not args.json:
        game = client.game(args.game)
        print(f"game over at version {game.version}: {outcome_text(game.outcome)}", file=out)
    return EXIT_OK


def cmd_export(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    if args.output and args.output != "-":
        written = client.export_history(args.game, args.output)
        print(f"wrote {written} bytes to {args.output}", file=sys.stderr)
    else:
        out.write(client.history(args.game))
        out.flush()
    return EXIT_OK


def read_file(name: str) -> bytes:
    """A history file's bytes (UsageError if it cannot be read)."""
    try:
        return Path(name).read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror or error}") from None


def cmd_verify(client: CartelClient, args: argparse.Namespace, out: TextIO) -> int:
    if args.file == "-":
        body = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    else:
        body = read_file(args.file)
    expected = args.expect_commitment
    if args.offline:
        origins = [read_file(name) for name in args.origin]
        result = verify_offline(body, args.bots, expected or client.commitments.get(history_game_id(body) or ""),
                                origins)
    else:
        result = client.verify(body, expected)
    if args.json:
        dump(result.raw, out)
        return EXIT_OK if result.valid and result.complete else EXIT_NEGATIVE
    if result.valid and result.complete:
        print(f"valid, complete: {result.events} events of {result.ruleset} verified to the game's end; "
              f"outcome {outcome_text(result.outcome)}", file=out)
    elif result.valid:  # a prefix: every event re-derives, but it is not the whole game
        print(f"valid, NOT COMPLETE: {result.events} events of {result.ruleset} verified, but {result.reason}",
              file=out)
    elif result.diverged_at is not None:
        print(f"INVALID, not complete: diverged at version {result.diverged_at}: {result.reason}", file=out)
    else:
        print(f"INVALID, not complete: {result.reason}", file=out)
    if result.unvouched:
        print(f"the header cannot vouch for: {', '.join(result.unvouched)}", file=out)
    moves = result.raw.get("bot_moves") or {}
    if moves.get("recorded"):
        print(f"bot moves re-derived: {moves['rederived']} of {moves['recorded']}"
              + (f" ({moves['not_rerun']} of a search level not re-run: --offline --bots all)"
                 if moves["not_rerun"] else ""), file=out)
    if result.seed_source == "fixed":
        print("the seed was fixed by the game's creator (seed_source: fixed): they could foresee every roll", file=out)
    # only the whole game verified is a yes: a prefix proves its events, not the game's end
    return EXIT_OK if result.valid and result.complete else EXIT_NEGATIVE


READ_ONLY = {"show", "moves", "watch"}
COMMANDS: dict[str, Callable[[CartelClient, argparse.Namespace, TextIO], int]] = {
    "login": cmd_login, "me": cmd_me, "challenge": cmd_challenge,
    "rulesets": cmd_rulesets, "create": cmd_create, "games": cmd_games, "claim": cmd_claim, "reclaim": cmd_reclaim,
    "contribute": cmd_contribute,
    "show": cmd_show,
    "moves": cmd_moves, "move": cmd_move, "watch": cmd_watch, "export": cmd_export, "verify": cmd_verify,
}


# ==================================================================== main
def main(argv: Sequence[str] | None = None) -> int:
    """Run `cartel`; returns the exit code (the console script passes it to sys.exit)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    url = args.url or os.environ.get("CARTEL_URL") or DEFAULT_URL
    token = args.token if args.token is not None else (os.environ.get("CARTEL_TOKEN") or None)
    out, err = sys.stdout, sys.stderr
    kept = KeptCommitments.load()
    client = CartelClient(url, token, timeout=args.timeout, commitments=kept)
    try:
        try:
            return COMMANDS[args.command](client, args, out)
        except Forbidden as error:
            # $CARTEL_TOKEN is for another game: read this one as a spectator rather than fail.
            if not (args.command in READ_ONLY and token and args.token is None
                    and error.kind == "token-not-for-this-game"):
                raise
            print("note: $CARTEL_TOKEN holds no seat in this game; reading it as a spectator", file=err)
            return COMMANDS[args.command](client.with_token(None), args, out)
    except UsageError as error:
        print(f"cartel {args.command}: error: {error}", file=err)
        return EXIT_ERROR
    except ProblemError as error:
        print(f"error: {error.status} {error.title}: {error.detail}", file=err)
        if error.rule:
            print(f"rule: {error.rule}", file=err)
        if error.version is not None:
            print(f"the game is now at version {error.version}", file=err)
        if isinstance(error.errors, dict):
            for field, messages in error.errors.items():
                print(f"  {field}: {messages}", file=err)
        if error.status in (429, 503):
            after = f" in {error.retry_after:.0f} s" if error.retry_after is not None else " later"
            print(f"(gave up after waiting and retrying; the server asks to try again{after})", file=err)
        return EXIT_ERROR
    except TransportError as error:
        print(f"error: {error}", file=err)
        if not error.reached:  # only then can the address be what is wrong
            print("(set --url or $CARTEL_URL to the server's address)", file=err)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
