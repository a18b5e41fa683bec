// An engine of a few lines that plays the first legal move, in Node (docs/engine-protocol.md).
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  let reply = null;
  if (msg.type === "hello") {
    reply = { type: "hello", protocol: 1, name: "first-move.js", version: "1" };
  } else if (msg.type === "position") {
    reply = { type: "move", id: msg.id, move: msg.legal[0].id };
  } else if (msg.type === "quit") {
    process.exit(0);
  }
  if (reply !== null) process.stdout.write(JSON.stringify(reply) + "\n");
});
