// boardgame.io's own server (Koa + socket.io, in-memory storage) for the Counter game.
// usage: node boardgameio_server.js PORT
const { Server, Origins } = require('boardgame.io/server');
const { Counter } = require('./boardgameio_game');

const port = Number(process.argv[2]);
const server = Server({ games: [Counter], origins: [Origins.LOCALHOST] });
server.run(port, () => console.log(`READY ${port}`));
