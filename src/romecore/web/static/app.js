// romecore web page: one game per tab, talking to the server over /ws (protocol: romecore/web/app.py).
// The server holds the true state; this page only draws the human's view it is sent.
"use strict";

const $ = (id) => document.getElementById(id);
let socket = null;
let info = null;        // /api/games
let current = null;     // the last "state" message
let filter = null;      // action ids picked by clicking the board, or null

function setStatus(text) { $("status").textContent = text; }

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = !text;
}

function send(msg) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showError("not connected to the server: reload the page");
    return;
  }
  socket.send(JSON.stringify(msg));
}

// -- the set-up form ---------------------------------------------------------------------------
function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  select.appendChild(o);
}

function fillPlayers() {
  const g = info.games.find((x) => x.id === $("game").value);
  const players = $("players");
  players.innerHTML = "";
  for (let n = g.min_players; n <= g.max_players; n++) option(players, n, n);
  players.value = g.default_players;
  fillSeats();
}

function fillSeats() {
  const n = Number($("players").value);
  const seat = $("seat");
  const keep = Number(seat.value) || 0;
  seat.innerHTML = "";
  for (let p = 0; p < n; p++) option(seat, p, "P" + p);
  seat.value = Math.min(keep, n - 1);
  fillOpponents();
}

function fillOpponents() {
  const n = Number($("players").value);
  const seat = Number($("seat").value);
  const box = $("opponents");
  const old = Array.from(box.querySelectorAll("input")).map((i) => i.value);
  box.innerHTML = "";
  let k = 0;
  for (let p = 0; p < n; p++) {
    if (p === seat) continue;
    const label = document.createElement("label");
    label.textContent = "P" + p + " agent ";
    const input = document.createElement("input");
    input.setAttribute("list", "agent-specs");
    input.className = "agent";
    input.name = "agent" + p;
    input.value = old[k] || info.default_opponent;
    label.appendChild(input);
    box.appendChild(label);
    k++;
  }
}

async function loadInfo() {
  const r = await fetch("/api/games");
  info = await r.json();
  for (const g of info.games) option($("game"), g.id, g.name);
  const specs = $("agent-specs");
  const presets = ["random", "greedy", "mcts:simulations=1000", "alphabeta:time=0.5", info.default_opponent];
  for (const s of new Set(presets.concat(info.agents))) option(specs, s, s);
  $("delay").value = info.delay;
  fillPlayers();
}

function startGame(ev) {
  ev.preventDefault();
  const msg = {
    type: "new", game_id: $("game").value, players: Number($("players").value),
    seat: Number($("seat").value),
    agents: Array.from(document.querySelectorAll("#opponents input")).map((i) => i.value.trim()),
    delay: Number($("delay").value || 0),
  };
  if ($("seed").value !== "") msg.seed = Number($("seed").value);
  send(msg);
}

// -- drawing a state -------------------------------------------------------------------------
function who(p, seat) {
  if (p === "chance" || p === "server") return p;
  return p === seat ? "you" : "P" + p;
}

function render(msg) {
  current = msg;
  filter = null;
  showError("");
  $("setup").hidden = true;
  $("play").hidden = false;
  if (location.hash.slice(1) !== msg.game) history.replaceState(null, "", "#" + msg.game);
  document.title = msg.name + " – romecore";
  document.body.dataset.game = msg.game;
  document.body.dataset.ply = msg.ply;
  document.body.dataset.toMove = msg.to_move;
  document.body.dataset.over = msg.over;
  $("board").innerHTML = msg.svg;
  markBoard();

  const turn = $("turn");
  const mine = msg.to_move === msg.seat;
  turn.className = mine ? "yours" : "";
  if (msg.over) turn.textContent = "Game over";
  else if (mine) turn.textContent = "Your move (you are P" + msg.seat + ")";
  else if (typeof msg.to_move === "number") turn.textContent = "P" + msg.to_move + " (" + msg.agents[msg.to_move] + ") is thinking…";
  else turn.textContent = "Dealing…";

  const moves = $("moves");
  moves.innerHTML = "";
  for (const m of msg.moves) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.text;
    b.dataset.action = m.id;
    b.addEventListener("click", () => play(m.id));
    li.appendChild(b);
    li.dataset.action = m.id;
    moves.appendChild(li);
  }
  $("show-all").hidden = true;

  const log = $("log");
  log.innerHTML = "";
  for (const e of msg.log) {
    const li = document.createElement("li");
    li.textContent = who(e.player, msg.seat) + ": " + e.text;
    if (e.player === msg.seat) li.className = "me";
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;

  const result = $("result");
  result.hidden = !msg.over;
  result.innerHTML = "";
  if (msg.over) {
    const r = msg.result;
    result.dataset.returns = JSON.stringify(r.returns);
    result.dataset.scores = JSON.stringify(r.scores);
    const best = Math.max(...r.returns);
    const mineR = r.returns[msg.seat];
    const verdict = mineR === best ? (r.returns.filter((x) => x === best).length > 1 ? "You share the win" : "You win")
      : "You lose";
    const line = document.createElement("div");
    line.id = "verdict";
    line.textContent = verdict + (r.termination.kind !== "normal" ? " (" + r.termination.reason + ")" : "");
    const scores = document.createElement("div");
    scores.id = "scores";
    scores.textContent = "scores " + r.scores.map((s, p) => "P" + p + " " + s).join(", ")
      + "; returns " + r.returns.join(", ");
    const link = document.createElement("a");
    link.id = "record-link";
    link.href = r.record;
    link.textContent = "download the record (romecore replay reads it)";
    result.append(line, scores, link);
  }
  $("undo").disabled = !msg.can_undo;
  $("hint").disabled = !mine;
  $("resign").disabled = msg.over;
  $("hint-text").textContent = "";
  setStatus(msg.name + (msg.seed !== undefined ? ", seed " + msg.seed : "") + ", move " + msg.ply);
}

function play(action) {
  if (!current) return;
  send({ type: "move", game: current.game, action: action, ply: current.ply });
}

// -- picking moves on the board ------------------------------------------------------------------
// The pictures name their cards, tiles and sites in <title> elements; a click on one keeps
// the moves whose text names the same thing (for places given by coordinates, every
// coordinate), and plays the move at once when only one does.
function coordinates(text) { return text.match(/\(-?\d+,\s*-?\d+\)/g) || []; }

function picks(title) {
  const coords = coordinates(title);
  const low = title.toLowerCase();
  return current.moves.filter((m) => {
    if (coords.length) return coords.every((c) => m.text.includes(c));
    return m.text.toLowerCase().includes(low);
  }).map((m) => m.id);
}

function markBoard() {
  if (!current || !current.moves.length) return;
  for (const t of $("board").querySelectorAll("title")) {
    const el = t.parentNode;
    const ids = picks(t.textContent.trim());
    if (ids.length) el.dataset.picks = ids.join(" ");
  }
}

function boardClick(ev) {
  const el = ev.target.closest("[data-picks]");
  if (!el || !current || current.over) return;
  const ids = el.dataset.picks.split(" ").map(Number);
  if (ids.length === 1) { play(ids[0]); return; }
  filter = new Set(ids);
  for (const li of $("moves").children) li.classList.toggle("filtered", !filter.has(Number(li.dataset.action)));
  $("show-all").hidden = false;
}

function showAll() {
  filter = null;
  for (const li of $("moves").children) li.classList.remove("filtered");
  $("show-all").hidden = true;
}

// -- the connection ----------------------------------------------------------------------------
function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  socket = new WebSocket(url);
  socket.onopen = () => setStatus("connected");
  socket.onclose = () => { setStatus("disconnected: reload the page to reconnect"); document.body.dataset.closed = "1"; };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "hello") {
      const id = location.hash.slice(1);
      if (/^[0-9a-f]{32}$/.test(id)) send({ type: "join", game: id });
    } else if (msg.type === "state") {
      render(msg);
    } else if (msg.type === "hint") {
      if (current && msg.ply === current.ply) {
        $("hint-text").textContent = "hint (" + msg.agent + "): " + msg.text;
        for (const li of $("moves").children) li.classList.toggle("hinted", Number(li.dataset.action) === msg.action);
      }
    } else if (msg.type === "error") {
      showError("refused (" + msg.code + "): " + msg.message);
      document.body.dataset.errors = Number(document.body.dataset.errors || 0) + 1;
      if (msg.code === "unknown_game") { $("setup").hidden = false; history.replaceState(null, "", "#"); }
    }
  };
}

function init() {
  $("game").addEventListener("change", fillPlayers);
  $("players").addEventListener("change", fillSeats);
  $("seat").addEventListener("change", fillOpponents);
  $("new-game").addEventListener("submit", startGame);
  $("board").addEventListener("click", boardClick);
  $("show-all").addEventListener("click", showAll);
  $("hint").addEventListener("click", () => {
    $("hint-text").textContent = "thinking…";
    send({ type: "hint", game: current.game, ply: current.ply });
  });
  $("undo").addEventListener("click", () => send({ type: "undo", game: current.game }));
  $("resign").addEventListener("click", () => send({ type: "resign", game: current.game }));
  $("again").addEventListener("click", () => {
    history.replaceState(null, "", "#");
    $("setup").hidden = false;
    $("play").hidden = true;
  });
  loadInfo().then(connect, (e) => setStatus("cannot reach the server: " + e));
}

init();
