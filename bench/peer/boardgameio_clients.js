// Plays MATCHES Counter matches at once against a running boardgame.io server with
// boardgame.io's own client over socket.io (two clients, one per seat, per match), and
// prints the moves the server applied per second after a warm-up, as one JSON line.
// usage: node boardgameio_clients.js PORT MATCHES SECONDS WARMUP_SECONDS
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Counter } = require('./boardgameio_game');

const [port, matches, seconds, warmup] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;

async function post(path, body) {
  const response = await fetch(base + path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function newMatch() {
  const { matchID } = await post('/games/counter/create', { numPlayers: 2 });
  const seats = [];
  for (const playerID of ['0', '1']) {
    const { playerCredentials } = await post(`/games/counter/${matchID}/join`, { playerID, playerName: `p${playerID}` });
    seats.push({ playerID, credentials: playerCredentials });
  }
  return { matchID, seats, seen: 0 };
}

function play(match) {
  // A seat moves whenever the state it holds says it is its turn; a move's result comes back
  // from the server as the next state.  `seen`: the counter as the server last reported it.
  for (const { playerID, credentials } of match.seats) {
    const client = Client({
      game: Counter, multiplayer: SocketIO({ server: base }), matchID: match.matchID, playerID, credentials,
      debug: false,
    });
    let movedAt = -1;
    client.subscribe((state) => {
      if (!state) return;
      match.seen = Math.max(match.seen, state.G.moves);
      if (state.ctx.currentPlayer === playerID && movedAt !== state._stateID) {
        movedAt = state._stateID;
        setImmediate(() => client.moves.play());
      }
    });
    client.start();
  }
}

const sleep = (s) => new Promise((resolve) => setTimeout(resolve, s * 1000));
const total = (all) => all.reduce((sum, m) => sum + m.seen, 0);

(async () => {
  const all = [];
  for (let i = 0; i < matches; i++) all.push(await newMatch());
  all.forEach(play);
  await sleep(warmup);
  const before = total(all);
  const started = process.hrtime.bigint();
  await sleep(seconds);
  const after = total(all);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  // seen: every move the server reported over the whole run, for the caller to find in the store
  console.log(`BENCH ${JSON.stringify({ matches, moves: after - before, seconds: elapsed,
    per_second: (after - before) / elapsed, seen: total(all) })}`);
  process.exit(0);
})().catch((error) => { console.error(error); process.exit(1); });
