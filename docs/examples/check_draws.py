"""Check the draws of an exported Tabletop Cartel game, and what they decided, from docs/fairness.md alone.

    python3 docs/examples/check_draws.py HISTORY.jsonl[.gz] [VECTORS.json] [--expect-commitment HEX]
                                         [--inputs draw-inputs.json]

Standard library only, nothing imported from the project: a third party's check, written from the spec.
It checks the seed against its commitment (and, with --expect-commitment HEX, that commitment against the
one you kept when the game was created), mixes the effective seed from it and the players' entropy
(GameCreated's, SeatClaimed's and EntropyContributed's `entropy`, in order; the seed itself when there is
none), then:

1. the draws: every command's recorded draws (section 4): in format 5, each draw call's
   [label, [[bound, value], ...]] against the stream keyed by (effective seed, label), each label
   "<roller>/<kind>/<n>" with n counting that roller's calls of that kind from 0 without a gap, and the
   roller the command's own seat or "world" (or, a fork's start, the one stream "fork"); in format 4,
   [bound, value] pairs against the stream keyed by (effective seed, str(version));
2. the outcomes (section 3's table): every result field the table lists (dice, roll-offs and who won them,
   deck orders from their input lists, cards dealt off a shuffled deck, chips, picks) is the one the draws
   give, drawing each call as the table says on the stream it names; and the draws the history records
   for each command are exactly the calls the table makes for its events, none more, none fewer.  Formats
   1-3, which record no draws, are checked the same way, from the streams labelled by each command's
   version.  The input lists of the shuffles come with the spec: docs/examples/draw-inputs.json (--inputs).

With the test vectors (tests/data/rng-vectors.json) it first checks its own stream against them.
Exit 0: everything re-derives.  What the table says needs the rules' own state (how many dice a Kingpin
pool holds, the victim's hand a Lords of Cannabis card is stolen from) is what re-running the rules checks
(cartel verify --offline, POST /v1/replays); this script says how many such results it left to them.
"""
import gzip
import hashlib
import hmac
import json
import sys
from pathlib import Path

KEYED = "tabletop-cartel-history/5"
DRAWN = (KEYED, "tabletop-cartel-history/4")  # the formats whose commands record their draws
WORLD = "world"
FORK = "fork"  # the stream a fork's start is dealt from (section 2)
INPUTS = Path(__file__).with_name("draw-inputs.json")


class Stream:
    """docs/fairness.md section 2: an HMAC-SHA256 key, SHA-256 counter blocks, big-endian u64s."""

    def __init__(self, seed, label):
        self.key = hmac.new(seed.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).digest()
        self.block, self.left = 0, b""
        self.pairs = []  # [bound, value] of every randbelow, in order

    def u64(self):
        if not self.left:
            self.left = hashlib.sha256(self.key + self.block.to_bytes(8, "big")).digest()
            self.block += 1
        value, self.left = int.from_bytes(self.left[:8], "big"), self.left[8:]
        return value

    def randbelow(self, n):
        limit = 2**64 - 2**64 % n  # values at or above it are thrown away
        while True:
            value = self.u64()
            if value < limit:
                self.pairs.append([n, value % n])
                return value % n

    # section 2's draws built on randbelow
    def randint(self, a, b):
        return a + self.randbelow(b - a + 1)

    def choice(self, items):
        return items[self.randbelow(len(items))]

    def roll(self, count, faces=(1, 2, 3, 4, 5, 6)):
        return [faces[self.randbelow(len(faces))] for _ in range(count)]

    def shuffled(self, items):
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def effective_seed(seed, events):
    """docs/fairness.md section 1: HMAC-SHA256(seed, each contribution length-prefixed), or the seed."""
    parts = [e["data"]["entropy"].encode("utf-8") for e in events
             if e["type"] in ("GameCreated", "SeatClaimed", "EntropyContributed") and "entropy" in e["data"]]
    if not parts:
        return seed
    message = b"".join(len(part).to_bytes(8, "big") + part for part in parts)
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).hexdigest()


def check_vectors(path):
    vectors = json.load(open(path))
    for case in vectors.get("mixes", []):
        parts = [{"type": "SeatClaimed", "data": {"entropy": c}} for c in case["entropy"]]
        assert effective_seed(case["seed"], parts) == case["effective_seed"], case["entropy"]
        stream = Stream(case["effective_seed"], case["label"])
        assert [stream.randbelow(6) for _ in case["randbelow_6"]] == case["randbelow_6"], case["entropy"]
    cases = vectors["vectors"]
    for case in cases:
        stream = Stream(case["seed"], case["label"])
        assert [str(stream.u64()) for _ in case["u64"]] == case["u64"], case["label"]
        for n, values in case["randbelow"].items():
            stream = Stream(case["seed"], case["label"])
            assert [str(stream.randbelow(int(n))) for _ in values] == values, (case["label"], n)
    for case in vectors.get("draw_calls", []):  # section 2's draws, each on a fresh stream
        stream = Stream(case["seed"], case["label"])
        assert [getattr(stream, op["call"])(*op["args"]) for op in case["ops"]] == [op["result"] for op in case["ops"]]
        assert stream.pairs == case["draws"], case["label"]
    return len(cases)


def read(path):
    raw = open(path, "rb").read()
    text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def check_pairs(stream, pairs, where):
    """Why the [bound, value] pairs do not come out of `stream`, or None."""
    for k, (bound, value) in enumerate(pairs, start=1):
        if stream.randbelow(bound) != value:
            return f"{where}: draw {k}, randbelow({bound}) = {value}, does not re-derive"
    return None


def forked(events):
    """Whether the history is a fork of a finished game (its second event ForkedFrom: docs/fairness.md)."""
    return len(events) > 1 and events[1].get("type") == "ForkedFrom"


def check_draws(seed, events, keyed):
    """(what does not re-derive or None, commands checked, draws checked), from the effective seed."""
    commands = draws = 0
    counted = {}  # "<roller>/<kind>" -> the next n: no stream skipped, none used twice
    for event in events:
        if not event.get("draws"):
            continue
        commands += 1
        where = f"version {event['version']}"
        if not keyed:
            problem = check_pairs(Stream(seed, str(event["version"])), event["draws"], where)
            if problem:
                return problem, commands, draws
            draws += len(event["draws"])
            continue
        seat = event["actor"].partition(":")[2]  # "seat:2", "bot:2", "clock:2": seat 2's own draws
        for label, pairs in event["draws"]:
            if label == FORK and event.get("command", {}).get("type") == "StartGame" and forked(events):
                problem = check_pairs(Stream(seed, label), pairs, f"{where}, stream {label}")  # a fork's re-deal
                if problem:
                    return problem, commands, draws
                draws += len(pairs)
                continue
            roller, kind, n = label.rsplit("/", 2)
            if roller not in ("world", seat):
                return f"{where}: the stream {label} is neither the world's nor this command's seat's", commands, draws
            if int(n) != counted.get(f"{roller}/{kind}", 0):
                return (f"{where}: the stream {label} is out of turn (the next {roller}/{kind} is "
                        f"{counted.get(f'{roller}/{kind}', 0)})", commands, draws)
            counted[f"{roller}/{kind}"] = int(n) + 1
            problem = check_pairs(Stream(seed, label), pairs, f"{where}, stream {label}")
            if problem:
                return problem, commands, draws
            draws += len(pairs)
    return None, commands, draws


# ---------------------------------------------------------------------------------------------------------
# Section 3: the outcomes
# ---------------------------------------------------------------------------------------------------------

class Differs(Exception):
    """A result field that is not what the draws give."""


class Unknowable(Exception):
    """A draw whose bound only the rules' state knows, in a history that records no draws (formats 1-3):
    the rest of its command's draws cannot be followed from here."""


class Calls:
    """The draw calls of one command, made here as section 3's table says (roller, kind) for each result:
    in format 5 each call on a stream of its own, "<roller>/<kind>/<n>", n counted here across the game;
    before draw keys every call on the command's one stream, labelled by the version of its first event.
    `made` is what they drew, to compare with the draws the history records (formats 4 and 5)."""

    def __init__(self, seed, keyed, drawn=True):
        self.seed, self.keyed, self.drawn, self.counters = seed, keyed, drawn, {}

    def start(self, first):
        self.version = first["version"]
        self.seat = first.get("actor", "").partition(":")[2] or None  # "seat:2", "bot:2", "clock:2" -> "2"
        self.recorded = first.get("draws") or []
        self.made = []  # format 5: [label, pairs] of each call
        self.single = None if self.keyed else Stream(self.seed, str(self.version))

    def call(self, roller, kind):
        """The stream of the command's next draw call: roller "world", or "seat" (the command's own)."""
        if roller != WORLD and self.seat is None:
            raise Differs(f"version {self.version}: a seat's draw in a command no seat sent")
        if not self.keyed:
            return self.single
        key = f"{WORLD if roller == WORLD else self.seat}/{kind}"
        n = self.counters.get(key, 0)
        self.counters[key] = n + 1
        stream = Stream(self.seed, f"{key}/{n}")
        self.made.append([f"{key}/{n}", stream.pairs])
        return stream

    def recorded_bound(self, stream):
        """The bound of the next randbelow on `stream` as the history records it (a bound from the rules'
        state), or Unknowable when the history records no draws."""
        if not self.drawn:
            raise Unknowable()
        if self.keyed:
            pairs = next((p for label, p in self.recorded if label == self.made[-1][0]), [])
        else:
            pairs = self.recorded
        if len(stream.pairs) >= len(pairs):
            raise Differs(f"version {self.version}: a draw the table makes is not recorded")
        return pairs[len(stream.pairs)][0]

    def finish(self):
        """Why the recorded draws are not the calls made for the command's results, or None."""
        if not self.drawn:  # formats 1-3: nothing recorded to compare
            return None
        if not self.keyed:
            if self.recorded != self.single.pairs:
                return (f"version {self.version}: the history records the draws {self.recorded}, the results the "
                        f"table lists make {self.single.pairs}")
            return None
        for k, (want, got) in enumerate(zip(self.made, self.recorded), start=1):
            if want != got:
                return (f"version {self.version}: draw call {k} is recorded as {got[0]} {got[1]}, but the results "
                        f"the table lists give {want[0]} {want[1]}")
        if len(self.made) != len(self.recorded):
            longer = self.recorded if len(self.recorded) > len(self.made) else self.made
            return (f"version {self.version}: the history records {len(self.recorded)} draw calls, the results the "
                    f"table lists make {len(self.made)}: {[call[0] for call in longer]}")
        return None


def same(found, expected, what):
    if json.dumps(found, sort_keys=True) == json.dumps(expected, sort_keys=True):
        return
    if isinstance(found, list) and isinstance(expected, list) and len(found) == len(expected) > 6:
        at = next(i for i, (f, e) in enumerate(zip(found, expected)) if f != e)  # a long deck: where it differs
        what, found, expected = f"{what}[{at}]", found[at], expected[at]
    raise Differs(f"{what} is {json.dumps(found)}, but the draws give {json.dumps(expected)}")


def highest_of(rounds):
    """The winner of a roll-off whose rounds are [{"who": contenders, "dice": a die each}]: each round leaves the
    highest (ties roll again), which must be the next round's contenders."""
    for i, r in enumerate(rounds):
        left = [who for who, die in zip(r["who"], r["dice"]) if die == max(r["dice"])]
        if i + 1 < len(rounds):
            same(rounds[i + 1]["who"], left, f"round {i + 2}'s contenders")
        elif len(left) != 1:
            raise Differs(f"the roll-off ends with {left} tied")
    return left[0]


class Game:
    """One ruleset's results, event by event (a subclass per ruleset); `checked` counts the results."""

    def __init__(self, header, inputs):
        self.header, self.inputs, self.checked, self.unchecked = header, inputs, 0, 0
        self.version = header.get("ruleset_version", 1)
        self.seats = len(header["seats"])

    def event(self, event, calls):
        handler = getattr(self, "on_" + event["type"], None)
        if handler is not None:
            self.at = f"version {event['version']}: {event['type']}"
            handler(event["data"], calls)

    def same(self, found, expected, field):
        same(found, expected, f"{self.at}.{field}")
        self.checked += 1


class Kingpin(Game):
    def on_FirstPlayerRolled(self, d, calls):
        seats = list(range(self.seats))
        for r in d["rounds"]:  # one world dice call a round, a die per contender (in seat order)
            self.same(r["seats"], seats, "rounds[].seats")
            self.same(r["dice"], calls.call(WORLD, "dice").roll(len(seats)), "rounds[].dice")
            seats = [s for s, die in zip(seats, r["dice"]) if die == max(r["dice"])]
        self.same(d["seat"], seats[0] if len(seats) == 1 else None, "seat")

    def on_DiceRolled(self, d, calls):  # the pool's size is the rules' state: taken from the event
        self.same(d["dice"], calls.call("seat", "dice").roll(len(d["dice"])), "dice")

    def on_ODRolled(self, d, calls):
        if d["over"] >= 4:  # instant death: no die
            self.same(d["dice"], [], "dice")
            return
        self.same(d["dice"], calls.call("seat", "dice").roll(4 - d["over"]), "dice")
        self.same(d["survived"], any(die <= 3 for die in d["dice"]), "survived")


class Druglord(Game):
    def __init__(self, header, inputs):
        super().__init__(header, inputs)
        self.die = inputs["classy_die"]
        self.deck, self.drawn, self.baller, self.discard, self.dice = [], {}, [], [], []

    def on_GameStarted(self, d, calls):
        self.deck = calls.call(WORLD, "shuffle").shuffled(self.inputs["regions"])
        self.same(d["secret"]["deck"], self.deck, "secret.deck")
        self.baller = calls.call(WORLD, "shuffle").shuffled(self.inputs["baller_deck"])
        self.same(d["secret"]["baller_deck"], self.baller, "secret.baller_deck")

    def on_RegionCardsDrawn(self, d, calls):  # dealt off the top of the Region deck
        cards = d["secret"]["regions"]
        self.same(cards, self.deck[:len(cards)], "secret.regions")
        self.deck, self.drawn[d["seat"]] = self.deck[len(cards):], cards

    def on_EmpiresRevealed(self, d, calls):  # what each seat did not keep goes back under the deck, seat by seat
        for seat, empire in enumerate(d["empires"]):
            self.deck += [r for r in self.drawn.get(seat, []) if r not in empire]

    def on_DeckShuffled(self, d, calls):
        self.deck = calls.call(WORLD, "shuffle").shuffled(self.deck)
        self.same(d["secret"]["deck"], self.deck, "secret.deck")

    def on_DraftOpened(self, d, calls):
        self.same(d["new"], self.deck[:len(d["new"])], "new")
        self.deck = self.deck[len(d["new"]):]
        if self.version < 3:  # a roll-off per tied score: each round one call, a die per contender
            for r in d["rolloffs"]:
                self.same(r["dice"], calls.call(WORLD, "dice").roll(len(r["who"]), self.die), "rolloffs[].dice")

    def on_DraftClosed(self, d, calls):
        self.deck += d["returned"]

    def rolloff(self, rounds, calls, field):
        for r in rounds:
            self.same(r["dice"], calls.call(WORLD, "dice").roll(len(r["who"]), self.die), f"{field}[].dice")
        return highest_of(rounds) if rounds else None

    def on_ActionOrderRolled(self, d, calls):
        if self.version < 3:
            winner = self.rolloff(d["rounds"], calls, "rounds")
            self.same(d["order"][0], d["order"][0] if winner is None else winner, "order[0]")

    def on_GameEnded(self, d, calls):
        if self.version < 3:
            winner = self.rolloff(d["rolloff"], calls, "rolloff")
            if winner is not None:
                self.same(d["winners"], [winner], "winners")

    def on_RollStarted(self, d, calls):
        self.dice = d["dice"]

    def on_TradeDeclared(self, d, calls):
        self.dice = ["trade"]

    on_RerollTaken = on_TradeDeclared

    def on_RollCast(self, d, calls):  # a world dice call per die, in the roll's die order
        for die in self.dice:
            natural = calls.call(WORLD, "dice").roll(1, self.die)[0]
            self.same(d["naturals"][die], natural, f"naturals.{die}")
            self.same(d["totals"][die], 1 if natural == 1 else natural + d["modifiers"][die], f"totals.{die}")

    def tie_break(self, d, calls, weight):
        if d["tie_rolls"]:
            self.same(weight, self.rolloff(d["tie_rolls"], calls, "tie_rolls"), "weight")

    def on_CrackdownImposed(self, d, calls):
        self.tie_break(d, calls, d["weight"])

    def on_WeightRemoved(self, d, calls):
        if d["cause"] == "local_busts" and d["removed"]:
            self.tie_break(d, calls, d["removed"][0][2])

    def on_BallerDrawn(self, d, calls):
        self.same(d["secret"]["card"], self.baller[0] if self.baller else None, "secret.card")
        self.baller = self.baller[1:]

    def on_CardPlayed(self, d, calls):
        self.discard.append(d["card"])

    def on_BallerDeckShuffled(self, d, calls):  # in the drawing seat's own DrawBaller
        self.baller, self.discard = calls.call("seat", "shuffle").shuffled(self.discard), []
        self.same(d["secret"]["deck"], self.baller, "secret.deck")


class Trafficking(Game):
    def on_GameStarted(self, d, calls):
        rolling, last = list(range(self.seats)), {}
        for r in d["rolls"]:  # a world call of two dice per seat still rolling, in seat order; lowest is the Narc
            self.same(sorted(int(s) for s in r), rolling, "rolls[] seats")
            for s in rolling:
                self.same(r[str(s)], calls.call(WORLD, "dice").roll(2), f"rolls[].{s}")
                last[s] = sum(r[str(s)])
            rolling = [s for s in rolling if last[s] == min(last[t] for t in rolling)]
        narc = rolling[0] if len(rolling) == 1 else None
        self.same(d["narc"], narc, "narc")
        self.same(d["lids"], [0 if s == narc else last[s] for s in range(self.seats)], "lids")
        for deck in ("sour_grapes", "flip_out"):
            order = calls.call(WORLD, "shuffle").shuffled(range(self.inputs[deck]))
            self.same(d["secret"]["decks"][deck], order, f"secret.decks.{deck}")

    def die(self, d, calls, field="die"):
        self.same(d[field], calls.call("seat", "pick").randint(1, 6), field)

    def on_MoveRolled(self, d, calls):
        self.die(d, calls)
        self.move = d["die"]

    def on_BetSettled(self, d, calls):  # the move's own die
        self.same(d["die"], self.move, "die")

    def on_SellRolled(self, d, calls):
        self.die(d, calls)
        self.sell = d["die"]

    def on_LidsBought(self, d, calls):  # the Pusher's die or a Dealing square's
        self.die(d, calls)
        self.same(d["lids"], d["die"], "lids")

    on_BuyFailed = die

    def on_LidsSold(self, d, calls):
        if d["to"] == "marcus":
            self.die(d, calls)
        elif d["to"] == "bank":  # the number the Sell rolled
            self.same(d["die"], self.sell, "die")

    def on_LidPickedUp(self, d, calls):
        self.same(d["dice"], calls.call("seat", "dice").roll(2), "dice")

    def on_Bankrupt(self, d, calls):
        if "die" in d:  # The Pusher
            self.die(d, calls)
        elif "dice" in d:  # the 11-7
            self.on_LidPickedUp(d, calls)

    def on_TimeWarpRolled(self, d, calls):  # on the stream of the seat whose command it is, whoever moves
        self.same(d["dice"], calls.call("seat", "dice").roll(4), "dice")


class LordsOfCannabis(Game):
    def chips(self, calls):
        chips, neighbours = self.inputs["chips"], self.inputs["brick_neighbours"]
        while True:  # brick by brick a chip no neighbour shows, one world pick each; start over when stuck
            pool, placed = list(chips), [0] * len(neighbours)
            for brick, around in enumerate(neighbours):
                allowed = [i for i, chip in enumerate(pool) if chip not in {placed[n] for n in around}]
                if not allowed:
                    break
                placed[brick] = pool.pop(allowed[calls.call(WORLD, "pick").randbelow(len(allowed))])
            else:
                return placed

    def on_GameStarted(self, d, calls):
        self.same(d["chips"], self.chips(calls), "chips")
        rolls, contenders = [], list(range(self.seats))
        while len(contenders) > 1 or not rolls:  # a world call of two dice per contender, highest total starts
            this = [[seat, *calls.call(WORLD, "dice").roll(2)] for seat in contenders]
            rolls += this
            contenders = [s for s, a, b in this if a + b == max(x + y for _, x, y in this)]
        self.same(d["rolls"], rolls, "rolls")
        self.same(d["first"], contenders[0], "first")
        self.same(d["secret"]["deck"], calls.call(WORLD, "shuffle").shuffled(self.inputs["crop_deck"]), "secret.deck")

    def on_DiceRolled(self, d, calls):
        self.same(d["dice"], calls.call("seat", "dice").roll(2), "dice")

    def on_CardStolen(self, d, calls):  # randbelow(the victim's hand), a count only the rules' state holds
        stream = calls.call("seat", "pick")
        stream.randbelow(calls.recorded_bound(stream))
        self.unchecked += 1


class Narcos(Game):
    def __init__(self, header, inputs):
        super().__init__(header, inputs)
        self.deck, self.discard, self.cartel, self.first, self.caller = [], [], [], None, None
        self.cards = set(inputs["round_one"]) | set(inputs["reserve"])

    def on_GameStarted(self, d, calls):
        self.permanent = None
        if d["mode"] == "basic":
            self.permanent = calls.call(WORLD, "pick").choice(self.inputs["permanent_choices"])
            self.same(d["permanent"], self.permanent, "permanent")
        else:
            tokens = calls.call(WORLD, "shuffle").shuffled(self.inputs["city_tokens"])
            self.same(d["tokens"], dict(zip(self.inputs["cities"], tokens)), "tokens")
        self.same(d["reserve"], self.inputs["reserve"], "reserve")
        self.reserve, self.mode, self.first, self.started = list(d["reserve"]), d["mode"], d["first"], self.at

    def on_DeckShuffled(self, d, calls):
        if d["round"] == 1:  # the set-up's: the Round 1 cards but the permanent Dealer
            start = [c for c in self.inputs["round_one"] if c != self.permanent]
            self.deck = calls.call(WORLD, "shuffle").shuffled(start)
        else:  # the Round 2 deck: what is left of the deck, the discards, the reserve; shuffled by its caller
            start = self.deck + self.discard + self.reserve
            self.deck = calls.call(WORLD if self.caller is None else "seat", "shuffle").shuffled(start)
            self.discard, self.reserve = [], []
        self.same(d["secret"]["order"], self.deck, "secret.order")

    def on_CartelShuffled(self, d, calls):
        start = [c for c in self.inputs["cartel"] if self.mode == "advanced" or c not in self.inputs["advanced_only"]]
        self.cartel = calls.call(WORLD, "shuffle").shuffled(start)
        self.same(d["secret"]["order"], self.cartel, "secret.order")
        # the first player is drawn last in the set-up, after both shuffles (GameStarted records it)
        self.at = self.started
        self.same(self.first, calls.call(WORLD, "pick").randbelow(self.seats), "first")

    def on_CartelDealt(self, d, calls):
        cards = d["secret"]["cards"]
        self.same(cards, self.cartel[:len(cards)], "secret.cards")
        self.cartel = self.cartel[len(cards):]

    def on_CardDrawn(self, d, calls):
        self.same(d["card"], self.deck[0] if self.deck else None, "card")
        self.deck = self.deck[1:]

    def on_TurnEnded(self, d, calls):
        self.discard += d["discarded"]

    def on_CardBought(self, d, calls):  # a Narcos card it replaces goes to the discards (a starting one does not)
        if d.get("replaced") in self.cards:
            self.discard.append(d["replaced"])

    def on_RoundTwoStarted(self, d, calls):
        self.caller = d["called_by"]


GAMES = {"kingpin": Kingpin, "druglord": Druglord, "trafficking": Trafficking,
         "lords_of_cannabis": LordsOfCannabis, "narcos": Narcos}


def check_outcomes(header, seed, events, inputs):
    """(what differs or None, results checked, results left to the rules, commands not followed to their end)."""
    game = GAMES[header["ruleset"]](header, inputs.get(header["ruleset"], {}))
    calls = Calls(seed, header["format"] == KEYED, header["format"] in DRAWN)
    skipped, following, problem = 0, False, None
    try:
        for event in events:
            if "command" in event:  # the previous command's draws are all made: were they the recorded ones?
                problem = calls.finish() if following else None
                if problem:
                    break
                calls.start(event)
                following = True
            if following:
                try:
                    game.event(event, calls)
                except Unknowable:  # only a Lords of Cannabis theft, in a history without draws
                    skipped, following = skipped + 1, False
        else:
            problem = calls.finish() if following else None
    except Differs as error:
        problem = str(error)
    except (KeyError, IndexError, TypeError, ValueError) as error:
        problem = f"{getattr(game, 'at', 'the history')}: a result field is missing or malformed ({error!r})"
    return problem, game.checked, game.unchecked, skipped


def option(args, name):
    if name not in args:
        return None, args
    at = args.index(name)
    return args[at + 1], args[:at] + args[at + 2:]


def main(*args):
    expected, args = option(args, "--expect-commitment")
    inputs, args = option(args, "--inputs")
    path, vectors = args[0], (args[1] if len(args) > 1 else None)
    if vectors:
        print(f"test vectors: {check_vectors(vectors)} cases pass")
    header, *events = read(path)
    if expected is not None and header["seed_commitment"] != expected.lower():
        print(f"{path}: its seed commitment {header['seed_commitment']} is not the one you kept ({expected.lower()}): "
              "this is not the game you played, whatever it verifies against")
        return 1
    if hashlib.sha256(header["seed"].encode("utf-8")).hexdigest() != header["seed_commitment"]:
        print(f"{path}: the seed does not match its commitment")
        return 1
    print(f"{path}: {header['format']}, {header['ruleset']}, {len(events)} events; the seed matches its commitment")
    if header.get("seed_source") == "fixed":
        print("the seed was fixed by the game's creator (seed_source: fixed): they could foresee every roll")
    seed = effective_seed(header["seed"], events)
    if seed != header["seed"]:
        print(f"the players' entropy: {sum(1 for e in events if 'entropy' in e['data'])} contributions mixed in")
    problem, commands, draws = check_draws(seed, events, header["format"] == KEYED)
    print(f"recorded draws: {draws} draws of {commands} commands re-derived" + (f"; then {problem}" if problem else ""))
    if problem:
        return 1
    if forked(events):  # its start is the game's determinize of another history's position: the rules' to check
        print("outcomes: a fork's results follow from its original's position, which re-running the rules checks "
              "(cartel verify --offline FILE --origin ORIGINAL)")
        return 0
    if header["ruleset"] not in GAMES:
        print(f"outcomes: section 3 has no table for the ruleset {header['ruleset']!r}")
        return 1
    problem, checked, unchecked, skipped = check_outcomes(header, seed, events, json.load(open(inputs or INPUTS)))
    left = [f"{unchecked} left to the rules (they need the rules' state)" if unchecked else "",
            f"{skipped} commands not followed past a draw whose bound only the rules know" if skipped else ""]
    print(f"outcomes: {checked} results re-derived from the draws" + "".join(f"; {part}" for part in left if part)
          + (f"; then {problem}" if problem else ""))
    return 1 if problem else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
