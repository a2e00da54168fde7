// golfsolve's page: every rule is the server's (POST /api/play applies a move with the real
// engine); this file only draws what the answers say and sends what the player does.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANKS = { T: "10" };
// a card as a screen reader reads it: "Q♣" came out as "Q black club suit", or as "Q" alone
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King", T: "10" };

const game = {
  source: null,      // {code: ...} or {pysol: ...}, plus rules
  text: "",          // the deal as the player typed it, for the page's address
  moves: [],         // moves played (d, 1-7, u), as /api/play replays them
  solution: [],      // the solver's line, once it is shown
  solved: null,      // the /api/solve answer, fetched only when the player may see it
  shown: 0,          // how much of it the page shows: HIDDEN, VERDICT or SOLUTION
  dealt: 0,          // counts deals, so a late answer about an old deal is dropped
  step: null,        // index into the solution while following it, else null
  state: null,       // the last /api/play state
  timer: null,       // the solution playing by itself
  busy: 0,
};

// "Don't peek at the stock" hides whether the deal can be won, and how, until the player asks
const HIDDEN = 0, VERDICT = 1, SOLUTION = 2;
const MAX_MOVES = 5000;  // the server's cap on the moves of one request (serve/app.py)

// `source`: the deal asked about (a deal on its way is not game.source until it is dealt)
async function api(endpoint, params, { source = game.source, signal } = {}) {
  let r;
  try {
    r = await fetch(`/api/${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...source, ...params }),
      signal,
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    // the browser's own words, "Failed to fetch", say neither what failed nor why
    throw new Error("No answer from the server: is golfsolve serve still running? Reload the page once it is.");
  }
  let body;
  try { body = await r.json(); } catch (e) { body = { error: `the server answered ${r.status}` }; }
  if (!r.ok) throw new Error(body.error || `the server answered ${r.status}`);
  return body;
}

// jokers come as "JK" and "JK2" (the second joker of +jokers2)
const isJoker = (c) => typeof c === "string" && c.startsWith("JK");

function cardName(c) {
  if (isJoker(c)) return c === "JK2" ? "Joker 2" : "Joker";
  return (RANKS[c[0]] || c[0]) + SUITS[c[1]];
}

// the card in words, for names and sentences; cardName's "Q♣" is for the eye
function cardWords(c) {
  if (isJoker(c)) return cardName(c);
  return `${RANK_WORDS[c[0]] || c[0]} of ${SUIT_WORDS[c[1]]}`;
}

function cardEl(c, tag = "div") {
  const el = document.createElement(tag);
  el.className = "card face" + (c && "HD".includes(c[1]) ? " red" : "");
  el.dataset.card = c;
  const rank = isJoker(c) ? "★" : (RANKS[c[0]] || c[0]);
  const suit = isJoker(c) ? "" : SUITS[c[1]];
  el.innerHTML = `<span class="corner">${rank}<br>${suit}</span><span class="pip">${suit || "★"}</span>`;
  el.setAttribute("aria-label", cardWords(c));
  return el;
}

function say(text, kind = "") {
  const m = $("message");
  // the same words again (a second rejected tap) are no change to a live region, so a screen
  // reader said nothing the second time: a no-break space at the end makes them new
  const was = m.textContent;
  m.textContent = was === text ? text + "\u00a0" : text;
  m.className = kind;
}

function draw(state) {
  game.state = state;
  const cols = $("columns");
  // a card played from the keyboard (Tab to it, Enter) goes with its column's old cards: the
  // focus moves on to the column's new free card, not back to the top of the page (a card
  // clicked is left alone: Space, which draws, would play the next card it handed the focus to)
  const focused = document.activeElement;
  const held = focused && focused.matches(":focus-visible") && focused.closest("#columns .column");
  const heldCol = held ? [...cols.children].indexOf(held) : -1;
  cols.innerHTML = "";
  state.columns.forEach((col, i) => {
    const wrap = document.createElement("div");
    wrap.className = "column";
    wrap.setAttribute("role", "group");
    wrap.setAttribute("aria-label", `Column ${i + 1}` + (col.length ? "" : ", empty"));
    const num = document.createElement("div");
    num.className = "col-num";
    num.textContent = i + 1;
    wrap.appendChild(num);
    if (!col.length) {
      const slot = document.createElement("div");
      slot.className = "card slot";
      wrap.appendChild(slot);
    }
    col.forEach((c, row) => {
      const free = row === col.length - 1;
      const el = cardEl(c, "button");
      el.type = "button";
      el.style.setProperty("--row", row);
      el.classList.add(free ? "free" : "covered");
      const fits = free && state.legal_moves.includes(String(i + 1));
      if (fits) el.classList.add("fits");
      // what the green ring shows the eye (it goes on the discard) is said in words too
      el.setAttribute("aria-label", `${cardWords(c)}, column ${i + 1}, row ${row + 1}` +
        (free ? (fits ? " (free, playable)" : " (free)") : " (covered)"));
      if (!free) el.tabIndex = -1;  // the keyboard reaches the free cards; 1-7 play them too
      el.addEventListener("click", () => act({ tap: `${i + 1},${row + 1}` }));
      wrap.appendChild(el);
    });
    cols.appendChild(wrap);
  });
  if (heldCol >= 0) {
    const free = [...cols.children].map((c) => c.querySelector(".card.free"));
    const next = free.slice(heldCol).concat(free.slice(0, heldCol)).find((el) => el);
    (next || $("stock")).focus();
  }
  const disc = $("discard");
  disc.className = "card";
  disc.innerHTML = "";
  if (state.discard) {
    const c = cardEl(state.discard);
    disc.replaceWith(c);
    c.id = "discard";
    // a name on a div without a role is not read: the discard read as "Q ♣ ♣"
    c.setAttribute("role", "img");
    c.setAttribute("aria-label", `Discard pile: ${cardWords(state.discard)}`);
  } else {
    disc.classList.add("slot");
    disc.setAttribute("aria-label", "Discard pile: empty");
  }
  const n = state.stock.length;
  $("stock-count").textContent = n;
  $("stock").className = "card " + (n ? "back" : "slot");
  $("stock").setAttribute("aria-label", n ? `Stock: ${n} cards; draw one (D)` : "Stock: empty");
  $("score").textContent = state.score;
  $("moves").textContent = state.moves;
  $("left").textContent = state.cards_left;
  document.body.dataset.status = state.status;
}

function stepInfo() {
  const n = game.solution.length;
  if (!n) { $("step-info").textContent = ""; return; }
  $("step-info").textContent = game.step === null
    ? "Off the solution's line: Start goes back to its beginning."
    : `Step ${game.step} of ${n}` + (game.step === n ? (game.state && game.state.status === "won" ? ": won!" : ": its end") : "");
  document.querySelectorAll("#solution-moves li").forEach((li, k) => {
    li.classList.toggle("done", game.step !== null && k < game.step);
    li.classList.toggle("next", game.step !== null && k === game.step);
    // the highlighted next move, said as well as coloured
    if (game.step !== null && k === game.step) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  });
}

// Whatever changes the table (a move, a step of the solution, a deal) goes to the server one at
// a time, each sent with the position the one before it left: sent at once, a second key press
// before the first answer came would replay the game without the first move (three quick draws
// on a slow connection draw one card; → pressed three times steps once; a key pressed while a
// new deal is on its way sends the old game's moves with the new deal).
let acting = Promise.resolve();
function queued(work) {
  waiting(+1);
  const next = acting.then(work).finally(() => waiting(-1));
  acting = next.catch(() => {});
  return next;
}

// A move the server has not answered within a moment shows that it waits (a slow server, a
// long queue of key presses): the table is marked busy, and the pointer and a line say so.
let waitTimer = null;
function waiting(change) {
  game.busy += change;
  clearTimeout(waitTimer);
  if (!game.busy) {
    $("table").removeAttribute("aria-busy");
    document.body.classList.remove("waiting");
    return;
  }
  waitTimer = setTimeout(() => {
    $("table").setAttribute("aria-busy", "true");
    document.body.classList.add("waiting");
  }, 400);
}
const act = (action) => queued(() => actNow(action));
// `to(step)`: the step to go to, from the step the table is at when its turn comes
const stepTo = (to) => queued(() => game.solution.length ? goToStep(to(game.step)) : undefined);

async function actNow(action) {
  if (!game.source) return;
  stopPlaying();
  try {
    const r = await api("play", { moves: game.moves.join(" "), ...action });
    if (r.ok) {
      game.moves = r.moves_played ? r.moves_played.split(" ") : [];
      followLine();
      remember();
      draw(r.state);
      clearAnswers();
      say(r.message || describe(r), r.state.status === "won" ? "won" : r.state.status === "locked" ? "locked" : "");
    } else {
      say(r.message, "rejected");
    }
    stepInfo();
  } catch (e) {
    say(e.message, "error");
  }
}

// The moves that made the position on the table: each undo takes back the action before it.
// Compared as played, a win undone one move read as "off the solution's line", and the next
// step forward went back to the deal's start.
function onTable(moves) {
  const made = [];
  for (const m of moves) { if (m === "u") made.pop(); else made.push(m); }
  return made;
}

// a game that follows the solution keeps the stepper on it
function followLine() {
  const made = onTable(game.moves);
  const onLine = made.length <= game.solution.length && made.every((m, k) => m === game.solution[k]);
  game.step = onLine && game.solution.length ? made.length : null;
}

// The page's address names the deal, its rules and the moves played, so a reload (or the link)
// goes on with the same game: with the deal alone, a game of Classic came back as Easy, from
// its first move.
function remember() {
  const q = new URLSearchParams();
  if (game.source.rules) q.set("rules", game.source.rules);
  if (game.moves.length) q.set("moves", game.moves.join(" "));
  const extra = q.toString();
  history.replaceState(null, "", "#" + encodeURIComponent(game.text) + (extra ? "?" + extra : ""));
  written = location.hash;
}

// said in words, and with the discard an undo leaves (the card moved or drawn is the new one)
function describe(r) {
  if (!r.move) return "";
  if (r.move === "d") return `Drew ${cardWords(r.card)}.`;
  if (r.move === "u") {
    const col = r.state.columns.findIndex((c) => c.length && c[c.length - 1] === r.card);
    const to = col >= 0 ? ` to column ${col + 1}` : " to the stock";
    const now = r.state.discard ? `the discard is ${cardWords(r.state.discard)}` : "the discard is empty";
    return `Undid: ${cardWords(r.card)} went back${to}; ${now}.`;
  }
  return `${cardWords(r.card)} from column ${r.move} onto the discard.`;
}

// The moves that take the table to step k of the solution: undo back to where the table
// leaves the solution's line (or to step k), then the solution's moves from there. Undone
// rather than dealt again, so the move counter goes on counting (it never goes down); past
// the server's cap on moves (a long session of stepping) the line is played from the deal.
function movesToStep(k) {
  const made = onTable(game.moves);
  let p = 0;
  while (p < made.length && p < game.solution.length && made[p] === game.solution[p]) p++;
  const keep = Math.min(p, k);
  const moves = game.moves.concat(Array(made.length - keep).fill("u"), game.solution.slice(keep, k));
  return moves.length <= MAX_MOVES ? moves : game.solution.slice(0, k);
}

async function goToStep(k) {
  const n = game.solution.length;
  k = Math.max(0, Math.min(n, k));
  try {
    const moves = movesToStep(k);
    // the last move as the action, so that the answer names its card
    const r = moves.length
      ? await api("play", { moves: moves.slice(0, -1).join(" "), action: moves[moves.length - 1] })
      : await api("play", { moves: "" });
    game.moves = moves;
    game.step = k;
    remember();
    draw(r.state);
    clearAnswers();
    const what = r.move ? describe(r) : "";
    say(r.message || (k > 0 ? `Solution step ${k}` + (what ? `: ${what}` : ".") : "The start of the deal" + (what ? `: ${what}` : ".")),
        r.state.status === "won" ? "won" : "");
    stepInfo();
  } catch (e) {
    say(e.message, "error");
  }
}

function playLabel(playing) {
  $("step-play").textContent = playing ? "⏸ Pause" : "▶ Play";
  $("step-play").setAttribute("aria-label", playing ? "Pause the solution" : "Play the solution");
}

function stopPlaying() {
  if (game.timer) {
    clearInterval(game.timer);
    game.timer = null;
    playLabel(false);
  }
}

// A player who asked the system for less motion sees the cards move at a pace to follow, one
// step every 2 s, not 0.6 s (asked when Play starts, so a setting changed meanwhile counts).
function playDelay() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches ? 2000 : 600;
}

function togglePlay() {
  if (game.timer) { stopPlaying(); return; }
  if (!game.solution.length) return;
  playLabel(true);
  // a slow answer must not let steps overtake each other
  let inflight = false;
  const step = (to) => { inflight = true; stepTo(to).finally(() => { inflight = false; }); };
  // the timer is set before any answer is awaited, else P pressed twice while the first step back
  // to the start is on its way starts two timers, one of them beyond Pause's reach
  game.timer = setInterval(() => {
    if (inflight) return;
    if (game.step === null || game.step >= game.solution.length) { stopPlaying(); return; }
    step((s) => s + 1);
  }, playDelay());
  if (game.step === null || game.step >= game.solution.length) step(() => 0);
}

function pct(x) { return (100 * x).toFixed(1) + "%"; }
// a message of the API's (written to follow "golfsolve: ") as a panel's sentence
function sentence(t) { return t ? t[0].toUpperCase() + t.slice(1) : t; }
// a value's 95% interval as the CLI writes it (golfsolve.text.estimate): "15.0% [7.1, 24.3]"
function interval(ci) {
  return ci ? ` <span class="ci">[${(100 * ci[0]).toFixed(1)}, ${(100 * ci[1]).toFixed(1)}] (95% interval)</span>` : "";
}

function clearHint() {
  if (asking.hint) asking.hint.abort();
  $("hint").innerHTML = "";
  document.querySelectorAll(".hinted").forEach((el) => el.classList.remove("hinted"));
}

// The hint and the odds are the position's on the table ("Odds from here"): a move, a step or a
// deal clears them (else a game over's odds stay on after its last move is undone), and the
// requests still on their way are called off, so the server does not go on working for nobody.
function clearAnswers() {
  clearHint();
  if (asking.odds) asking.odds.abort();
  $("odds").innerHTML = "";
}

// the hint or odds request on its way, by endpoint: {key, abort()}; a key pressed again for the
// same question asks nothing more (each press of O would be seconds of the server's work, queued)
const asking = { hint: null, odds: null };
function ask(endpoint, key, params) {
  const controller = new AbortController();
  const mine = { key, abort: () => controller.abort() };
  asking[endpoint] = mine;
  return api(endpoint, params, { signal: controller.signal })
    .finally(() => { if (asking[endpoint] === mine) asking[endpoint] = null; });
}

function markHint(move) {
  document.querySelectorAll(".hinted").forEach((el) => el.classList.remove("hinted"));
  if (move === "d") { $("stock").classList.add("hinted"); return; }
  const col = $("columns").children[Number(move) - 1];
  if (col) col.lastElementChild.classList.add("hinted");
}

function moveWords(a) {
  return a.move === "d" ? "draw" + (a.card ? ` (${cardWords(a.card)})` : "")
    : `${a.card ? cardWords(a.card) : "the free card"} from column ${a.move}`;
}

function valueOf(a) {
  for (const k of ["fair_value", "value", "chance"]) if (typeof a[k] === "number") return a[k];
  return null;
}

// the deal and the moves played: an answer asked about one position and come back after the
// player moved on (or entered another deal) is about a position no longer on the table
function position() { return `${game.dealt} ${game.moves.join(" ")}`; }

async function hint() {
  if (!game.source) return;
  const fair = $("fair").checked;
  // a peeking hint asked for before "Don't peek" was ticked is not shown after it
  const asked = () => `${position()} ${fair === $("fair").checked}`;
  const key = asked();
  if (asking.hint && asking.hint.key === key) return;
  clearHint();
  $("hint").innerHTML = `<p class="wait">Thinking${fair ? " without peeking" : ""}…</p>`;
  try {
    const r = await ask("hint", key, { moves: game.moves.join(" "), fair });
    if (asked() !== key) return;  // an answer to an earlier position would mark a card of this one
    if (!r.best) { $("hint").innerHTML = `<p class="best">${sentence(r.message)}</p>`; return; }
    const best = r.best;
    const rows = r.ranked.map((a) => {
      const v = valueOf(a);
      const why = fair ? (v === null ? "" : `${pct(v)}${interval(a.ci95)}`) : a.reason;
      return `<li><span class="mv">${moveWords(a)}</span> <span class="why">${why}</span></li>`;
    }).join("");
    $("hint").innerHTML =
      `<p class="best">${fair ? "Without peeking" : "Peeking at the stock"}, play <strong>${moveWords(best)}</strong>.</p>` +
      `<ol class="ranked">${rows}</ol>` +
      (fair && r.estimate ? `<p class="note">${r.estimate.split(";")[0]}.</p>` : "");
    markHint(best.move);
  } catch (e) {
    if (asked() !== key || e.name === "AbortError") return;
    $("hint").innerHTML = "";
    say(e.message, "error");
  }
}

let oddsAsked = 0;  // counts odds requests: only the latest may clear the panel

async function odds() {
  if (!game.source) return;
  const asked = position();  // the odds are the position's on the board, as the hint is
  if (asking.odds && asking.odds.key === asked) return;
  const played = game.moves.length;
  const mine = ++oddsAsked;
  // an answer about an earlier position is dropped; its "wait" goes unless a later request's is shown
  const stale = () => { if (position() === asked) return false; if (mine === oddsAsked) $("odds").innerHTML = ""; return true; };
  $("odds").innerHTML = `<p class="wait">Solving sampled stock orders and playing fair games… (a few seconds)</p>`;
  try {
    const r = await ask("odds", asked, { moves: game.moves.join(" ") });
    if (stale()) return;  // an answer to another deal or position would show beside this one
    const c = r.clairvoyant, f = r.fair;
    if (r.game_over) {  // won or locked: said as the hint says it, the chances exact (nothing sampled)
      $("odds").innerHTML = `<p class="best">${sentence(r.message)}</p>` +
        `<p class="note">Fair and clairvoyant chance: ${pct(c.chance)} (exact).</p>`;
      return;
    }
    const from = played ? `what is seen after ${played} move${played === 1 ? "" : "s"}` : "the opening";
    $("odds").innerHTML =
      `<dl><dt>Clairvoyant<br><span class="note">stock seen</span></dt><dd><b>${pct(c.chance)}</b>${interval(c.ci95)}</dd>` +
      (f && f.chance !== null ? `<dt>Fair<br><span class="note">stock unseen</span></dt><dd><b>${pct(f.chance)}</b>${interval(f.ci95)}</dd>` : "") +
      `</dl><p class="note">Over ${c.samples} stock orders consistent with ${from}` +
      (f && f.games ? `; the fair player played ${f.games} of them` : "") + ".</p>";
  } catch (e) {
    if (stale() || e.name === "AbortError") return;
    $("odds").innerHTML = "";
    say(e.message, "error");
  }
}

// `restore`: the moves of a game to go on with (from the page's address), played again. The deal
// box and the Rules list are read now, the deal made in its turn after the moves before it.
function deal(ev, restore = "") {
  if (ev) ev.preventDefault();
  stopPlaying();
  const text = $("deal-input").value.trim();
  const source = /^\d+$/.test(text) ? { pysol: text } : { code: text };
  if ($("rules").value) source.rules = $("rules").value;
  // typed and dealt: the keys play the game now, not type into the deal box
  if (ev && ev.type === "submit" && document.activeElement === $("deal-input")) $("deal-input").blur();
  return queued(() => dealNow(source, text, restore));
}

async function dealNow(source, text, restore) {
  try {
    let r, lost = "";
    try {
      r = await api("play", restore ? { moves: restore } : {}, { source });
    } catch (e) {
      if (!restore) throw e;
      lost = e.message;  // the deal is good, the moves are not: the deal from its start, and why
      r = await api("play", {}, { source });
    }
    game.source = source;
    game.dealt += 1;
    game.text = text;
    game.moves = r.moves_played ? r.moves_played.split(" ") : [];
    game.solved = null;
    game.step = 0;
    draw(r.state);
    clearAnswers();
    remember();
    const hide = $("fair").checked;
    const n = r.state.moves;
    say(`${r.deal} (${r.rules})` + (n ? `, ${n} move${n === 1 ? "" : "s"} in` : "") +
        (r.state.status === "playing" ? ". Click a free card or the stock" + (hide ? "." : ", or step through the solution.")
          : `: ${r.state.status === "won" ? "won" : "no more possible moves"}.`) +
        (lost ? ` (The address's moves were not played: ${lost}.)` : ""));
    reveal(hide ? HIDDEN : SOLUTION);  // not awaited: a long search must not hold up the moves behind it
  } catch (e) {
    // the Rules list names the rule set of the game on the table, not a refused choice (jokers
    // for a PySol deal) while the game goes on under the old rules
    if (game.source) $("rules").value = game.source.rules || "";
    // rules an address added to the list and the server refused leave it, or every later Deal
    // would send them again
    const refused = [...$("rules").options].find((o) => o.dataset.asked && o.value === source.rules);
    if (refused && refused.value !== (game.source ? game.source.rules || "" : null)) {
      if ($("rules").value === refused.value) $("rules").value = "";
      refused.remove();
    }
    say(e.message, "error");
  }
}

// Show the solver's answer up to `level`: the verdict, or the verdict and the solution. Until
// the player may see it the page does not even ask the server.
async function reveal(level) {
  game.shown = level;
  if (level > HIDDEN && !game.solved) {
    const dealt = game.dealt;
    $("verdict").textContent = "Solving…";
    $("reveal").hidden = true;
    try {
      const s = await api("solve", {});
      if (dealt !== game.dealt) return;  // another deal came meanwhile
      game.solved = s;
    } catch (e) {
      if (dealt !== game.dealt) return;
      $("verdict").textContent = "";
      say(e.message, "error");
      game.shown = HIDDEN;
    }
  }
  showSolved();
}

function showSolved() {
  const s = game.shown > HIDDEN ? game.solved : null;
  const full = game.shown === SOLUTION && s !== null;
  game.solution = full && s.moves ? s.moves.split(" ") : [];
  $("reveal").hidden = full;
  $("ask-verdict").hidden = s !== null;
  if (!s) {
    $("verdict").textContent = "Hidden: you chose not to peek at the stock.";
  } else if (s.outcome === "won") {
    $("verdict").innerHTML = `<strong class="yes">Winnable</strong>` + (full
      ? ` in ${game.solution.length} moves (searched ${s.nodes.toLocaleString()} states).` : ".");
  } else if (s.outcome === "lost") {
    $("verdict").innerHTML = `<strong class="no">Not winnable</strong>: at best ${s.best_cards_left} ` +
      `card${s.best_cards_left === 1 ? "" : "s"} left (app score ${s.best_app_score}).`;
  } else {
    $("verdict").textContent = "Unknown: the search stopped.";
  }
  // "d" and "3" as the eye reads them, "draw" and "column 3" as a screen reader does
  $("solution-moves").innerHTML = game.solution.map((m) => `<li><span aria-hidden="true">${m}</span>` +
    `<span class="sr-only">${m === "d" ? "draw" : `column ${m}`}</span></li>`).join("");
  document.querySelectorAll(".stepper button").forEach((b) => { b.disabled = !game.solution.length; });
  followLine();
  stepInfo();
}

function peekChanged() {
  if (!game.source) return;
  clearHint();  // judged the other way: a peeking hint must not stay on once "Don't peek" is ticked
  if ($("fair").checked) {
    stopPlaying();
    game.shown = HIDDEN;
    showSolved();
  } else {
    reveal(SOLUTION);
  }
}

function onKey(ev) {
  // keys typed into a text box or a list are theirs; on the "Don't peek" tick box (just
  // clicked) the keys play, all but Space, which ticks it
  if (ev.target.matches("input:not([type=checkbox]), select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k === " " && ev.target.matches("input[type=checkbox], button")) return;
  const keys = {
    d: () => act({ action: "d" }), " ": () => act({ action: "d" }), u: () => act({ action: "u" }),
    h: hint, o: odds, p: togglePlay,
    ArrowRight: () => stepTo((s) => (s ?? -1) + 1), ArrowLeft: () => stepTo((s) => (s ?? 1) - 1),
    Home: () => stepTo(() => 0), End: () => stepTo(() => game.solution.length),
    "/": () => $("deal-input").focus(),
  };
  if (/^[1-7]$/.test(k)) { ev.preventDefault(); act({ action: k }); return; }
  const f = keys[k.length === 1 ? k.toLowerCase() : k];
  if (f) { ev.preventDefault(); f(); }
}

document.addEventListener("DOMContentLoaded", () => {
  $("deal-form").addEventListener("submit", deal);
  $("stock").addEventListener("click", () => act({ action: "d" }));
  $("undo").addEventListener("click", () => act({ action: "u" }));
  $("hint-button").addEventListener("click", hint);
  $("odds-button").addEventListener("click", odds);
  $("step-first").addEventListener("click", () => stepTo(() => 0));
  $("step-back").addEventListener("click", () => stepTo((s) => (s ?? 1) - 1));
  $("step-forward").addEventListener("click", () => stepTo((s) => (s ?? -1) + 1));
  $("step-last").addEventListener("click", () => stepTo(() => game.solution.length));
  $("step-play").addEventListener("click", togglePlay);
  $("ask-verdict").addEventListener("click", () => reveal(VERDICT));
  $("ask-solution").addEventListener("click", () => reveal(SOLUTION));
  $("fair").addEventListener("change", peekChanged);
  document.addEventListener("keydown", onKey);
  // the Rules list plays the deal under the rule set chosen, not only names it while the game
  // goes on under the old rules
  $("rules").addEventListener("change", deal);
  // an address edited by hand, or Back and Forward between two of them, deals what it names,
  // not the game the page had under an address naming another
  window.addEventListener("hashchange", () => { if (location.hash !== written) fromAddress(); });
  fromAddress();
});

let written = "";  // the address the page last wrote (remember), so its own change is not dealt again

// the deal a link names ("#GO1-E-AAAAAAB", then "?rules=classic&moves=d+3" if any); one that
// is not percent-encoded ("#100%") is taken as written: decodeURIComponent throws 'URI
// malformed' on a stray %, leaving a blank page
function fromAddress() {
  const hash = location.hash.slice(1);
  const cut = hash.indexOf("?");
  let fromHash = cut < 0 ? hash : hash.slice(0, cut);
  const asked = new URLSearchParams(cut < 0 ? "" : hash.slice(cut + 1));
  try { fromHash = decodeURIComponent(fromHash); } catch (e) { /* as written */ }
  if (fromHash) $("deal-input").value = fromHash;
  const rules = asked.get("rules") || "";
  if (rules && ![...$("rules").options].some((o) => o.value === rules)) {
    const o = new Option(rules, rules);
    o.dataset.asked = "1";
    $("rules").add(o);
  }
  $("rules").value = rules;
  deal(null, asked.get("moves") || "");
}
