"""Druglord hidden information: setup draws and choices, Baller hands and the deck orders never reach
another seat, through views or the redacted event feed."""
from __future__ import annotations

import json

import pytest

from rules.base import Rng, fold, redact
from tests.rules.druglord.support import D

SECRET_EVENTS = {"RegionCardsDrawn", "EmpireChosen", "BallerDrawn"}


def playout(seats: int, seed: str, limit: int = 4000):
    """A random game: (all events, states after each command)."""
    events = D.setup({}, seats, Rng(seed, 0))
    state = fold(D, events)
    states = [state]
    for version in range(1, limit):
        if D.outcome(state) is not None:
            break
        picker = Rng(seed + "/bots", version)
        seat = picker.choice(sorted(D.awaiting(state)))
        new = D.decide(state, seat, D.bot_move(state, seat, "random", picker), Rng(seed, version))
        events += new
        state = fold(D, new, state)
        states.append(state)
    return events, states


def _keys(value, found=None):
    found = set() if found is None else found
    if isinstance(value, dict):
        for k, v in value.items():
            found.add(k)
            _keys(v, found)
    elif isinstance(value, list):
        for v in value:
            _keys(v, found)
    return found


@pytest.mark.parametrize("seats", [2, 4])
def test_no_seat_reads_another_seats_cards(seats):
    # Druglord 1: "Cards are kept secret while Players make their selections." 11: a drawn Baller card "may be held".
    events, states = playout(seats, f"secrets-{seats}")
    for event in events:
        audience = D.visible_to(event)
        if event.type in SECRET_EVENTS:
            assert audience == {event.data["seat"]}
        if "secret" in event.data:
            for viewer in [None, *range(seats)]:
                shown = redact(D, event, viewer).data
                assert ("secret" in shown) == (viewer is not None and viewer in audience)
        else:
            assert audience == "public"
    hands_seen = 0
    for state in states[::5]:
        for viewer in [None, *range(seats)]:
            view = D.view(state, viewer)
            assert not {"deck", "baller_deck", "drawn_order"} & _keys(view)
            for player in view["players"]:
                if player["seat"] != viewer:
                    assert "hand" not in player
                    assert player["setup"] is None or set(player["setup"]) == {"drawn_count", "chosen"}
                else:
                    hands_seen += "hand" in player
            json.dumps(view)
    assert hands_seen


def test_public_parts_of_secret_events_do_not_depend_on_the_card():
    # Druglord 11: what others learn from a Baller draw is that a card was drawn, nothing more.
    events, _ = playout(3, "secret-shape")
    draws = [redact(D, e, None).data for e in events if e.type == "BallerDrawn"]
    assert draws and all(set(d) == {"seat", "keep_open"} for d in draws)
    setup = [redact(D, e, None).data for e in events if e.type == "RegionCardsDrawn"]
    assert all(set(d) == {"seat", "count"} for d in setup)


def test_spectators_see_the_public_table():
    _, states = playout(2, "spectator", limit=300)
    view = D.view(states[-1], None)
    assert view["you"] is None and "regions" in view and "supply" in view
    assert sum(view["supply"].values()) <= 176
