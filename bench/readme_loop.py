"""The README's SDK loop at a Druglord table (issue 36 item 4): three seats, each a thread acting on every `turn`
message with `expected_version=turn.version`, as the README writes it; how many of the commands sent meet a
409. Druglord is the game where that loop conflicts most: its empire choice, Sway windows and answers await
several seats at once, so a turn message is often overtaken by another seat's move.

Two runs alternate on one service: the SDK as shipped (`Prefer: handling=lenient` when it would resend a
still-legal command anyway) and the same SDK with that header stripped on the wire (what it sent before).

    python -m bench.readme_loop [--games 2] [--game-to 20]

Prints commands sent, 409s and their share per run; writes bench/results/readme_loop.json.
"""
from __future__ import annotations

import argparse
import tempfile
import threading
from pathlib import Path

import requests
from requests.adapters import HTTPAdapter

from bench.common import redis_only, report, web_env
from clients.sdk import CartelClient, Conflict, SeatSpec
from tests.support.processes import running_service

SEATS = 3


class Counted(HTTPAdapter):
    """Counts command POSTs and their 409s; strips `Prefer` when asked (the SDK as it was before it sent it)."""

    def __init__(self, tally: dict, strip_prefer: bool):
        super().__init__()
        self.tally, self.strip_prefer = tally, strip_prefer

    def send(self, request, *args, **kwargs):
        if self.strip_prefer:
            request.headers.pop("Prefer", None)
        response = super().send(request, *args, **kwargs)
        if request.method == "POST" and request.url.endswith("/commands"):
            with LOCK:
                self.tally["sent"] += 1
                self.tally["conflicts"] += response.status_code == 409
        return response


LOCK = threading.Lock()


def seat_loop(url: str, game_id: str, token: str, tally: dict, strip_prefer: bool) -> None:
    session = requests.Session()
    session.mount("http://", Counted(tally, strip_prefer))
    with CartelClient(url, token, session=session) as me:
        for turn in me.turns(game_id):  # the README's loop, as written
            if turn.my_turn:
                try:
                    me.send(game_id, turn.legal_moves[0], expected_version=turn.version)
                except Conflict:
                    pass


def one_game(url: str, game_to: int, strip_prefer: bool) -> dict:
    tally = {"sent": 0, "conflicts": 0}
    with CartelClient(url) as server:
        game = server.create_game("druglord", [SeatSpec.human(f"p{n}") for n in range(SEATS)],
                                  options={"game_to": game_to})
    threads = [threading.Thread(target=seat_loop, args=(url, game.id, token, tally, strip_prefer))
               for token in (game.tokens[n] for n in range(SEATS))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per run (default 2)")
    parser.add_argument("--game-to", type=int, default=20, help="Druglord's game_to option (default 20)")
    args = parser.parse_args()
    runs = {"shipped (Prefer: handling=lenient)": False, "without Prefer": True}
    totals = {name: {"sent": 0, "conflicts": 0} for name in runs}
    with tempfile.TemporaryDirectory(prefix="bench-readme-loop-") as tmp, redis_only(Path(tmp)) as redis_server:
        with running_service(redis_server.url, Path(tmp), env=web_env(CONTRIBUTION_SECONDS="0")) as web:
            for _ in range(args.games):
                for name, strip in runs.items():  # alternated: the machine's noise falls on both
                    tally = one_game(web.url, args.game_to, strip)
                    totals[name] = {k: totals[name][k] + tally[k] for k in tally}
    rows = [{"run": name, "games": args.games, "commands sent": t["sent"], "409s": t["conflicts"],
             "share": f"{t['conflicts'] / max(1, t['sent']):.1%}"} for name, t in totals.items()]
    report("readme_loop", rows, notes=["target (issue 36 item 4): at most 5% of sent commands conflict"])


if __name__ == "__main__":
    main()
