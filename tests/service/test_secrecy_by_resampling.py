"""No seat reads what it cannot see, proven by resampling (issue 34 item 7), for every ruleset that declares
hidden information (`hidden_information`), over random playouts of whole games.

For every seat and a spectator, at positions along each game, everything the reader can read (its view,
legal moves and their labels, the awaited seats, the game document and the live stream's turn message as
service/presenters.py and service/sse.py build them, the detail of a command refused) is compared between
the true state and states `determinize(state, seat, rng)` resampled where the reader cannot see: they must
be identical.  Events, which resampling a state cannot reach, are compared as transitions: each command of
the game is decided again, with the same stream, in the resampled states, and again in the true state with
one draw of its stream changed; whenever two runs leave the reader's view the same, the reader must be told
the same events (redacted for it, with their sentences).  An event may tell a seat no more than its view
after it: a public part that copies the dice under a cup, or the card a resampled deck would have dealt,
fails.  tests/support/secrecy.py holds the check and says more; tests/support/hidden_dice.py is a small game
with hidden dice and the planted leaks the check must find (the string-matching test this replaces passed a
game whose labels and events told every player's dice: numbers are not 3-character strings).

The service part plays games over HTTP against a real redis-server and requires that what the service
serves a seat (its game document, the stream's first turn message) is what the same code gives from the
game resampled where the seat cannot see, and that the seed shows nowhere before the end; a fork of a
finished game (whose start event holds every seat's re-dealt hidden parts) is checked the same way.
"""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

from events import forks
from events.repository import redact_envelope
from rules import EVERY_RULESET, RULESETS
from rules.base import PUBLIC, Rng, normalize_options
from rules.bot_seat import bot_key
from rules.narration import Names
from rules.ruleset import adopt
from service import create_app
from service.analysis import analysed
from service.presenters import game_document
from service.sse import turn_message
from tests.service.conftest import bearer
from tests.support.hidden_dice import HONEST, LEAKY_BID, LEAKY_LABEL, LEAKY_ROLL
from tests.support.secrecy import Plan, check_secrecy
from tests.support.settings import TEST_SETTINGS

HIDDEN = sorted(name for name, ruleset in EVERY_RULESET.items() if adopt(ruleset).hidden_information)
# options that change what is hidden or said: every other game of a ruleset plays them
VARIANTS = {"narcos": {"mode": "advanced"}, "trafficking": {"lending": True},
            "druglord": {"faster_play": True, "california_style": True, "new_players": [0]}}
# The default run: two games of each ruleset (its defaults at three seats, its variant at four), the first 400
# commands of each (a Narcos or Lords of Cannabis game ends sooner, a Druglord game runs to 1,000-2,000), the
# states compared at every 5th command, every command's transitions: 1-3 s a ruleset on this 2-core machine
# when idle.  The soak (`-m soak`): six whole games, every other state, more resamples and changed draws.
QUICK = Plan(games=2, max_commands=400, every=5, twins=1, redraws=1)
LONG = Plan(games=6, max_commands=3000, every=2, twins=2, redraws=3)


def plan_for(name: str, plan: Plan) -> Plan:
    """The plan with the ruleset's variant every other game, at three seats and four (or what it is played by):
    at two, more of the table can be worked out (Lords of Cannabis: the public bank tells each what the other
    holds)."""
    ruleset = EVERY_RULESET[name]
    seats = tuple(max(ruleset.min_seats, min(ruleset.max_seats, n)) for n in (3, 4))
    return dataclasses.replace(plan, options=({}, VARIANTS.get(name, {})), seats=seats)


def test_the_games_with_hidden_information_are_read_from_their_declarations():
    assert HIDDEN, "no ruleset declares hidden information: the secrecy test would check nothing"
    assert "pig" not in HIDDEN  # the example game hides nothing (a ruleset that says so must determinize:
    # rules/ruleset.py checks it when the class is made)


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_a_game_whose_events_keep_secrets_declares_hidden_information(name):
    """The games to resample are found by their declaration: one that kept secrets without saying so would
    escape the check."""
    ruleset = adopt(EVERY_RULESET[name])
    events = ruleset.setup({}, ruleset.min_seats, Rng(name, 1))
    state, secret = ruleset.fold(None, events), False
    for step in range(300):
        secret |= any("secret" in e.data and ruleset.visible_to(e) != PUBLIC for e in events)
        if secret or not ruleset.awaiting(state):
            break
        seat = min(ruleset.awaiting(state))
        events = ruleset.decide(state, seat, ruleset.bot_move(state, seat, "random", Rng(name, f"bot:{step}")),
                                Rng(name, step + 2))
        state = ruleset.fold(state, events)
    assert secret == ruleset.hidden_information, f"{name} keeps secrets: {secret}; declares them: " \
                                                 f"{ruleset.hidden_information}"


@pytest.mark.parametrize("name", HIDDEN)
def test_no_seat_reads_what_it_cannot_see(name):
    tally = check_secrecy(name, EVERY_RULESET[name], plan_for(name, QUICK))
    # it compared states, resampled transitions and changed draws, over many kinds of command
    assert tally.states > 100 and tally.resampled > 100 and tally.redrawn > 5, tally
    assert len(tally.kinds) >= min(9, len(EVERY_RULESET[name].commands)), tally


@pytest.mark.soak
@pytest.mark.parametrize("name", HIDDEN)
def test_no_seat_reads_what_it_cannot_see_over_many_games(name):
    tally = check_secrecy(name, EVERY_RULESET[name], plan_for(name, LONG))
    assert tally.states > 1000 and tally.resampled > 1000, tally


# ------------------------------------------------------------------ the leaks it finds
def test_an_honest_game_with_hidden_dice_passes():
    tally = check_secrecy("hidden_dice", HONEST, Plan(games=3))
    assert tally.states and tally.resampled and tally.redrawn and tally.kinds == {"Bid", "Call"}


def test_a_label_that_reads_the_dice_under_the_cups_fails():
    with pytest.raises(AssertionError, match="reads different move labels in the true state and in one resampled"):
        check_secrecy("leaky_label", LEAKY_LABEL, Plan(games=3))


def test_a_roll_whose_dice_are_in_the_events_public_part_fails():
    # a fresh roll: the same stream deals the same dice in every resample, so only a changed draw shows it
    with pytest.raises(AssertionError, match=r"with draw \d+ of its stream changed, .* told different events"):
        check_secrecy("leaky_roll", LEAKY_ROLL, Plan(games=3))


def test_a_bid_whose_public_part_tells_what_the_cups_hold_fails():
    with pytest.raises(AssertionError, match="decided in a state resampled where it cannot see, .* told different"):
        check_secrecy("leaky_bid", LEAKY_BID, Plan(games=3))


def test_a_real_games_label_that_tells_a_hidden_number_fails(monkeypatch):
    """A Lords of Cannabis label that reaches around its view for how many Stash cards the next player holds of
    one resource (a number: the string-matching test this replaces could not see it)."""
    cannabis = RULESETS["lords_of_cannabis"]
    legal_moves, label = cannabis.legal_moves, cannabis.label
    true = {}

    def remembering(state, seat):
        true["state"] = state
        return legal_moves(state, seat)

    def telling(view, seat, move, names=Names()):
        after = (seat + 1) % len(view["players"])
        return f"{label(view, seat, move, names)} ({names(after)} holds {true['state']['hands'][after][4]} SOIL)"

    monkeypatch.setattr(cannabis, "legal_moves", remembering)
    monkeypatch.setattr(cannabis, "label", telling)
    with pytest.raises(AssertionError, match="reads different move labels") as found:
        # three seats: with two, the bank (public) tells each what the other holds
        check_secrecy("lords_of_cannabis", cannabis, Plan(games=1, seats=(3,), every=1))
    assert " SOIL)" in str(found.value)


def telling_the_peek(events):
    return [dataclasses.replace(e, data={**e.data, "card": e.data["secret"]["card"]}) if e.type == "CardPeeked"
            else e for e in events]


class NarcosTellingThePeek(type(RULESETS["narcos"])):
    """Narcos whose Snitch tells everyone, in the event's public part, which card the seat looked at (its
    handlers' and automatic steps' events: the base's machinery is not a game's to override)."""

    handlers = {kind: (lambda handler: lambda *args: telling_the_peek(handler(*args)))(handler)
                for kind, handler in RULESETS["narcos"].handlers.items()}

    def step(self, state, rng):
        return telling_the_peek(super().step(state, rng))


def test_a_real_games_event_that_tells_a_secret_in_its_public_part_fails():
    with pytest.raises(AssertionError, match="told different events"):
        check_secrecy("narcos", NarcosTellingThePeek(), plan_for("narcos", QUICK))


# ------------------------------------------------------------------ what the service serves
COMMANDS = 60
CHECK_EVERY = 20


def served_turn_message(client, game_id: str, token: str) -> str:
    """The live stream's first message after `retry`: the reader's turn state as the game stands."""
    response = client.get(f"/v1/games/{game_id}/events?after=0", headers={**bearer(token), "Accept": "text/event-stream"},
                          buffered=False)
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: turn" in text and text.rstrip("\n").endswith("}"):
            break
    response.close()
    return next(block + "\n\n" for block in text.split("\n\n") if block.startswith("event: turn"))


def everything(client, game_id: str, token: str, version: int) -> str:
    headers = bearer(token)
    base = f"/v1/games/{game_id}"
    return "\n".join(client.get(url, headers=headers).get_data(as_text=True) for url in (
        base, f"{base}/events?after=0&limit=500", f"{base}/state?version={version}", f"{base}/history"))


@pytest.fixture
def app(redis_server, redis_client):
    """The service with the examples served too (as CARTEL_EXTRA_RULESETS serves them): every game that
    declares hidden information is checked through the service."""
    app = create_app({"REDIS_URL": redis_server.url, "RULESETS": EVERY_RULESET, "TESTING": True, **TEST_SETTINGS})
    yield app
    app.extensions["cartel"].hub.close()


@pytest.mark.parametrize("name", HIDDEN)
def test_what_the_service_serves_a_seat_is_what_the_game_resampled_where_it_cannot_see_gives(app, client, name):
    ruleset = EVERY_RULESET[name]
    seats = max(ruleset.min_seats, min(3, ruleset.max_seats))
    created = client.post("/v1/games", json={"ruleset": name, "seed": f"served-{name}", "seats": [
        {"kind": "human", "name": n} for n in ("Ana", "Bo", "Cy")[:seats]]})  # a fixed seed: the tests' setting
    assert created.status_code == 201, created.get_data(as_text=True)
    game_id, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    runner, choose, compared = app.extensions["cartel"].runner, random.Random(name), 0
    for step in range(COMMANDS + 1):
        game = runner.load(game_id)
        if game.ended:
            break
        if step % CHECK_EVERY == 0:
            for seat, token in enumerate(tokens):
                served = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
                stream = served_turn_message(client, game_id, token)
                assert served == json.loads(json.dumps(game_document(game, seat, 0)))
                assert stream == turn_message(game, seat, [seat])  # its own stream: the seat is followed
                for k in range(2):
                    twin = dataclasses.replace(game, state=ruleset.determinize(game.state, seat, Rng(name, f"{step}:{k}")))
                    assert served == json.loads(json.dumps(game_document(twin, seat, 0))), f"seat {seat}'s document"
                    assert stream == turn_message(twin, seat, [seat]), f"seat {seat}'s stream turn message"
                    compared += twin.state != game.state
                assert game.seed not in everything(client, game_id, token, game.version)
        seat = choose.choice(sorted(game.awaiting()))
        moves = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[seat])).json["legal_moves"]
        answer = client.post(f"/v1/games/{game_id}/commands", json=choose.choice(moves), headers=bearer(tokens[seat]))
        assert answer.status_code == 200, answer.get_data(as_text=True)
    assert compared, f"{name}: no resample differed from the true state: the comparison proved nothing"


# ------------------------------------------------------------------ analyses (issue 39 item 4)
# An analysis (service/analysis.py `analysed`, what the worker's job answers) is the served search's: the seat's
# world (its view, the rest resampled with the bot key's stream), searched with the bot's stream at a fixed budget,
# labelled from its view.  So, with the bot key fixed, it is a function of what the seat may know: the analysis of
# the true state and of every state resampled where the seat cannot see must be identical, byte for byte.  The
# served budget is the ruleset's `search_settings.iterations`; the same code at a small budget keeps this cheap.
ANALYSIS_BUDGET = 12
ANALYSIS_POSITIONS = 3  # positions a ruleset, a few commands apart
ANALYSIS_TWINS = 2


def analysis_positions(name: str, seed: str = "analysis"):
    """(state, seat, version) of the first ANALYSIS_POSITIONS states of a random game, every 7th command after
    the 10th, whose awaited seat has a choice."""
    ruleset = adopt(EVERY_RULESET[name])
    seats = max(ruleset.min_seats, min(3, ruleset.max_seats))
    events = ruleset.setup(normalize_options(ruleset.options, None), seats, Rng(seed, 1))
    state, version, found = ruleset.fold(None, events), 1 + len(events), []
    for step in range(2000):
        if ruleset.outcome(state) is not None or len(found) == ANALYSIS_POSITIONS:
            break
        seat = min(ruleset.awaiting(state))
        if step >= 10 and step % 7 == 0 and len(ruleset.legal_moves(state, seat)) > 1:
            found.append((state, seat, version))
        events = ruleset.decide(state, seat, ruleset.bot_move(state, seat, "random", Rng(seed, f"bot:{step}")),
                                Rng(seed, version + 1))
        state, version = ruleset.fold(state, events), version + len(events)
    assert found, f"{name}: no position with a choice"
    return found


def analyses_compared(name: str, resample=None) -> tuple[int, int]:
    """(twins that differed from the true state, analyses that differed from the true state's); the twins
    made by `resample` (by default the ruleset's `determinize`)."""
    ruleset, key = EVERY_RULESET[name], bot_key(f"analysis-{name}")
    resample = resample or adopt(ruleset).determinize
    resampled = told_otherwise = 0
    for state, seat, version in analysis_positions(name):
        told = analysed(ruleset, state, seat, Names(), key, version, ANALYSIS_BUDGET)
        for k in range(ANALYSIS_TWINS):
            twin = resample(state, seat, Rng(name, f"twin:{version}:{k}"))
            resampled += twin != state
            told_otherwise += analysed(ruleset, twin, seat, Names(), key, version, ANALYSIS_BUDGET) != told
    return resampled, told_otherwise


@pytest.mark.parametrize("name", HIDDEN)
def test_a_live_seats_analysis_is_the_same_whatever_it_cannot_see(name):
    resampled, told_otherwise = analyses_compared(name)
    assert resampled, f"{name}: no resample differed from the true state: the comparison proved nothing"
    assert told_otherwise == 0, f"{name}: {told_otherwise} analyses told the seat something it cannot see"


def test_an_analysis_that_searches_the_true_state_fails(monkeypatch):
    """The check finds a search that plays the true state: here a game whose `determinize` hands back what it is
    given (the others' cards and the deck order as they are), so neither the seat's world nor the search's own
    determinizations resample anything, and its values and visits follow what the seat cannot see."""
    narcos = RULESETS["narcos"]
    resample = narcos.determinize
    monkeypatch.setattr(narcos, "determinize", lambda state, seat, rng: state)
    resampled, told_otherwise = analyses_compared("narcos", resample)
    assert resampled and told_otherwise


# ------------------------------------------------------------------ a fork of a finished game (issue 39 item 5)
def finished_with_a_position(client, name: str, seats: int) -> tuple[str, int]:
    """A game played 12 random commands (its version then: a position of the game in play), then a few more,
    then ended by every seat but the last resigning."""
    created = client.post("/v1/games", json={"ruleset": name, "seed": f"original-{name}",
                                             "seats": [{"kind": "human"}] * seats})
    assert created.status_code == 201, created.get_data(as_text=True)
    game_id, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    choose, position = random.Random(name), None
    for step in range(15):
        docs = [client.get(f"/v1/games/{game_id}", headers=bearer(t)).json for t in tokens]
        if step == 12:
            position = docs[0]["version"]
        seat = choose.choice([s for s, doc in enumerate(docs) if doc["legal_moves"]])
        answer = client.post(f"/v1/games/{game_id}/commands", json=choose.choice(docs[seat]["legal_moves"]),
                             headers=bearer(tokens[seat]))
        assert answer.status_code == 200, answer.get_data(as_text=True)
    for seat in range(seats - 1):
        assert client.post(f"/v1/games/{game_id}/seats/{seat}/resign", headers=bearer(tokens[seat])).status_code == 200
    return game_id, position


@pytest.mark.parametrize("name", HIDDEN)
def test_a_fork_serves_each_seat_only_what_the_fork_resampled_where_it_cannot_see_gives(app, client, name):
    """A fork's start holds every seat's re-dealt hidden parts (ForkDealt): what the service serves a seat of it
    (its document, its stream's turn message, the event feed, the events' sentences) is the same whatever the
    re-deal gave where the seat cannot see, and the fork's seed shows nowhere."""
    ruleset = EVERY_RULESET[name]
    seats = max(ruleset.min_seats, min(3, ruleset.max_seats))
    original, position = finished_with_a_position(client, name, seats)
    created = client.post("/v1/games", json={"ruleset": name, "from": {"game": original, "version": position},
                                             "seed": f"fork-{name}",
                                             "seats": [{"kind": "human"}] * seats})
    assert created.status_code == 201, created.get_data(as_text=True)
    game_id, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    runner, compared = app.extensions["cartel"].runner, 0
    game, at = runner.load(game_id), runner.load(original, version=position)
    assert game.state != at.state, f"{name}: the fork kept the original's hidden parts"
    redealt = forks.dealt(ruleset, at.state, "another seed")[0]  # what another fork seed would have dealt
    for seat, token in enumerate(tokens):
        served = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
        stream = served_turn_message(client, game_id, token)
        feed = client.get(f"/v1/games/{game_id}/events?after=0", headers=bearer(token)).json["events"]
        assert served == json.loads(json.dumps(game_document(game, seat, 0)))
        for k in range(2):
            twin = dataclasses.replace(game, state=ruleset.determinize(game.state, seat, Rng(name, f"fork:{k}")))
            assert served == json.loads(json.dumps(game_document(twin, seat, 0))), f"seat {seat}'s document"
            assert stream == turn_message(twin, seat, [seat]), f"seat {seat}'s stream turn message"
            compared += twin.state != game.state
        dealt = next(e for e in runner.store.read_all(game_id) if e.type == forks.FORK_DEALT)
        other = dataclasses.replace(dealt, data=redealt.data)
        assert [e for e in feed if e["type"] == forks.FORK_DEALT] == [
            json.loads(json.dumps(redact_envelope(ruleset, e, seat, game.names))) for e in (dealt, other)][:1]
        assert redact_envelope(ruleset, dealt, seat, game.names) == redact_envelope(ruleset, other, seat, game.names)
        assert game.seed not in everything(client, game_id, token, game.version)
    assert compared, f"{name}: no resample of the fork differed from its true state: the comparison proved nothing"
