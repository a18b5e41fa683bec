// romecore web page: one game per tab, talking to the server over /ws (protocol: romecore/web/app.py).
// The server holds the true state; this page only draws the human's view it is sent.
//
// The board is the controller: every legal move lists the board keys it names (its
// "targets", in click order); elements of the picture carry data-target keys.  Clicking
// keys narrows the candidate moves to those naming every clicked key; the keys that can
// come next are marked; anything else does nothing.  One candidate left is played; moves
// naming nothing (pass, end turn), or candidates the board cannot tell apart, are buttons
// in the prompt bar.  The move list stays as the keyboard and screen-reader path.
"use strict";

const COLOURS = ["#6a3d9a", "#e66101", "#1b7e74", "#4d4d4d", "#b8336a", "#2b6cb0"];
let socket = null;
let info = null;        // /api/games
let chosen = null;      // the game picked on the start page
let current = null;     // the last "state" message
let picked = [];        // board keys clicked towards the current move
let hinted = null;      // the hint's action id, for the current ply

function setStatus(text) { $("status").textContent = text; }

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = !text;
}

function send(msg) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showError("not connected to the server: reload the page");
    return false;
  }
  if (msg.type === "new" || msg.type === "join") msg.svg_delta = true;  // pictures as deltas (wholeSvg)
  socket.send(JSON.stringify(msg));
  return true;
}

// -- the start page --------------------------------------------------------------------------
function option(select, value, text) { select.appendChild(el("option", { value: value }, text)); }

function gameCards() {
  const box = $("game-cards");
  box.innerHTML = "";
  for (const g of info.games) {
    const players = g.min_players === g.max_players ? g.min_players : g.min_players + "–" + g.max_players;
    const card = el("div", { class: "game-card", role: "listitem", tabindex: "0", "data-game": g.id },
      el("h3", {}, g.name),
      el("p", {}, g.description || ""),
      el("p", { class: "facts" }, players + " players" + (g.playing_time ? " · " + g.playing_time : "") + " · ",
        el("a", { href: g.rules, target: "_blank", rel: "noopener" }, "how to play")));
    card.addEventListener("click", (ev) => { if (ev.target.tagName !== "A") chooseGame(g.id); });
    card.addEventListener("keydown", (ev) => { if (ev.key === "Enter") chooseGame(g.id); });
    box.appendChild(card);
  }
}

function chooseGame(id) {
  chosen = info.games.find((x) => x.id === id);
  for (const c of document.querySelectorAll(".game-card")) c.classList.toggle("chosen", c.dataset.game === id);
  $("new-game").hidden = false;
  $("form-title").textContent = "New game of " + chosen.name;
  $("form-rules").href = chosen.rules;
  const players = $("players");
  players.innerHTML = "";
  for (let n = chosen.min_players; n <= chosen.max_players; n++) option(players, n, n);
  players.value = chosen.default_players;
  fillOptions();
  fillSeats();
}

function fillOptions() {
  const box = $("options");
  for (const old of box.querySelectorAll("label")) old.remove();
  box.hidden = !chosen.options.length;
  for (const o of chosen.options) {
    let input;
    if (o.type === "bool") {
      input = el("input", { type: "checkbox", "data-option": o.name, "data-type": o.type });
      input.checked = !!o.default;
    } else if (o.choices) {
      input = el("select", { "data-option": o.name, "data-type": o.type });
      for (const c of o.choices) option(input, c, c);
      input.value = o.default;
    } else {
      input = el("input", { type: o.type === "int" ? "number" : "text", "data-option": o.name, "data-type": o.type });
      input.value = o.default;
    }
    box.appendChild(el("label", { title: o.doc }, o.name.replace(/_/g, " ") + (o.doc ? " (" + o.doc + ")" : ""), input));
  }
}

function fillSeats() {
  const n = Number($("players").value);
  const seat = $("seat");
  const keep = Number(seat.value) || 0;
  seat.innerHTML = "";
  for (let p = 0; p < n; p++) option(seat, p, "P" + p + (p === 0 ? " (starts)" : ""));
  seat.value = Math.min(keep, n - 1);
  fillOpponents();
}

function fillOpponents() {
  const n = Number($("players").value);
  const seat = Number($("seat").value);
  const box = $("opponents");
  const specs = $("custom-specs");
  for (const old of box.querySelectorAll("label")) old.remove();
  specs.innerHTML = "";
  for (let p = 0; p < n; p++) {
    if (p === seat) continue;
    const level = el("select", { class: "level", "data-seat": p });
    for (const l of chosen.levels) option(level, l, "AI: " + l);
    if (!chosen.levels.length) option(level, chosen.default_opponent, chosen.default_opponent);
    option(level, "open", "A friend (invitation link)");
    level.value = chosen.default_opponent;
    box.appendChild(el("label", {}, "P" + p, level));
    if (info.allow_specs) {
      specs.appendChild(el("label", {}, "P" + p + " custom agent spec",
        el("input", { class: "spec", "data-seat": p, list: "agent-specs", placeholder: "use the level" })));
    }
  }
}

async function loadInfo() {
  const r = await fetch("/api/games");
  info = await r.json();
  gameCards();
  const specs = $("agent-specs");
  const presets = ["random", "greedy", "mcts:time=1", "alphabeta:time=0.5", "ismcts:time=1"];
  for (const s of new Set(presets.concat(info.agents))) option(specs, s, s);
  $("delay").value = info.delay;
  $("max-think").textContent = info.max_think;
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && info.games.some((g) => g.id === wanted)) chooseGame(wanted);
}

function optionValue(input) {
  if (input.dataset.type === "bool") return input.checked;
  if (input.dataset.type === "int") return Number(input.value);
  return input.value;
}

function startGame(ev) {
  ev.preventDefault();
  if (!chosen) return;
  const seat = Number($("seat").value);
  const seats = [];
  for (let p = 0; p < Number($("players").value); p++) seats.push("host");
  for (const level of document.querySelectorAll("#opponents select.level")) {
    const spec = document.querySelector('#custom-specs input[data-seat="' + level.dataset.seat + '"]');
    seats[Number(level.dataset.seat)] = level.value !== "open" && spec && spec.value.trim() ? spec.value.trim() : level.value;
  }
  seats[seat] = "host";
  const options = {};
  for (const input of document.querySelectorAll("#options [data-option]")) options[input.dataset.option] = optionValue(input);
  const msg = {
    type: "new", game_id: chosen.id, players: Number($("players").value), seat: seat,
    seats: seats, delay: Number($("delay").value || 0), options: options,
  };
  if ($("seed").value !== "") msg.seed = Number($("seed").value);
  if (Number($("clock").value) > 0) { msg.clock = Number($("clock").value); msg.clock_level = chosen.levels[1] || ""; }
  send(msg);
}

// -- drawing a state -------------------------------------------------------------------------
function seatName(p, msg) {
  if (p === "chance") return "dealer";
  if (p === "server") return "server";
  if (p === msg.seat) return "You";
  return "P" + p + " (" + msg.agents[p] + ")";
}

function tokenFor(game) {
  try { return localStorage.getItem("romecore:seat:" + game); } catch (e) { return null; }
}

function keepToken(msg) {   // the seat's secret stays in this browser, to rejoin with
  try { if (msg.token) localStorage.setItem("romecore:seat:" + msg.game, msg.token); } catch (e) { /* private mode */ }
}

function render(msg) {
  keepToken(msg);
  if (current && current.game === msg.game && msg.invites === undefined && current.invites) msg.invites = current.invites;
  const fresh = !current || current.game !== msg.game || current.ply !== msg.ply || current.over !== msg.over;
  current = msg;
  if (fresh) { picked = []; hinted = null; $("hint-text").textContent = ""; }
  showError("");
  $("setup").hidden = true;
  $("play").hidden = false;
  const here = msg.seat === null ? msg.game + "/watch" : msg.game;
  if (location.hash.slice(1) !== here) history.replaceState(null, "", "#" + here);
  document.title = msg.name + " – romecore";
  const b = document.body.dataset;
  b.game = msg.game; b.gameId = msg.game_id; b.ply = msg.ply; b.toMove = msg.to_move; b.over = msg.over;
  $("board").innerHTML = msg.svg;
  $("rules-link").href = "/rules/" + msg.game_id;

  const turn = $("turn");
  const mine = msg.to_move === msg.seat;
  turn.className = mine ? "yours" : "";
  const waiting = msg.seats_taken ? msg.seats_taken.map((t, p) => t ? null : "P" + p).filter((x) => x) : [];
  if (msg.over) turn.textContent = "Game over after move " + msg.ply;
  else if (msg.seat === null) turn.textContent = "Watching (the public view) · move " + msg.ply;
  else if (mine) turn.textContent = "Your move (you are P" + msg.seat + ") · move " + (msg.ply + 1);
  else if (typeof msg.to_move === "number" && waiting.includes("P" + msg.to_move)) {
    turn.textContent = "Waiting for P" + msg.to_move + " to take their seat (send them the invitation)";
  }
  else if (typeof msg.to_move === "number") turn.textContent = seatName(msg.to_move, msg) + " is thinking… · move " + (msg.ply + 1);
  else turn.textContent = "Dealing…";

  const moves = $("moves");
  moves.innerHTML = "";
  for (const m of msg.moves) {
    const li = el("li", { "data-action": m.id }, el("button", { type: "button", "data-action": m.id, onclick: () => play(m.id) }, m.text));
    moves.appendChild(li);
  }
  drawLog(msg);
  drawSummary(msg);
  drawResult(msg);
  $("undo").disabled = !msg.can_undo;
  $("hint").disabled = !mine || !msg.hints;
  $("resign").disabled = msg.over || msg.seat === null;
  $("undo").hidden = $("hint").hidden = msg.seat === null;
  $("resign").hidden = msg.seat === null;
  document.body.classList.toggle("spectator", msg.seat === null);   // a spectator has no moves to list
  drawInvites(msg);
  setStatus(msg.name + " · move " + msg.ply + (msg.seed !== undefined ? " · seed " + msg.seed : ""));
  markBoard();
}

// The host's invitation links: one per open seat (each takes its seat once), and a
// spectator link.
function drawInvites(msg) {
  const box = $("invites");
  box.innerHTML = "";
  const base = location.origin + location.pathname + "#" + msg.game;
  const rows = Object.entries(msg.invites || {}).filter(([p]) => !(msg.seats_taken || [])[Number(p)])
    .map(([p, code]) => ["Invite P" + p, base + "/invite/" + code]);
  if (!msg.over) rows.push(["Watch", base + "/watch"]);
  for (const [label, url] of rows) {
    const input = el("input", { readonly: "", value: url, class: "link", "data-link": label });
    box.appendChild(el("div", { class: "invite" }, el("span", {}, label + ": "), input,
      el("button", { type: "button", onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(url); } }, "copy")));
  }
}

// The log: grouped by round (where the game counts rounds) and by turn (a player's
// consecutive moves); the dealer's lines folded.
function drawLog(msg) {
  const log = $("log");
  log.innerHTML = "";
  let round = null, group = null, who = null;
  for (const e of msg.log) {
    if (e.round !== undefined && e.round !== round) {
      round = e.round;
      log.appendChild(el("h4", {}, "Round " + round));
      group = null;
    }
    if (!group || who !== e.player) {
      who = e.player;
      if (e.player === "chance") {
        group = el("details", { class: "turn chance" }, el("summary", {}, "dealer"));
      } else {
        group = el("div", { class: "turn" + (e.player === msg.seat ? " me" : "") },
          el("span", { class: "who" }, seatName(e.player, msg)));
      }
      log.appendChild(group);
    }
    group.appendChild(el("span", { class: "entry", "data-ply": e.ply }, el("span", { class: "num" }, e.ply + "."), e.text));
    if (e.player === "chance") group.querySelector("summary").textContent = "dealer (" + (group.children.length - 1) + ")";
  }
  log.scrollTop = log.scrollHeight;
}

// What each other player did in their latest turn, one line (newest last).
function drawSummary(msg) {
  const turns = new Map();   // player -> the texts of their latest run of moves
  let who = null;
  for (const e of msg.log) {
    if (typeof e.player !== "number") continue;
    if (e.player !== who) { who = e.player; turns.delete(e.player); turns.set(e.player, []); }
    turns.get(e.player).push(e.text);
  }
  turns.delete(msg.seat);
  const line = Array.from(turns, ([p, texts]) => seatName(p, msg) + ": " + texts.join(", then ")).join(" · ");
  $("summary").textContent = line;
  $("summary").hidden = !line;
}

function breakdownTable(r, msg) {
  const n = r.scores.length;
  const cats = [];
  for (const bd of r.breakdown) {
    for (const [k, v] of Object.entries(bd)) if (k !== "total" && typeof v === "number" && !cats.includes(k)) cats.push(k);
  }
  const table = el("table", { id: "breakdown" });
  const head = el("tr", {}, el("th", {}, ""));
  for (let p = 0; p < n; p++) head.appendChild(el("th", {}, p === msg.seat ? "You" : "P" + p));
  table.appendChild(head);
  for (const c of cats) {
    const row = el("tr", {}, el("td", {}, c.replace(/_/g, " ")));
    for (let p = 0; p < n; p++) row.appendChild(el("td", {}, String(r.breakdown[p][c] ?? 0)));
    table.appendChild(row);
  }
  const total = el("tr", { class: "total" }, el("td", {}, "total"));
  for (let p = 0; p < n; p++) total.appendChild(el("td", { class: r.winners.includes(p) ? "winner" : "", "data-seat": p }, String(r.scores[p])));
  table.appendChild(total);
  return table;
}

function drawResult(msg) {
  const result = $("result");
  result.hidden = !msg.over;
  result.innerHTML = "";
  if (!msg.over) return;
  const r = msg.result;
  result.dataset.returns = JSON.stringify(r.returns);
  result.dataset.scores = JSON.stringify(r.scores);
  result.dataset.winners = JSON.stringify(r.winners);
  const t = r.termination;
  const iWon = r.winners.includes(msg.seat);
  const shared = iWon && r.winners.length > 1;
  let verdict = (iWon ? (shared ? "You share the win " : "You won ") : "You lost ") + r.score_line;
  if (t.kind === "resigned") verdict = "You resigned";
  const why = t.kind === "normal" ? "The game was played to its end" + (r.ends_when ? ": " + r.ends_when : ".")
    : t.kind === "resigned" ? (t.seat === msg.seat ? "You resigned." : seatName(t.seat, msg) + " resigned.")
    : seatName(t.seat, msg) + " forfeited: " + t.reason;
  const winners = r.winners.map((p) => p === msg.seat ? "you" : "P" + p).join(" and ");
  result.append(
    el("div", { id: "verdict" }, verdict),
    el("p", { id: "why" }, why),
    el("p", { id: "winner" }, "Winner: " + (winners || "nobody") + (r.tie_break ? " (" + r.tie_break + ")" : "")),
    breakdownTable(r, msg),
    el("p", { id: "scores" }, "Scores: " + r.scores.map((s, p) => (p === msg.seat ? "you" : "P" + p) + " " + s).join(", ")),
    el("p", { class: "note" }, "Every hidden card is shown on the board now. Seed " + msg.seed + "."),
    el("a", { id: "record-link", href: r.record }, "download the record (romecore replay reads it)"),
    el("p", {}, el("a", { id: "review-link", href: "/review#" + msg.game + "/" + (msg.seat === null ? 0 : msg.seat) }, "Review this game with the AI")));
}

function play(action) {
  if (!current || current.over) return;
  if (send({ type: "move", game: current.game, token: current.token, action: action, ply: current.ply })) {
    document.body.dataset.sent = current.ply;   // the move answering this position is on its way
  }
}

// -- the board as the controller ----------------------------------------------------------------
function candidates() {
  if (!current) return [];
  return current.moves.filter((m) => picked.every((k) => m.targets.includes(k)));
}

function nextKeys(cands) {
  const keys = new Set();
  for (const m of cands) for (const k of m.targets) if (!picked.includes(k)) keys.add(k);
  return keys;
}

function lastKeys(msg) {
  // the keys of each player's last move the seat saw, newest wins
  const last = new Map();
  for (const e of msg.log) if (typeof e.player === "number") last.set(e.player, e.keys || []);
  return last;
}

function markBoard() {
  const msg = current;
  const board = $("board");
  const cands = msg.over ? [] : candidates();
  const next = nextKeys(cands);
  const last = lastKeys(msg);
  const hintKeys = new Set();
  if (hinted !== null) for (const m of msg.moves) if (m.id === hinted) m.targets.forEach((k) => hintKeys.add(k));
  for (const e of board.querySelectorAll("[data-target]")) {
    const k = e.dataset.target;
    e.classList.toggle("target", next.has(k));
    e.classList.toggle("picked", picked.includes(k));
    e.classList.toggle("hinted", hintKeys.has(k));
    e.classList.remove("last");
    for (const [p, keys] of last) {
      if (keys.includes(k)) { e.classList.add("last"); e.style.setProperty("--last", COLOURS[p % COLOURS.length]); e.dataset.lastPlayer = p; }
    }
  }
  for (const li of $("moves").children) {
    const id = Number(li.dataset.action);
    li.classList.toggle("candidate", picked.length > 0 && cands.some((m) => m.id === id));
    li.classList.toggle("hinted", id === hinted);
  }
  drawPrompt(cands, next);
}

function drawPrompt(cands, next) {
  const msg = current;
  const text = $("prompt-text");
  const buttons = $("prompt-buttons");
  buttons.innerHTML = "";
  const mine = !msg.over && msg.to_move === msg.seat;
  $("prompt").classList.toggle("yours", mine);
  if (msg.over) { text.textContent = "Game over"; return; }
  if (!mine) {
    text.textContent = typeof msg.to_move === "number" ? seatName(msg.to_move, msg) + " is thinking…" : "Dealing…";
    return;
  }
  // buttons: moves the board cannot pick further (all their keys clicked), or naming nothing
  const offer = cands.filter((m) => m.targets.every((k) => picked.includes(k)));
  text.textContent = picked.length
    ? (next.size ? "Pick a highlighted place to go on" + (offer.length ? ", or:" : "") : "Choose:")
    : (next.size ? "Your move: click a highlighted card or place" + (offer.length ? ", or:" : "") : "Your move:");
  for (const m of offer) {
    buttons.appendChild(el("button", { type: "button", "data-action": m.id, class: m.id === hinted ? "hinted" : "",
      onclick: () => play(m.id) }, m.text));
  }
  if (picked.length) buttons.appendChild(el("button", { type: "button", id: "cancel-pick", onclick: () => { picked = []; markBoard(); } }, "Cancel"));
}

function boardClick(ev) {
  const target = ev.target.closest("[data-target].target");
  if (!target || !current || current.over || current.to_move !== current.seat) return;
  const key = target.dataset.target;
  if (!nextKeys(candidates()).has(key)) return;   // not a target: nothing happens
  picked.push(key);
  const cands = candidates();
  if (cands.length === 1) { play(cands[0].id); return; }
  markBoard();
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
      // #GAME: rejoin (with this browser's token for the table, if it holds one, else watch);
      // #GAME/invite/CODE: take the seat an invitation names; #GAME/watch: watch
      const [id, route, code] = location.hash.slice(1).split("/");
      if (/^[0-9a-f]{32}$/.test(id)) {
        const join = { type: "join", game: id };
        if (route === "invite" && code && !tokenFor(id)) join.invite = code;
        else if (route !== "watch" && tokenFor(id)) join.token = tokenFor(id);
        send(join);
      }
    } else if (msg.type === "state") {
      if (!wholeLog(msg) || !wholeSvg(msg)) return;
      render(msg);
    } else if (msg.type === "hint") {
      if (current && msg.ply === current.ply) {
        hinted = msg.action;
        $("hint-text").textContent = "Hint (" + msg.agent + "): " + msg.text;
        markBoard();
      }
    } else if (msg.type === "error") {
      if (msg.request === "hint") $("hint-text").textContent = "";
      showError("refused (" + msg.code + "): " + msg.message);
      document.body.dataset.errors = Number(document.body.dataset.errors || 0) + 1;
      if (msg.code === "unknown_game" && msg.request === "join") showSetup();  // the tab's game is gone
    }
  };
}

// The server sends the log as a delta (the entries after the first `log_from`, which this page
// has from its earlier messages); put it back together, or ask for the whole state again when
// this page is short of them (then it answers false).
let logSoFar = { game: null, entries: [] };
function wholeLog(msg) {
  const from = msg.log_from || 0;
  if (from > 0) {
    if (logSoFar.game !== msg.game || logSoFar.entries.length < from) {
      const join = { type: "join", game: msg.game };
      if (msg.token || tokenFor(msg.game)) join.token = msg.token || tokenFor(msg.game);
      send(join);
      return false;
    }
    msg.log = logSoFar.entries.slice(0, from).concat(msg.log);
  }
  logSoFar = { game: msg.game, entries: msg.log };
  return true;
}

// The server sends the picture as a delta once this page holds one: `svg_parts` lists the new
// pieces (text) and runs of this page's last picture's pieces ([first, count]), the pieces
// being the picture cut before each "<g "; put it back together, or ask for the whole state.
let svgSoFar = { game: null, pieces: [] };
function wholeSvg(msg) {
  if (msg.svg_parts) {
    if (svgSoFar.game !== msg.game) {
      const join = { type: "join", game: msg.game };
      if (msg.token || tokenFor(msg.game)) join.token = msg.token || tokenFor(msg.game);
      send(join);
      return false;
    }
    const pieces = [];
    for (const part of msg.svg_parts) {
      if (typeof part === "string") pieces.push(part);
      else for (let i = part[0]; i < part[0] + part[1]; i++) pieces.push(svgSoFar.pieces[i]);
    }
    msg.svg = pieces.join("<g ");
    delete msg.svg_parts;
  }
  svgSoFar = { game: msg.game, pieces: msg.svg.split("<g ") };
  return true;
}

function showSetup() {
  history.replaceState(null, "", "#");
  current = null;
  $("setup").hidden = false;
  $("play").hidden = true;
}

function init() {
  $("players").addEventListener("change", fillSeats);
  $("seat").addEventListener("change", fillOpponents);
  $("new-game").addEventListener("submit", startGame);
  $("board").addEventListener("click", boardClick);
  $("hint").addEventListener("click", () => {
    if (!current || current.over) return;
    if (send({ type: "hint", game: current.game, token: current.token, ply: current.ply })) {
      $("hint-text").textContent = "thinking…";
    }
  });
  $("undo").addEventListener("click", () => { if (current) send({ type: "undo", game: current.game, token: current.token }); });
  $("resign").addEventListener("click", () => {   // two clicks: a slip of the mouse resigns nothing
    const b = $("resign");
    if (!current || current.over) return;
    if (b.dataset.armed === "1") { send({ type: "resign", game: current.game, token: current.token }); return; }
    b.dataset.armed = "1";
    b.textContent = "Really resign?";
    setTimeout(() => { b.dataset.armed = ""; b.textContent = "Resign"; }, 4000);
  });
  $("again").addEventListener("click", showSetup);
  loadInfo().then(connect, (e) => setStatus("cannot reach the server: " + e));
}

init();
