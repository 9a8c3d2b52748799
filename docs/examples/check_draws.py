"""Check the draws of an exported Tabletop Cartel game from docs/fairness.md alone.

    python3 docs/examples/check_draws.py HISTORY.jsonl[.gz] [VECTORS.json] [--expect-commitment HEX]

Standard library only, nothing imported from the project: a third party's check, written from the spec.
It checks the seed against its commitment (and, with --expect-commitment HEX, that commitment against the
one you kept when the game was created), mixes the effective seed from it and the players' entropy
(GameCreated's, SeatClaimed's and EntropyContributed's `entropy`, in order; the seed itself when there is
none), then every command's recorded draws: in format 5, each draw call's [label, [[bound, value], ...]]
against the stream keyed by (effective seed, label), each label "<roller>/<kind>/<n>" with n counting
that roller's calls of that kind from 0 without a gap, and the roller the command's own seat or "world";
in format 4, [bound, value] pairs against the stream keyed by (effective seed, str(version)).  A history without
recorded draws (formats 1-3) of Kingpin is checked by the spec's section 3 instead: each RollDice's dice.
With the test vectors (tests/data/rng-vectors.json) it first checks its own stream against them.
Exit 0: everything re-derives.  Whether the rules used the draws rightly is what re-running the rules
checks (cartel verify --offline, POST /v1/replays), not this.
"""
import gzip
import hashlib
import hmac
import json
import sys


class Stream:
    """docs/fairness.md section 2: an HMAC-SHA256 key, SHA-256 counter blocks, big-endian u64s."""

    def __init__(self, seed, label):
        self.key = hmac.new(seed.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).digest()
        self.block, self.left = 0, b""

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
                return value % n


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


def check_kingpin_dice(seed, events):
    """Section 3: Kingpin's RollDice draws one 1-6 die per die in the pool, first, so a DiceRolled that
    opens its command holds randbelow(6) + 1 for each die."""
    rolls = dice = 0
    for event in events:
        if event["type"] == "DiceRolled" and "command" in event:
            stream = Stream(seed, str(event["version"]))
            if [stream.randbelow(6) + 1 for _ in event["data"]["dice"]] != event["data"]["dice"]:
                return f"version {event['version']}: the dice {event['data']['dice']} do not re-derive", rolls, dice
            rolls, dice = rolls + 1, dice + len(event["data"]["dice"])
    return None, rolls, dice


def main(*args):
    expected = None
    if "--expect-commitment" in args:
        at = args.index("--expect-commitment")
        expected, args = args[at + 1].lower(), args[:at] + args[at + 2:]
    path, vectors = args[0], (args[1] if len(args) > 1 else None)
    if vectors:
        print(f"test vectors: {check_vectors(vectors)} cases pass")
    header, *events = read(path)
    if expected is not None and header["seed_commitment"] != expected:
        print(f"{path}: its seed commitment {header['seed_commitment']} is not the one you kept ({expected}): "
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
    problem, commands, draws = check_draws(seed, events, header["format"] == "tabletop-cartel-history/5")
    print(f"recorded draws: {draws} draws of {commands} commands re-derived" + (f"; then {problem}" if problem else ""))
    if not commands and header["ruleset"] == "kingpin":
        problem, rolls, dice = check_kingpin_dice(seed, events)
        print(f"Kingpin's dice: {dice} dice of {rolls} RollDice re-derived" + (f"; then {problem}" if problem else ""))
    return 1 if problem else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
