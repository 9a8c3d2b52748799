// boardgame.io's own server (Koa + socket.io) for the Counter game, with the storage asked for:
//   node boardgameio_server.js PORT                      in memory (boardgame.io's default)
//   node boardgameio_server.js PORT flatfile DIR         boardgame.io's FlatFile (node-persist) in DIR
//   node boardgameio_server.js PORT postgres URI         bgio-postgres's PostgresStore at URI
const { Server, Origins, FlatFile } = require('boardgame.io/server');
const { Counter } = require('./boardgameio_game');

const [port, storage, where] = [Number(process.argv[2]), process.argv[3] || 'memory', process.argv[4]];

function store() {
  if (storage === 'memory') return undefined;
  if (storage === 'flatfile') return new FlatFile({ dir: where });
  if (storage === 'postgres') {
    const { PostgresStore } = require('bgio-postgres');
    // Sequelize prints every query by default: that would be the server's work, not the store's
    return new PostgresStore(where, { logging: false });
  }
  throw new Error(`unknown storage ${storage}`);
}

const server = Server({ games: [Counter], origins: [Origins.LOCALHOST], db: store() });
server.run(port, () => console.log(`READY ${port} ${storage}`));
