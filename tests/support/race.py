"""A tiny ruleset for testing the engine without depending on a real game.

Seats take turns rolling one die and advance by it; first to `goal` wins.  At
setup every seat is dealt a secret number (to test redaction).  A roll of 6
opens a response window in which every other seat must `Acknowledge` (to test
several awaited seats and response clocks).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

from rules.base import BadCommand, Event, IllegalMove, Option, Rng


class Race:
    name = "race"
    title = "Race (engine test game)"
    min_seats, max_seats = 2, 4
    options = {"goal": Option(10, (5, 10, 30, 1000), "points to win")}
    bot_levels = ("random", "slow")

    def setup(self, options, seats, rng: Rng):
        # distinctive strings, so a test can search every response for them
        secrets_ = [f"card-{rng.randint(10**11, 10**12)}" for _ in range(seats)]
        return [Event("RaceStarted", {"seats": seats, "goal": options["goal"]})] + [
            Event("SecretDealt", {"seat": s, "secret": {"number": n}}) for s, n in enumerate(secrets_)
        ]

    def evolve(self, state, event):
        d = event.data
        if event.type == "RaceStarted":
            return {"seats": d["seats"], "goal": d["goal"], "score": [0] * d["seats"], "turn": 0,
                    "secret": [None] * d["seats"], "pending_ack": []}
        state = dict(state)
        if event.type == "SecretDealt":
            state["secret"] = list(state["secret"])
            state["secret"][d["seat"]] = d["secret"]["number"]
        elif event.type == "DieRolled":
            state["score"] = list(state["score"])
            state["score"][d["seat"]] += d["die"]
            if d["die"] == 6 and state["score"][d["seat"]] < state["goal"]:
                state["pending_ack"] = [s for s in range(state["seats"]) if s != d["seat"]]
            state["turn"] = (d["seat"] + 1) % state["seats"]
        elif event.type == "Acknowledged":
            state["pending_ack"] = [s for s in state["pending_ack"] if s != d["seat"]]
        elif event.type == "TurnPassed":
            state["turn"] = (d["seat"] + 1) % state["seats"]
        return state

    def decide(self, state, seat, command, rng):
        kind = command.get("type")
        if kind not in ("Roll", "Acknowledge", "Pass"):
            raise BadCommand(f"unknown command type {kind!r}")
        if kind not in {m["type"] for m in self.legal_moves(state, seat)}:
            raise IllegalMove(f"{kind} is not allowed now", rule="race 1")
        if kind == "Roll":
            return [Event("DieRolled", {"seat": seat, "die": rng.randint(1, 6)})]
        if kind == "Pass":
            return [Event("TurnPassed", {"seat": seat})]
        return [Event("Acknowledged", {"seat": seat})]

    def legal_moves(self, state, seat):
        if self.outcome(state):
            return []
        if state["pending_ack"]:
            return [{"type": "Acknowledge"}] if seat in state["pending_ack"] else []
        return [{"type": "Roll"}, {"type": "Pass"}] if seat == state["turn"] else []

    def awaiting(self, state):
        if self.outcome(state):
            return {}
        if state["pending_ack"]:
            return {s: "response" for s in state["pending_ack"]}
        return {state["turn"]: "move"}

    def on_timeout(self, state, seat):
        return {"type": "Acknowledge"} if state["pending_ack"] else {"type": "Pass"}

    def view(self, state, seat):
        return {"score": state["score"], "turn": state["turn"], "pending_ack": state["pending_ack"],
                "you": seat, "my_secret": state["secret"][seat] if seat is not None else None}

    def visible_to(self, event):
        return {event.data["seat"]} if event.type == "SecretDealt" else "public"

    def outcome(self, state):
        best = max(state["score"])
        if best < state["goal"]:
            return None
        return {"winners": [s for s, v in enumerate(state["score"]) if v == best], "reason": "goal reached"}

    def bot_move(self, state, seat, level, rng):
        if level == "slow":  # lets a test kill a worker in the middle of a bot's turn
            marker = os.environ.get("RACE_SLOW_MARKER")
            if marker:
                Path(marker).write_text(str(seat))
            time.sleep(float(os.environ.get("RACE_SLOW_SECONDS", "2")))
        moves = [m for m in self.legal_moves(state, seat) if m["type"] != "Pass"]
        return rng.choice(moves)


RACE = Race()
