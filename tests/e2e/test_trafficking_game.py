"""Trafficking over HTTP on gunicorn + RQ worker + redis-server processes: one human Dealer (this test,
through the SDK), a greedy bot Narc and four bot Dealers, to the end of the game; the feed shows a deal
between Dealers (offer, then accept) and an Airport Customs interrogation (the Dealer's hidden hand and the
Narc's guess, revealed together); the history is exported and verified.

The human steers toward both: it takes a Blitz Cab to Airport Customs while it holds Lids, or else to a
square where another Dealer stands, offers that Dealer a Lid, accepts every offer, and buys Lids so that
it has some.  Deals and interrogations among the bots count too.  A seed whose roll makes the human the
Narc is skipped (the roll for the Narc is the game's, 3c), and so is a game in which either never happened.
"""
from __future__ import annotations

import time

from clients.sdk import CartelClient, SeatSpec

COP_SHOPS = {"cop-shop-north", "cop-shop-east", "cop-shop-south", "cop-shop-west"}
BOTS = ("greedy", "random", "greedy", "random", "greedy")   # seat 1 .. 5; the roll decides who is the Narc


def human_move(view: dict, moves: list[dict], me: int) -> dict:
    """The human Dealer's choice from its view and legal moves."""
    by: dict[str, list[dict]] = {}
    for m in moves:
        by.setdefault(m["type"], []).append(m)
    mine = view["players"][me]
    if "AcceptOffer" in by:
        return by["AcceptOffer"][0]
    if "TakeCab" in by:
        narc_at = view["players"][view["narc"]]["square"]
        others = {p["square"] for p in view["players"]
                  if p["role"] == "dealer" and p["out"] is None and p["seat"] != me} - COP_SHOPS - {"airport-customs"}
        wanted = ["airport-customs"] if mine["lids"] else []
        rides = [m for m in by["TakeCab"] if m["to"] in wanted] or \
                [m for m in by["TakeCab"] if m["to"] in others and m["to"] != narc_at]
        if rides:
            return rides[0]
    if "MakeOffer" in by:
        offer = by["MakeOffer"][0]
        if mine["lids"]:
            return {**offer, "terms": {"direction": "sell", "lids": 1, "price": 0}}
        return offer
    for kind in ("Buy", "SellLids", "Roll", "ChooseDealer", "HideLids", "Move", "EndTurn", "DeclineOffer"):
        if kind in by:
            return by[kind][0]
    return moves[0]


def play_to_the_end(lobby: CartelClient, me: CartelClient, game_id: str, limit: float = 240) -> None:
    deadline = time.monotonic() + limit
    game = me.game(game_id)
    while not game.finished:
        assert time.monotonic() < deadline, f"still running at version {game.version}"
        if game.my_turn and game.legal_moves:
            me.send_fresh(game_id, lambda g: human_move(g.view, g.legal_moves, 0) if g.legal_moves else None)
            game = me.game(game_id)
        else:
            game = me.game_if_changed(game_id, game.version) or game
            time.sleep(0.02)


def test_a_human_dealer_against_a_bot_narc_and_bot_dealers_deals_clears_customs_and_verifies(live_server, tmp_path):
    lobby = CartelClient(live_server.url)
    for attempt in range(6):
        created = lobby.create_game("trafficking", [SeatSpec.human("dealer")] + [SeatSpec.bot(b) for b in BOTS],
                                    seed=f"e2e-trafficking-{attempt}")
        me = lobby.with_token(created.tokens[0])
        narc = me.game(created.id).view["narc"]
        if narc == 0:
            continue
        play_to_the_end(lobby, me, created.id)
        events = list(lobby.iter_events(created.id))
        types = [e.type for e in events]
        if "DealMade" in types and "CustomsCleared" in types:
            break
    else:
        raise AssertionError("no seeded game had both a deal between Dealers and an Airport Customs guess")

    # a deal between Dealers: offered by one Dealer, accepted by the other, Lids and cash changing hands
    deal = next(e for e in events if e.type == "DealMade")
    accepted = next(e for e in reversed(events[:events.index(deal)]) if e.type == "OfferAccepted")
    assert {accepted.data["from"], accepted.data["to"]} == {deal.data["seller"], deal.data["buyer"]}
    assert narc not in (deal.data["seller"], deal.data["buyer"])
    # Airport Customs: the Dealer's hand and the Narc's guess (the bot Narc's), revealed together
    cleared = next(e for e in events if e.type == "CustomsCleared")
    before = events[:events.index(cleared)]
    guess = next(e for e in reversed(before) if e.type == "HandChosen")
    hidden = next(e for e in reversed(before) if e.type == "LidsHidden")
    assert guess.actor == f"bot:{narc}" and hidden.data["seat"] == cleared.data["dealer"]
    assert cleared.data["caught"] == (cleared.data["hidden"] == cleared.data["guess"])
    # the human played, the game ended, and its history verifies
    game = lobby.game(created.id)
    assert any(e.actor == "seat:0" for e in events) and game.raw["outcome"]["winners"]
    path = tmp_path / "trafficking.jsonl"
    assert me.export_history(created.id, path) > 0
    verdict = lobby.verify(path)
    assert verdict.valid and verdict.events == game.version, (verdict.diverged_at, verdict.reason)
