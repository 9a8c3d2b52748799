"""Druglord Rule 1 Draw Region Cards (secret, simultaneous), Rule 2 Occupy, options."""
from __future__ import annotations

import pytest

from rules.base import BadCommand, Rng, redact
from tests.rules.druglord.support import D, first, legal, new_game, play, refused, types


def test_each_player_draws_five_in_secret_and_keeps_three():
    # Druglord 1: "all players draw 5 Region Cards, keeping the 3 best cards ... Cards are kept secret while Players
    # make their selections."
    events = D.setup({}, 3, Rng("s", 0))
    draws = [e for e in events if e.type == "RegionCardsDrawn"]
    assert [e.data["count"] for e in draws] == [5, 5, 5]
    for e in draws:
        assert D.visible_to(e) == {e.data["seat"]}
        other = (e.data["seat"] + 1) % 3
        assert "secret" not in redact(D, e, other).data and "secret" not in redact(D, e, None).data
        assert redact(D, e, e.data["seat"]).data["secret"]["regions"]
    assert D.visible_to(events[0]) == set()                           # deck orders: nobody
    state = new_game(3)
    assert len(legal(state, 0)) == 10                                 # C(5, 3)
    assert all(len(m["regions"]) == 3 for m in legal(state, 0))


def test_first_time_players_and_faster_play_draw_more():
    # Druglord 1: "First time players may draw 6 cards, keeping the best 3." Optional Rule A: "Starting players
    # draw six (6) Region Cards and keep the best four (4). New players may draw seven (7), keeping the best four."
    state = new_game(3, options={"new_players": [1]})
    assert [len(p["drawn"]) for p in state["players"]] == [5, 6, 5]
    fast = new_game(2, options={"faster_play": True, "new_players": [0]})
    assert [len(p["drawn"]) for p in fast["players"]] == [7, 6]
    assert [p["keep"] for p in fast["players"]] == [4, 4]
    assert len(legal(fast, 0)) == 35 and len(legal(fast, 1)) == 15


def test_the_choice_is_simultaneous_and_secret_until_everyone_has_chosen():
    # Druglord 1: "All starting player empires are revealed simultaneously."
    state = new_game(3)
    assert D.awaiting(state) == {0: "move", 1: "move", 2: "move"}
    move = legal(state, 1)[4]
    events, state = play(state, 1, move)
    assert types(events) == ["EmpireChosen"] and D.visible_to(events[0]) == {1}
    assert "secret" not in redact(D, events[0], 0).data
    assert D.awaiting(state) == {0: "move", 2: "move"}
    assert D.view(state, 0)["players"][1]["setup"] == {"drawn_count": 5, "chosen": True}
    assert D.view(state, 1)["players"][1]["setup"]["kept"] == move["regions"]
    refused(state, 1, legal(new_game(3), 1)[0], rule="1", match="already chose")
    _, state = play(state, 0, legal(state, 0)[0])
    events, state = play(state, 2, legal(state, 2)[0])
    reveal = first(events, "EmpiresRevealed")
    assert D.visible_to(events[1]) == "public"
    assert reveal["empires"][1] == move["regions"]
    assert types(events)[:5] == ["EmpireChosen", "EmpiresRevealed", "DeckShuffled", "TurnStarted", "LoadingStarted"]
    # Rule 2: "Select 1 Region Marker per Region Card. Place Region Markers on corresponding Regions"
    assert sorted(r for r, s in state["owner"].items() if s == 1) == sorted(move["regions"])
    assert len(state["deck"]) == 74 - 9                                # the 6 cards not kept went back, shuffled
    assert D.visible_to(first_event(events, "DeckShuffled")) == set()
    view = D.view(state, 2)["players"][1]
    assert view["score"] == 0 and view["score_markers"] == 1 and view["markers_free"] == 9  # 14 - 3 - 2
    # (version 3: the 2 markers a game to 20 can put on the racetrack are set aside)


def first_event(events, type_):
    return next(e for e in events if e.type == type_)


def test_keep_refusals_and_the_timeout_keeps_the_first_cards():
    # Druglord 1: keep exactly 3 of the cards you drew.
    state = new_game(2)
    drawn = state["players"][0]["drawn"]
    refused(state, 0, {"type": "KeepRegions", "regions": drawn[:2]}, rule="1", match="exactly 3")
    other = state["players"][1]["drawn"][0]
    refused(state, 0, {"type": "KeepRegions", "regions": drawn[:2] + [other]}, rule="1", match="did not draw")
    assert D.on_timeout(state, 0) == {"type": "KeepRegions", "regions": drawn[:3]}
    # any order is the same choice
    _, after = play(state, 0, {"type": "KeepRegions", "regions": list(reversed(drawn[:3]))})
    assert after["players"][0]["kept"] == drawn[:3]


def test_options_are_checked():
    # Druglord: 2-6 players; option values.
    with pytest.raises(BadCommand):
        D.setup({"new_players": [5]}, 3, Rng("x", 0))
    with pytest.raises(BadCommand):
        D.setup({"new_players": 2}, 3, Rng("x", 0))
    with pytest.raises(BadCommand):
        D.setup({"game_to": 30}, 3, Rng("x", 0))
    with pytest.raises(BadCommand):
        D.setup({}, 1, Rng("x", 0))
    assert D.setup({"game_to": 40, "california_style": True}, 2, Rng("x", 0))[0].data["options"]["game_to"] == 40
