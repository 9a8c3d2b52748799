// The peer's side of bench/peer_boardgameio.py: a trivial two-player boardgame.io game.
// Each move adds one to a counter and a turn is one move, so the two seats alternate
// (as Kingpin's cheap cycle does on our side: one command, then the other seat's).
// `client: false`: a move is applied by the server only (no optimistic copy in the client),
// as a command is on our side.
const Counter = {
  name: 'counter',
  setup: () => ({ moves: 0 }),
  moves: {
    play: {
      move: ({ G }) => {
        G.moves += 1;
      },
      client: false,
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
};

module.exports = { Counter };
