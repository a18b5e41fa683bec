// romecore review page: the finished games of this server, a saved record's upload, and the
// AI's review of a game (API: romecore/web/app.py).  Routes (the hash): none: the list;
// #KEY/SEAT: the review of game KEY (or of an upload, "up-..."), the board as seat SEAT saw it.
//
// The server computes the review (one at a time, bounded) and draws every board as the chosen
// seat saw it; this page polls the progress, then steps through the positions: position k is
// the board after k moves, and the decision at move k+1 is judged there.
"use strict";

const LABEL_TEXT = { best: "the AI's move", good: "good", inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };
const FLAGGED = ["inaccuracy", "mistake", "blunder"];
const PAGE = 20;
let offset = 0;          // the finished list's page
let key = null;          // the review shown
let seat = 0;            // whose view
let data = null;         // the review as the server gave it for this seat
let pos = 0;             // the position shown: after this many moves
let line = null;         // "show me": {decision, step} while the AI's line is on the board
let lineTimer = null;
let drawn = 0;           // the latest board asked for (older answers are dropped)
let polling = null;
const boards = new Map(); // url -> svg

function showError(text) {
  $("error").textContent = text || "";
  $("error").hidden = !text;
}

async function api(url, options) {
  const r = await fetch(url, options);
  const body = await r.json();
  if (!r.ok) throw new Error(body.message || r.statusText);
  return body;
}

// -- the finished games --------------------------------------------------------------------------
async function showFinished(at) {
  stopPolling();
  key = null;
  $("finished").hidden = false;
  $("review").hidden = true;
  document.title = "Finished games – romecore";
  offset = at;
  const page = await api("/api/finished?offset=" + at + "&limit=" + PAGE);
  const rows = $("games");
  rows.innerHTML = "";
  for (const g of page.games) {
    const human = g.players.find((p) => p.human);
    const players = g.players.map((p) => "P" + p.seat + " " + p.label).join(" · ");
    rows.appendChild(el("tr", { "data-game": g.game },
      el("td", {}, g.name), el("td", {}, players), el("td", {}, g.result), el("td", { class: "num" }, String(g.moves)),
      el("td", {}, g.date),
      el("td", {}, el("a", { class: "button review", href: g.review + "/" + (human ? human.seat : 0) }, "Review"), " ",
        el("a", { href: g.record, download: "" }, "record"))));
  }
  $("no-games").hidden = page.games.length > 0 || at > 0;
  $("newer").disabled = at === 0;
  $("older").disabled = !page.more;
  document.body.dataset.listed = page.games.length;
}

async function upload(ev) {
  ev.preventDefault();
  const file = $("record-file").files[0];
  if (!file) return;
  showError("");
  const url = "/api/upload-review?name=" + encodeURIComponent(file.name) + "&index=" + Number($("record-index").value || 0);
  try {
    const job = await api(url, { method: "POST", body: await file.arrayBuffer() });
    location.hash = job.key + "/0";
  } catch (e) {
    showError("not reviewed: " + e.message);
  }
}

// -- a review ----------------------------------------------------------------------------------
async function showReview(k, s) {
  $("finished").hidden = true;
  $("review").hidden = false;
  showError("");
  stopPolling();
  const again = k === key && data;
  key = k; seat = s;
  if (again) { await loadReview(); return; }
  data = null;
  boards.clear();
  $("review-body").hidden = true;
  $("seat-box").hidden = true;
  $("download").hidden = true;
  $("progress-box").hidden = false;
  $("review-title").textContent = "Review";
  try {
    progress(await api("/api/review/" + k, { method: "POST" }));
  } catch (e) {
    $("progress-box").hidden = true;
    showError("no review: " + e.message);
    return;
  }
  if (key !== k) return;   // another review was asked for meanwhile
  polling = setInterval(poll, 400);
  poll();
}

function stopPolling() { if (polling) { clearInterval(polling); polling = null; } }

function progress(job) {
  $("progress").max = Math.max(1, job.total);
  $("progress").value = job.done;
  $("progress-text").textContent = job.status === "queued" ? "Waiting for the reviews before this one…"
    : "The AI is reviewing the game: " + job.done + " of " + (job.total || "?") + " decisions";
}

async function poll() {
  const asked = key;
  try {
    const job = await api("/api/review/" + key + "?seat=" + seat);
    if (asked !== key) return;   // an answer about a review no longer shown
    if (job.status === "done") { stopPolling(); shown(job); return; }
    if (job.status === "failed") { stopPolling(); $("progress-box").hidden = true; showError("the review failed: " + job.error); return; }
    progress(job);
  } catch (e) {
    stopPolling();
    showError("no review: " + e.message);
  }
}

async function loadReview() {
  shown(await api("/api/review/" + key + "?seat=" + seat));
}

function who(p) {
  if (p === "chance") return "dealer";
  return (p === seat ? "You (P" + p + ")" : "P" + p) + " " + data.labels[p];
}

function shown(review) {
  data = review;
  $("progress-box").hidden = true;
  $("review-body").hidden = false;
  $("review-title").textContent = data.name + ": " + data.result;
  document.title = data.name + " review – romecore";
  const select = $("seat");
  select.innerHTML = "";
  data.labels.forEach((l, p) => select.appendChild(el("option", { value: p }, "P" + p + " (" + l + ")")));
  select.value = seat;
  $("seat-box").hidden = false;
  $("download").hidden = key.startsWith("up-");
  $("download").href = "/api/record/" + key;
  drawSummary();
  drawGraph();
  drawFlagged();
  drawLog();
  document.body.dataset.ready = "1";
  go(Math.min(pos, data.plies));
}

function drawSummary() {
  const box = $("summary-box");
  box.innerHTML = "";
  for (const s of data.review.summary) {
    const counts = FLAGGED.map((k) => s.counts[k] + " " + plural(k, s.counts[k])).join(", ");
    box.appendChild(el("div", { class: "player" + (s.player === seat ? " me" : ""), "data-seat": s.player },
      el("b", {}, who(s.player)), ": accuracy " + (s.accuracy === null ? "–" : Math.round(s.accuracy) + "%") + " · " + counts));
  }
  const j = data.review.judge;
  box.appendChild(el("div", { class: "note" }, "Judged by " + j.agent + " in " + j.worlds +
    " world(s) resampled from the mover's view, never the hidden cards themselves."));
}

function plural(word, n) {
  if (n === 1) return word;
  return word.endsWith("y") ? word.slice(0, -1) + "ies" : word + "s";
}

function drawGraph() {
  const graph = $("graph");
  graph.innerHTML = data.plot;
  for (const mark of graph.querySelectorAll("g.mark[data-ply]")) {
    mark.setAttribute("tabindex", "0");
    mark.addEventListener("click", () => jumpTo(Number(mark.dataset.ply)));
    mark.addEventListener("keydown", (ev) => { if (ev.key === "Enter") jumpTo(Number(mark.dataset.ply)); });
  }
}

function decisionAt(ply) { return data.review.decisions.find((d) => d.ply === ply) || null; }

function value(v, se) { return v === null ? "?" : v.toFixed(2) + (se ? " ± " + se.toFixed(2) : ""); }

function drawFlagged() {
  const list = $("flagged");
  list.innerHTML = "";
  const flagged = data.review.decisions.filter((d) => FLAGGED.includes(d.label));
  for (const d of flagged) {
    const li = el("li", { class: "flag " + d.label + (d.player === seat ? " me" : ""), "data-ply": d.ply },
      el("span", { class: "badge " + d.label }, d.label),
      el("span", { class: "where" }, " move " + d.ply + ", P" + d.player + ": "),
      el("span", { class: "played" }, d.move_text),
      el("span", { class: "ai" }, " · AI: " + d.best_text),
      el("span", { class: "values" }, " (" + value(d.value_played) + " vs " + value(d.value_best) + ")"));
    li.addEventListener("click", (ev) => { if (ev.target.tagName !== "BUTTON") jumpTo(d.ply); });
    if (d.line.length) li.appendChild(el("button", { type: "button", class: "show-me", onclick: () => showMe(d) }, "show me"));
    list.appendChild(li);
  }
  if (!flagged.length) list.appendChild(el("li", { class: "none" }, "none: every move was close to the AI's"));
}

function drawLog() {
  const log = $("review-log");
  log.innerHTML = "";
  for (const e of data.log) {
    if (e.player === "chance" && e.text === null) continue;   // a deal this seat did not see
    const d = decisionAt(e.ply);
    const mark = d && e.text !== null && FLAGGED.includes(d.label) ? el("span", { class: "badge " + d.label }, d.label) : null;
    const li = el("li", { "data-ply": e.ply, class: e.player === seat ? "me" : "" },
      el("span", { class: "num" }, e.ply + "."), el("span", { class: "who" }, e.player === "chance" ? "dealer" : "P" + e.player),
      " ", e.text === null ? el("i", {}, "a move you cannot see") : e.text, mark ? " " : null, mark);
    li.addEventListener("click", () => go(e.ply));
    log.appendChild(li);
  }
}

// A decision: to the position where it was taken, as its mover saw it.
function jumpTo(ply) {
  const d = decisionAt(ply);
  if (d && d.player !== seat) { pos = ply - 1; location.hash = key + "/" + d.player; return; }
  go(ply - 1);
}

function go(p) {
  endLine();
  pos = Math.max(0, Math.min(data.plies, p));
  document.body.dataset.pos = pos;
  $("position").textContent = pos === 0 ? "start" : "move " + pos + " of " + data.plies;
  $("first").disabled = $("prev").disabled = pos === 0;
  $("last").disabled = $("next").disabled = pos === data.plies;
  drawCaption();
  for (const li of $("review-log").children) li.classList.toggle("current", Number(li.dataset.ply) === pos);
  scrollTo($("review-log"), $("review-log").querySelector("li.current"));
  for (const li of $("flagged").children) li.classList.toggle("current", Number(li.dataset.ply) === pos + 1);
  scrollTo($("flagged"), $("flagged").querySelector("li.current"));
  for (const m of $("graph").querySelectorAll("g.mark[data-ply]")) m.classList.toggle("current", Number(m.dataset.ply) === pos + 1);
  board(pos, 0);
}

// Scrolls a list (only it, not the page) to show an item.
function scrollTo(list, item) {
  if (!item) return;
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top - list.clientHeight / 2;
  }
}

function drawCaption() {
  const box = $("caption");
  box.innerHTML = "";
  const last = data.log[pos - 1];
  if (pos === 0) box.appendChild(el("div", {}, "The start of the game."));
  else {
    const text = last.text === null ? (last.player === "chance" ? "a deal you did not see" : "a move you cannot see") : last.text;
    box.appendChild(el("div", {}, "Move " + pos + ": " + who(last.player) + ": " + text));
  }
  const d = decisionAt(pos + 1);
  if (!d || d.player !== seat) {
    if (pos === data.plies) box.appendChild(el("div", { class: "next" }, "The end: " + data.result + "."));
    return;
  }
  const next = el("div", { class: "next " + d.label, "data-label": d.label },
    "Next, you played ", el("b", {}, d.move_text), " (" + value(d.value_played, d.stderr_played) + "): ",
    el("span", { class: "badge " + d.label }, LABEL_TEXT[d.label]));
  if (d.label !== "best") {
    next.append(". The AI's move: ", el("b", {}, d.best_text), " (" + value(d.value_best, d.stderr_best) + ") ");
    if (d.line.length) next.append(el("button", { type: "button", id: "show-me", onclick: () => showMe(d) }, "show me"));
  }
  box.appendChild(next);
}

// "show me": the AI's line for the decision played on the board, one move at a time.
function showMe(d) {
  if (d.player !== seat || pos !== d.ply - 1) {
    jumpTo(d.ply);
    if (d.player !== seat) { pendingLine = d.ply; return; }
  }
  endLine();
  line = { decision: d, step: 0 };
  $("line-bar").hidden = false;
  stepLine();
}

let pendingLine = null;  // a "show me" asked for another seat's move: played once its view is shown

function stepLine() {
  if (!line) return;
  const d = line.decision;
  line.step += 1;
  document.body.dataset.lineStep = line.step;
  const texts = d.line_text.map((t, i) => (i < line.step ? (i === line.step - 1 ? "<b>" + escapeHtml(t) + "</b>" : escapeHtml(t)) : null))
    .filter((x) => x !== null);
  $("line-text").innerHTML = "The AI's line (" + line.step + " of " + d.line.length + "): " + texts.join(" → ");
  board(pos, line.step);
  if (line.step < d.line.length) lineTimer = setTimeout(stepLine, 900);
}

function escapeHtml(t) { return t.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }

function endLine() {
  if (lineTimer) clearTimeout(lineTimer);
  lineTimer = null;
  line = null;
  delete document.body.dataset.lineStep;
  $("line-bar").hidden = true;
}

async function board(p, step) {
  const url = "/api/review/" + key + "/board?seat=" + seat + "&ply=" + p + (step ? "&line=" + step : "");
  const ticket = ++drawn;
  let svg = boards.get(url);
  if (svg === undefined) {
    const r = await fetch(url);
    if (!r.ok) { showError("cannot draw the board: " + (await r.json()).message); return; }
    svg = await r.text();
    boards.set(url, svg);
  }
  if (ticket !== drawn) return;
  $("board").innerHTML = svg;
  document.body.dataset.board = p + (step ? "+" + step : "");
}

// -- the routes --------------------------------------------------------------------------------
function route() {
  const [k, s] = location.hash.slice(1).split("/");
  if (/^(up-)?[0-9a-f]{32}$/.test(k || "")) {
    showReview(k, Number(s) || 0).then(() => {
      if (pendingLine !== null && data) { const d = decisionAt(pendingLine); pendingLine = null; if (d) showMe(d); }
    });
  } else {
    showFinished(0).catch((e) => showError("cannot list the finished games: " + e.message));
  }
}

function keys(ev) {
  if (!data || $("review").hidden || ev.target.closest("input, select, textarea")) return;
  const moves = { ArrowLeft: pos - 1, ArrowRight: pos + 1, Home: 0, End: data.plies };
  if (ev.key in moves) { ev.preventDefault(); go(moves[ev.key]); }
}

function init() {
  $("upload").addEventListener("submit", upload);
  $("newer").addEventListener("click", () => showFinished(Math.max(0, offset - PAGE)));
  $("older").addEventListener("click", () => showFinished(offset + PAGE));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(pos - 1));
  $("next").addEventListener("click", () => go(pos + 1));
  $("last").addEventListener("click", () => go(data.plies));
  $("line-back").addEventListener("click", () => go(pos));
  $("seat").addEventListener("change", () => { location.hash = key + "/" + $("seat").value; });
  document.addEventListener("keydown", keys);
  window.addEventListener("hashchange", route);
  route();
}

init();
