// web/app.js - the page of `ttt serve`: a thin client of the JSON API (README, "ttt serve"). No framework.
'use strict';

const HINT_ENGINE = 'montecarlo:time=500'; // scores for boards the solver cannot finish in time
const SEED_RANGE = 1000000;                // engines get a random seed per game, for variety

const $ = (id) => document.getElementById(id);
let game = null;     // the state from the API
let busy = false;    // a request that changes the game is under way
let epoch = 0;       // bumped by every new game: answers for an older game are dropped
let hintEpoch = 0;   // the same for hint answers
let hints = null;    // the last analysis shown, or null
let focusCell = 0;   // the cell that has tabindex=0 (roving focus)
let figures = [];    // per ply: what the engine that played it said (spec, nodes, ms, depth; value when explained)
const counted = new Set(); // games already added to the score
let score = JSON.parse(sessionStorage.getItem('ttt-score') || '{"x":0,"o":0,"draw":0}');

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) {
    // A refusal for the load (429 too many, 503 busy) says when to come back: Retry-After, or the JSON's.
    const retryAfter = +res.headers.get('Retry-After') || +data.retry_after || 0;
    throw Object.assign(new Error(data.error || `HTTP ${res.status}`), { status: res.status, retryAfter });
  }
  return data;
}

// A refusal that passes with time (too many requests, or the server busy): worth a retry, not a dead end.
const limited = (e) => !!e && (e.status === 429 || e.status === 503);

// An error as one line that says what to do about it (shown under the board, in view).
function errorText(e) {
  if (e instanceof TypeError) // fetch found no server
    return 'The server did not answer: is ttt serve still running? Start it again, then press New game.';
  const text = String(e.message || e);
  if (e.status === 503) return `${text} (wait a moment, then try the same again).`;
  return text;
}

// retry (optional): what to do again; a limited request then gets a countdown to the time the server named,
// after which it is retried by itself, and a button to retry at once.
function showError(e, retry) {
  clearInterval(retryTimer);
  $('message').classList.remove('notice');
  if (retry && limited(e)) { showLimited(e, retry); return; }
  $('message').textContent = e ? errorText(e) : '';
}

const RETRY_DEFAULT_S = 5; // a refusal that names no time
let retryTimer = 0;
function showLimited(e, retry) {
  let left = Math.max(1, Math.ceil(e.retryAfter || RETRY_DEFAULT_S));
  const what = e.status === 429 ? 'The server asks this browser to slow down' : 'The server is busy';
  const count = el('span', { className: 'countdown' });
  count.setAttribute('aria-hidden', 'true'); // the seconds ticking would be read out every second
  const again = () => { clearInterval(retryTimer); count.textContent = ' Retrying now…'; retry(); };
  const button = el('button', { type: 'button', className: 'retry', textContent: 'Retry now' });
  button.addEventListener('click', again);
  const tick = () => { count.textContent = ` Retrying in ${left} s.`; };
  tick();
  $('message').replaceChildren(`${what}: ${e.message}.`, el('span', { className: 'sr-only', textContent: ` It is retried in ${left} s.` }), count, ' ', button);
  retryTimer = setInterval(() => { if (--left <= 0) again(); else tick(); }, 1000);
}

// A short note that is not an error (e.g. why a new game started).
function showNotice(text) {
  $('message').textContent = text;
  $('message').classList.add('notice');
}

// The answer of the API for a game it no longer has (the server restarted, or the game sat idle too long).
const EXPIRED = /^no game '[^']*' \(unknown or expired\)$/;

// Errors of requests about the current game: an expired game starts a new one with the same settings.
function gameError(e, retry) {
  if (e && e.status === 404 && EXPIRED.test(e.message)) {
    newGame('That game had expired on the server: it was opened again from its moves.', game.moves.join(' '), { replace: true });
    return;
  }
  showError(e, retry);
}

// --- Setup ---------------------------------------------------------------------------------------------

async function loadEngines() {
  const data = await api('GET', '/api/engines');
  for (const side of ['x', 'o']) {
    const sel = $(`player-${side}`);
    const levels = document.createElement('optgroup');
    levels.label = 'Levels';
    // Names only: the spec behind a level is its tooltip (long specs were cut off in the select).
    for (const l of data.levels) {
      const o = new Option(l.name, l.name);
      o.title = `${l.spec}: ${l.about}`;
      levels.append(o);
    }
    const engines = document.createElement('optgroup');
    engines.label = 'Engines';
    for (const e of data.engines) {
      const o = new Option(e.name, e.name);
      o.title = e.summary;
      engines.append(o);
    }
    sel.append(levels, engines);
  }
  $('player-o').value = 'medium';
  fillWhyEngines(data);
}

// Changing the rules or the players starts a new game with them (after a short pause, so that typing "12" in
// a number field starts one game, not two).
const SETUP_DELAY_MS = 400;
let setupTimer = 0;
function setupChanged() {
  clearTimeout(setupTimer);
  if (!$('setup').checkValidity()) {
    showNotice('Rules out of range: fix them, then a new game starts.');
    return;
  }
  setupTimer = setTimeout(() => {
    if ($('board').dataset.setup !== setupText()) newGame('New game with the changed rules and players.');
  }, SETUP_DELAY_MS);
}

function rulesText() {
  const rows = +$('rows').value, cols = +$('cols').value, k = $('k').value;
  return `${rows}x${cols}${k ? `k${k}` : ''}${$('misere').checked ? '-misere' : ''}`;
}

function playerSpec(side) {
  const v = $(`player-${side}`).value;
  if (v === 'human') return 'human';
  return `${v}:seed=${Math.floor(Math.random() * SEED_RANGE)}`;
}

// The settings a game was made with: rules and the players as chosen in the selects.
const setupText = () => `${rulesText()}|${$('player-x').value}|${$('player-o').value}`;

// Starts a game with the settings of the form, from moves (a text, or nothing for the empty board); notice
// (or nothing) says why. The game gets a new entry in the browser's history, or takes the current one's place
// (replace: it is the game the address already names). Errors are shown, or thrown when quiet.
async function newGame(notice, moves, { replace = false, quiet = false } = {}) {
  clearTimeout(setupTimer);
  showError(null);
  const my = ++epoch;
  busy = false;
  const setup = setupText();
  try {
    const body = { rules: rulesText(), x: playerSpec('x'), o: playerSpec('o') };
    if (moves) body.moves = moves;
    const state = await api('POST', '/api/games', body);
    if (my !== epoch) return;
    figures = restoreFigures(state);
    review = null;
    view = null;
    paused = false;
    stepping = false;
    focusCell = Math.floor(state.rules.rows / 2) * state.rules.cols + Math.floor(state.rules.cols / 2);
    buildBoard(state);
    $('board').dataset.setup = setup;
    $('board').dataset.epoch = my;
    if (typeof notice === 'string') showNotice(notice);
    pushAddress = !replace;
    update(state);
    engineTurns(my);
  } catch (e) {
    if (quiet) throw e;
    if (my === epoch) showError(e, () => newGame(notice, moves, { replace }));
  }
}

// Opens the game the address names (on load, Back or Forward): its rules, players and moves, created again
// through the API. What cannot be opened is said, and a board is always shown: the rules' empty board when
// only the moves are wrong, else the default rules'.
async function openAddress() {
  const link = fromLink();
  if (!link) {
    try { await newGame(undefined, undefined, { replace: true, quiet: true }); } catch (e) { waitForServer(e, openAddress); }
    return;
  }
  if (!link.error) {
    try {
      await newGame(link.moves ? 'Reopened from the address.' : undefined, link.moves || undefined, { replace: true, quiet: true });
      if (link.ply !== null) browse(link.ply);
      return;
    } catch (e) {
      if (limited(e)) { waitForServer(e, openAddress); return; }
      link.error = `The address's game could not be opened: ${errorText(e)}.`;
    }
    if (link.moves) {
      try {
        await newGame(undefined, undefined, { replace: true, quiet: true });
        showError(`${link.error} Here is the empty board of its rules.`);
        return;
      } catch (e) { if (limited(e)) { waitForServer(e, openAddress); return; } /* else the rules are refused too */ }
    }
  }
  for (const id of ['rows', 'cols']) $(id).value = $(id).defaultValue;
  $('k').value = '';
  $('misere').checked = false;
  try {
    await newGame(undefined, undefined, { replace: true, quiet: true });
  } catch (e) { waitForServer(e, openAddress); return; }
  showError(`${link.error} Showing ${rulesText()} instead: pick the rules above.`);
}

// No board yet (the first game was refused): the status says so instead of "Loading…", the message when
// the page tries again.
function waitForServer(e, retry) {
  if (!game) $('status').textContent = limited(e) ? 'Waiting for the server…' : 'No game: the server refused it.';
  showError(e, retry);
}

// The address follows the game: every change replaces the history entry; a new game adds one.
let pushAddress = false;
function syncAddress(state) {
  const url = linkFor(state);
  if (url === location.href) return;
  if (pushAddress) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
  pushAddress = false;
}

// --- The board -----------------------------------------------------------------------------------------

const colName = (c) => String.fromCharCode(97 + c);
const cellName = (r, c) => `${colName(c)}${r + 1}`;

function buildBoard(state) {
  const board = $('board');
  const { rows, cols } = state.rules;
  board.replaceChildren();
  board.dataset.game = state.id;
  const wrap = board.parentElement;
  wrap.style.setProperty('--cols', cols);
  wrap.style.setProperty('--rows', rows);
  // Coordinates as the project's notation names cells: columns a-t left to right, rows 1-20 top to bottom.
  $('col-coords').replaceChildren(...Array.from({ length: cols }, (_, c) => Object.assign(document.createElement('span'), { textContent: colName(c) })));
  $('row-coords').replaceChildren(...Array.from({ length: rows }, (_, r) => Object.assign(document.createElement('span'), { textContent: String(r + 1) })));
  board.setAttribute('aria-label', `Board, ${rows} rows by ${cols} columns`);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'cell';
      b.dataset.cell = cellName(r, c);
      b.dataset.index = r * cols + c;
      b.tabIndex = r * cols + c === focusCell ? 0 : -1;
      board.append(b);
    }
  }
}

function cellButtons() { return $('board').querySelectorAll('.cell'); }

function statusText(s) {
  if (s.outcome === 'draw') return 'Draw';
  if (s.outcome === 'x' || s.outcome === 'o') {
    const winner = s.outcome.toUpperCase();
    return s.rules.misere ? `${winner} wins (the other side completed a line)` : `${winner} wins`;
  }
  const who = s.players[s.to_move];
  return `${s.to_move.toUpperCase()} to move${who === 'human' ? '' : ` (${who.split(':')[0]})`}`;
}

// A new state of the game from the API. The ply shown stays where it was when browsing.
function update(state) {
  game = state;
  hints = null;
  if (view !== null && view >= state.moves.length) view = null;
  figures.length = Math.min(figures.length, state.moves.length);
  render();
  countScore(state);
  refreshHints();
  followPlayers();
  scheduleWhy();
  scheduleReview();
  scheduleTrace();
}

// Browsing: view is the ply shown (the position after that many moves), null for the game's current one.
// Browsing never changes the game; "Play from here" makes a new game of the moves up to the ply shown.
let view = null;
const shownPly = () => (view === null ? game.moves.length : view);
const browsing = () => !!game && view !== null;

// The board after the first ply moves of the game, as rows of '.', 'x', 'o' (the API's own form).
function boardAt(state, ply) {
  const { rows, cols } = state.rules;
  const cells = Array.from({ length: rows }, () => Array(cols).fill('.'));
  state.moves.slice(0, ply).forEach((m, i) => { cells[+m.slice(1) - 1][m.charCodeAt(0) - 97] = i % 2 === 0 ? 'x' : 'o'; });
  return cells.map((r) => r.join(''));
}

// Draws the position shown: the game's current one, or the ply browsed to.
function render() {
  const state = game, ply = shownPly(), live = ply === state.moves.length;
  const board = live ? state.board : boardAt(state, ply);
  const last = ply > 0 ? state.moves[ply - 1] : null;
  const line = new Set(live ? state.winning_line : []);
  // In misère the completed line is the loser's: painted as a loss, not as a win.
  const [lineClass, lineLabel] = state.rules.misere ? ['lose', 'losing line'] : ['win', 'winning line'];
  const { cols } = state.rules;
  const humanTurn = live && state.outcome === 'ongoing' && !state.engine_to_move;
  for (const b of cellButtons()) {
    const i = +b.dataset.index;
    const ch = board[Math.floor(i / cols)][i % cols];
    const name = b.dataset.cell;
    b.textContent = ch === '.' ? '' : ch.toUpperCase();
    b.className = 'cell' + (ch === '.' ? '' : ` ${ch}`);
    if (name === last) b.classList.add('last');
    if (line.has(name)) b.classList.add(lineClass);
    let label = `${name}, ${ch === '.' ? 'empty' : ch.toUpperCase()}`;
    if (name === last) label += ', last move';
    if (line.has(name)) label += `, ${lineLabel}`;
    b.setAttribute('aria-label', label);
    b.setAttribute('aria-disabled', String(ch !== '.' || !humanTurn));
  }
  $('undo').disabled = state.moves.length === 0;
  const slider = $('ply-slider');
  slider.max = state.moves.length;
  slider.value = ply;
  slider.setAttribute('aria-valuetext', ply === 0 ? 'the start' : `move ${ply} of ${state.moves.length}`);
  $('play-here').disabled = live;
  showRecord(state);
  showWatch();
  renderPlayed();
  drawTimeline();
}

// Shows the position after ply moves (clamped to the game), without changing the game.
function browse(ply) {
  if (!game) return;
  const n = game.moves.length, to = Math.max(0, Math.min(n, ply));
  const next = to === n ? null : to;
  if (next === view) return;
  view = next;
  clearHints();
  render();
  if (view === null) refreshHints();
  scheduleWhy();
  scheduleTrace();
}

// A new game of the moves up to the ply shown, with the same players (the old game stays in the history).
function playFromHere() {
  if (!browsing()) return;
  const ply = view;
  newGame(`A new game from move ${ply}: the one before it is a step back in your browser's history.`,
    game.moves.slice(0, ply).join(' ') || undefined);
}

function countScore(state) {
  if (state.outcome === 'ongoing' || counted.has(state.id)) return;
  counted.add(state.id);
  score[state.outcome]++;
  sessionStorage.setItem('ttt-score', JSON.stringify(score));
  showScore();
}

function showScore() {
  $('score-x').textContent = score.x;
  $('score-o').textContent = score.o;
  $('score-draw').textContent = score.draw;
}

// Tells a screen reader what happened where it cannot see it (an engine's move), through a polite live region.
function announce(text) {
  $('announce').textContent = text;
}

function setThinking(on) {
  $('thinking').hidden = !on;
  $('board').setAttribute('aria-busy', String(on));
}

// --- Playing -------------------------------------------------------------------------------------------

// Watch mode. paused: engines make no move until Resume or Step; the pace between the moves of two engines.
let paused = false;
let stepping = false;   // Step was pressed: one engine move although paused
let loopEpoch = 0;      // the game whose engine loop is running (one loop at a time)
let wake = null;        // cuts the pause between two engines' moves short
const speedMs = () => +$('speed').value;
const sleep = (ms) => new Promise((r) => {
  const t = setTimeout(r, ms);
  wake = () => { clearTimeout(t); r(); };
});
const bothEngines = (s) => s.players.x !== 'human' && s.players.o !== 'human';

// Lets the engines move while it is their turn: at the chosen pace when engines play both sides, not at all
// while paused (but one move per Step).
async function engineTurns(my) {
  if (loopEpoch === my) return;
  loopEpoch = my;
  let waited = false;
  try {
    while (my === epoch && game && game.outcome === 'ongoing' && game.engine_to_move) {
      if (paused && !stepping) break;
      if (bothEngines(game) && game.moves.length > 0 && !stepping && !waited && speedMs() > 0) {
        await sleep(speedMs());
        waited = true;
        continue; // paused, stepped or a new game meanwhile: look again
      }
      waited = false;
      stepping = false;
      busy = true;
      setThinking(true);
      try {
        const state = await api('POST', `/api/games/${game.id}/engine`);
        if (my !== epoch) return;
        const player = game.players[game.to_move].split(':')[0], engine = state.engine.spec.split(':')[0];
        const ply = Number.isInteger(state.engine.ply) ? state.engine.ply : state.moves.length - 1;
        figures[ply] = { ...state.engine, who: player === engine ? engine : `${player} (${engine})` };
        saveFigure(state, ply);
        const side = game.to_move.toUpperCase();
        update(state);
        announce(`${side} played ${state.last_move}${state.outcome === 'ongoing' ? '' : `: ${statusText(state)}`}`);
      } catch (e) {
        if (my === epoch) gameError(e, () => engineTurns(my));
        break;
      } finally {
        if (my === epoch) { busy = false; setThinking(false); }
      }
    }
  } finally {
    if (loopEpoch === my) loopEpoch = 0;
    showWatch();
  }
}

// The pause and step buttons, and "paused" in the status when an engine waits for them.
function showWatch() {
  const waiting = !!game && game.outcome === 'ongoing' && game.engine_to_move;
  $('pause').setAttribute('aria-pressed', String(paused));
  $('pause').textContent = paused ? 'Resume' : 'Pause';
  $('step').disabled = !(paused && waiting);
  if (!game) return;
  const text = statusText(game) + (paused && waiting ? ' · paused' : '');
  $('status').textContent = browsing() ? `Move ${view} of ${game.moves.length} shown · game: ${text}` : text;
}

function togglePause() {
  paused = !paused;
  showWatch();
  if (!paused && game) {
    wake?.();
    engineTurns(epoch);
  }
}

function step() {
  if (!paused || !game) return;
  stepping = true;
  engineTurns(epoch);
}

async function play(name) {
  if (browsing()) {
    showNotice('This is an earlier position: press End (or the last move) to return to the game, or "Play from here".');
    return;
  }
  if (!game || busy || game.outcome !== 'ongoing' || game.engine_to_move) return;
  const my = epoch;
  busy = true;
  showError(null);
  try {
    const state = await api('POST', `/api/games/${game.id}/move`, { move: name });
    if (my !== epoch) return;
    update(state);
  } catch (e) {
    if (my === epoch) gameError(e, () => play(name));
    return;
  } finally {
    if (my === epoch) busy = false;
  }
  await engineTurns(my);
}

// Takes back moves until a person is to move (against an engine: its reply and the person's move), or one
// move when engines play both sides. When an engine is then to move, it waits (paused) for Resume or Step.
async function undo() {
  if (!game || busy || game.moves.length === 0) return;
  const n = game.moves.length;
  const sideAfter = (p) => ((n - p) % 2 === 0 ? 'x' : 'o');
  let plies = 1;
  while (plies < n && game.players[sideAfter(plies)] !== 'human') plies++;
  if (game.players[sideAfter(plies)] !== 'human') plies = 1;
  await takeBack(plies);
}

async function takeBack(plies) {
  const my = epoch;
  view = null;
  busy = true;
  showError(null);
  try {
    const state = await api('POST', `/api/games/${game.id}/undo`, { plies });
    if (my !== epoch) return;
    // Stepping back must not let the engine replay at once: it waits for Resume or Step.
    if (state.outcome === 'ongoing' && state.engine_to_move && !paused) {
      paused = true;
      showNotice('Paused after stepping back: Resume or Step lets the engine move.');
    }
    update(state);
  } catch (e) {
    if (my === epoch) gameError(e, () => takeBack(plies));
    return;
  } finally {
    if (my === epoch) busy = false;
  }
  await engineTurns(my);
}

// --- The game record -----------------------------------------------------------------------------------

const number = (n) => n.toLocaleString('en-US');

// What an engine said about its move, in a line: "medium · 1,234 nodes · 12 ms · depth 4".
function figuresText(f) {
  const parts = [f.who, `${number(f.nodes)} nodes`, `${f.ms < 10 ? f.ms.toFixed(1) : Math.round(f.ms)} ms`];
  if (f.depth > 0) parts.push(`depth ${f.depth}`);
  if (f.value_name) { // what the engine thinks of its move, in its own quantity
    const v = f.value_name === 'win rate' ? `${Math.round(f.value * 100)}%` : Number.isInteger(f.value) ? number(f.value) : f.value.toFixed(2);
    parts.push(f.value_name === 'proven draw' ? 'proven draw' : `${f.value_name} ${v}`);
  }
  return parts.join(' · ');
}

function showRecord(state) {
  const list = $('move-list');
  const item = (ply, text, side) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'mv';
    b.dataset.ply = ply;
    if (side) {
      const who = document.createElement('span');
      who.className = `side-${side}`;
      who.textContent = side.toUpperCase();
      b.append(`${ply}. `, who, ` ${text}`);
    } else {
      b.textContent = text;
    }
    b.setAttribute('aria-label', ply === 0 ? 'show the start' : `show move ${ply}, ${side.toUpperCase()} ${text}`);
    li.append(b);
    const r = ply > 0 ? reviewAt(ply - 1) : null;
    if (r) { // the solver's verdict on the move, for its mover: W5 a win in 5 moves, D a draw, L4 a loss in 4
      const cls = verdictClass(r.verdict), v = el('span', { className: `verdict ${cls}`, title: verdictLong(r) });
      v.textContent = `${VERDICT_MARK[cls]} ${valueShort(r.before)}→${valueShort(r.after)}`.trim();
      v.setAttribute('aria-label', verdictLong(r));
      li.append(v);
    }
    if (ply > 0 && figures[ply - 1]) {
      const f = document.createElement('span');
      f.className = 'figs';
      f.textContent = figuresText(figures[ply - 1]);
      li.append(f);
    }
    if (ply === shownPly()) {
      li.classList.add('current');
      b.setAttribute('aria-current', 'step');
    }
    return li;
  };
  list.replaceChildren(item(0, 'start'), ...state.moves.map((m, i) => item(i + 1, m, i % 2 === 0 ? 'x' : 'o')));
  // The list scrolls inside its own box: scrolling the element into view would scroll the page too (a jump
  // on a phone, where the list is below the board).
  const current = list.querySelector('li.current') || list.lastElementChild;
  if (current.offsetTop < list.scrollTop || current.offsetTop + current.offsetHeight > list.scrollTop + list.clientHeight)
    list.scrollTop = current.offsetTop + current.offsetHeight - list.clientHeight;
  $('link').href = linkFor(state);
  syncAddress(state);
  if (!$('export-text').hidden) $('export-text').value = exportText(state);
}

// Copies the game's address (the same as the address bar's).
async function copyLink() {
  if (!game) return;
  const url = linkFor(game);
  try {
    await navigator.clipboard.writeText(url);
    showNotice('Link copied: it reopens this game at this position.');
  } catch {
    const t = $('export-text');
    t.hidden = false;
    t.value = url;
    t.select();
    showNotice('Copy the selected link below (the browser did not allow copying it).');
  }
}

function outcomeText(state) {
  return state.outcome === 'ongoing' ? `${state.to_move.toUpperCase()} to move` : statusText(state);
}

// The game as text: a comment, then the command that shows the position (the project's move notation).
function exportText(state) {
  const moves = state.moves.join(' ');
  return `# ttt ${state.rules.text}: X ${state.players.x}, O ${state.players.o}; ${outcomeText(state)}\n` +
    `ttt show --rules ${state.rules.text}${moves ? ` --moves "${moves}"` : ''}\n`;
}

// The address of the game: its rules, moves and engine players (by the name chosen, without the seed), and
// the ply shown when browsing.
function linkFor(state) {
  const q = new URLSearchParams({ rules: state.rules.text, moves: state.moves.join(' ') });
  for (const side of ['x', 'o']) if (state.players[side] !== 'human') q.set(side, state.players[side].split(':')[0]);
  if (state === game && browsing()) q.set('ply', view);
  return `${location.origin}${location.pathname}?${q}`;
}

// Sets the form from the address's ?rules=…&moves=…&x=…&o=…; returns {moves} to replay, {error} when the
// rules are not rules, or null for an address without a game.
function fromLink() {
  const q = new URLSearchParams(location.search);
  const rules = q.get('rules');
  if (!rules) return null;
  const m = /^(\d+)x(\d+)(?:k(\d+))?(-misere)?$/.exec(rules);
  if (!m) return { error: `The address's rules '${rules}' are not of the form 3x3, 7x7k5 or 4x4-misere.` };
  $('rows').value = m[1];
  $('cols').value = m[2];
  $('k').value = m[3] || '';
  $('misere').checked = !!m[4];
  for (const side of ['x', 'o']) {
    const v = q.get(side) || 'human';
    const sel = $(`player-${side}`);
    if ([...sel.options].some((o) => o.value === v)) sel.value = v;
  }
  const ply = q.get('ply');
  return { moves: q.get('moves') || '', ply: ply && /^\d+$/.test(ply) ? +ply : null };
}

// --- Hints ---------------------------------------------------------------------------------------------

function hintsOn() { return $('hints').getAttribute('aria-pressed') === 'true'; }

// Where the solver cannot prove the values, a playing engine that scores moves shows its own view (the Monte
// Carlo score grid, MCTS visit shares); otherwise HINT_ENGINE does.
function hintEngine(state) {
  for (const side of ['x', 'o']) {
    const p = state.players[side];
    if (/^(mcts|montecarlo)(:|$)/.test(p)) return p;
  }
  return HINT_ENGINE;
}

function setHintBusy(on) { $('hint-busy').hidden = !on; }

async function refreshHints() {
  const my = ++hintEpoch;
  clearHints();
  setHintBusy(false);
  $('hint-legend').hidden = !hintsOn();
  // Hints are for a person's turn: while an engine is to move they would only compete with it for time.
  if (!hintsOn() || !game || browsing() || game.outcome !== 'ongoing' || game.engine_to_move) return;
  const state = game;
  setHintBusy(true);
  try {
    const a = await api('POST', '/api/analyse', { rules: state.rules.text, moves: state.moves.join(' '), engine: hintEngine(state) });
    if (my !== hintEpoch || game !== state) return;
    hints = a;
    showHints(a);
  } catch (e) { if (my === hintEpoch) showError(e); } finally { if (my === hintEpoch) setHintBusy(false); }
}

function clearHints() {
  for (const b of cellButtons()) {
    b.classList.remove('hint-win', 'hint-draw', 'hint-loss', 'hint-score');
    b.style.removeProperty('background');
    b.querySelector('.hint')?.remove();
  }
  $('board').classList.remove('hinted');
}

const pct = (share) => (share >= 0.1 ? `${Math.round(share * 100)}%` : `${(share * 100).toFixed(1)}%`);

// A Monte Carlo score grid mostly shows chance on a big board: most squares' scores differ only by the luck of
// the random games. How much is luck is read from the grid itself: the typical spread of all the scores (the
// median absolute deviation, scaled to a standard deviation, robust to the few squares that really differ).
// Only the moves farther than NOISE_SIGMA such spreads from the median carry information, and at most
// HINT_TOP of them are shown.
const NOISE_SIGMA = 3;
const HINT_TOP = 12;
const MAD_TO_SD = 1.4826; // the median absolute deviation of a normal distribution, in standard deviations
function scoreNoise(scored) {
  const median = (xs) => { const v = [...xs].sort((a, b) => a - b), h = v.length >> 1; return v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2; };
  const scores = scored.map((m) => m.score), mid = median(scores);
  const sd = MAD_TO_SD * median(scores.map((x) => Math.abs(x - mid)));
  const out = scored.filter((m) => Math.abs(m.score - mid) > NOISE_SIGMA * sd)
    .sort((x, y) => Math.abs(y.score - mid) - Math.abs(x.score - mid));
  const far = Math.max(1e-9, ...out.map((m) => Math.abs(m.score - mid)));
  return { sd, mean: mid, far, shown: new Set(out.slice(0, HINT_TOP).map((m) => m.move)), capped: out.length > HINT_TOP };
}

// One quantity per overlay: proven values as W/D/L; otherwise, when the engine reports how it spread its
// effort (MCTS visits), the share of it, else its score; each the number and the shade of the same quantity,
// and only on the moves that have it (a move no visit reached has no overlay).
function showHints(a) {
  const byName = new Map([...cellButtons()].map((b) => [b.dataset.cell, b]));
  const scored = a.moves.filter((m) => m.kind === 'score');
  const byShare = scored.some((m) => m.share > 0);
  const values = scored.map((m) => (byShare ? m.share : m.score));
  const lo = Math.min(...values), hi = Math.max(...values);
  const noise = byShare || !scored.length ? null : scoreNoise(scored);
  for (const m of a.moves) {
    const b = byName.get(m.move);
    if (!b || m.kind === 'none' || (m.kind === 'score' && byShare && !(m.share > 0))) continue;
    if (noise && m.kind === 'score' && !noise.shown.has(m.move)) continue;
    const tag = document.createElement('span');
    tag.className = 'hint';
    let text;
    if (m.kind === 'exact') {
      b.classList.add(`hint-${m.result}`);
      text = m.result === 'draw' ? 'D' : `${m.result === 'win' ? 'W' : 'L'}${m.plies}`;
    } else {
      const v = byShare ? m.share : m.score;
      const t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
      b.classList.add('hint-score');
      if (byShare) { // light to dark blue: more of the search
        b.style.setProperty('background', `hsl(215, 70%, ${Math.round(94 - t * 44)}%)`);
        if (t > 0.6) tag.style.setProperty('color', '#fff');
        text = pct(m.share);
      } else { // red (the worst move of this analysis) to green (the best): scores compare only within it
        const dev = m.score - noise.mean, far = Math.abs(dev) / noise.far; // green above the mean, red below
        b.style.setProperty('background', `hsl(${dev > 0 ? 130 : 5}, 65%, ${Math.round(82 - far * 24)}%)`);
        text = `${Math.round(m.score * 100)}`;
      }
    }
    tag.textContent = text;
    tag.setAttribute('aria-hidden', 'true');
    b.append(tag);
    b.setAttribute('aria-label', `${b.getAttribute('aria-label')}, hint ${m.kind === 'exact' ? m.result : `${byShare ? 'share' : 'score'} ${text}`}`);
  }
  $('board').classList.add('hinted');
  $('hint-legend').classList.toggle('no-exact', !a.moves.some((m) => m.kind === 'exact'));
  $('hint-scale').textContent = !scored.length ? '' : byShare
    ? `Shaded and numbered: the share of the search spent on the move, from ${pct(lo)} (lightest) to ${pct(hi)} (darkest); moves it never reached are blank.`
    : noise.shown.size
      ? `Shown: only the ${noise.shown.size}${noise.capped ? ' farthest' : ''} move${noise.shown.size > 1 ? 's' : ''} whose score (×100) stands out from chance, more than ${NOISE_SIGMA}× the scores' spread (±${(noise.sd * 100).toFixed(2)}) from their median; green above, red below. Blank: chance.`
      : `No move's score stands out from chance (${NOISE_SIGMA}× the scores' spread, ±${(noise.sd * 100).toFixed(2)}): nothing to show.`;
  $('hint-method').textContent = `(${a.method})`;
}

// --- The move shown, explained by the engine that played it --------------------------------------------------

// Each ply's figures (and the engine's explanation of that very decision, sent with the move) are kept in the
// tab's sessionStorage under the game's rules, players and moves up to the ply: a reload, Back or "Play from
// here" finds them again.
const figureKey = (state, i) => `ttt-ply|${state.rules.text}|${['x', 'o'].map((s) => state.players[s].split(':')[0]).join('|')}|${state.moves.slice(0, i + 1).join(' ')}`;

function saveFigure(state, i) {
  try { sessionStorage.setItem(figureKey(state, i), JSON.stringify(figures[i])); } catch { /* full: kept in memory only */ }
}

function restoreFigures(state) {
  return state.moves.map((_, i) => {
    try { return JSON.parse(sessionStorage.getItem(figureKey(state, i)) || 'null'); } catch { return null; }
  });
}

let playedLayer = '';  // the quantity last picked in the played move's panel, kept from ply to ply

const sideAt = (ply) => (ply % 2 === 0 ? 'x' : 'o'); // the side that plays move ply (0-based)

// Why a ply has no explanation, in one line.
function noExplanation(state, i, f) {
  if (state.players[sideAt(i)] === 'human') return 'Played by a person: there is no engine reasoning to show.';
  if (!f) return 'Played before this page kept its explanation (the game was opened from its moves): nothing to show.';
  if (f.explanation === null) return `${f.who} does not explain its moves (an external engine).`;
  return 'The server sent no explanation with this move.';
}

function renderPlayed() {
  const body = $('played-body'), state = game, ply = shownPly();
  delete body.dataset.choice;
  body.dataset.ply = ply;
  if (ply === 0) {
    $('played-title').textContent = 'The start';
    body.replaceChildren(el('p', { className: 'note', textContent: 'No move yet. Pick a move in the list (or press →) to see what the engine that played it saw.' }));
    return;
  }
  const i = ply - 1, move = state.moves[i], side = sideAt(i), f = figures[i];
  $('played-title').textContent = `Move ${ply}: ${side.toUpperCase()} ${move}${f ? ` by ${f.who}` : ''}`;
  $('played-title').title = $('played-title').textContent;
  const out = [];
  const r = reviewAt(i); // its line is there before the review arrives: nothing under it moves then
  out.push(el('p', { className: `verdict-line ${r ? verdictClass(r.verdict) : 'v-none'}`, textContent: r ? verdictLong(r) : reviewOff ? '' : 'The solver reviews the move…' }));
  const d = f && f.explanation;
  if (d) {
    body.dataset.choice = d.choice;
    const full = { ...d, rules: state.rules, position: boardAt(state, i).join('/') };
    const names = d.layers.map((l) => l.name), at = Math.max(0, names.indexOf(playedLayer));
    out.push(el('p', { className: 'note', textContent: `What ${f.who} saw before playing ${move}: its own decision, sent with the move.` }));
    if (d.choice !== move) out.push(el('p', { className: 'error', textContent: `The explanation chose ${d.choice}, not ${move}.` }));
    out.push(...explanationNodes(full, at, (k) => { playedLayer = names[k]; renderPlayed(); }));
  } else {
    out.push(el('p', { className: 'note', textContent: noExplanation(state, i, f) }));
  }
  body.replaceChildren(...out);
}

// --- Verdicts and the evaluation timeline (the solver's review of every move) ----------------------------------

let review = null;       // {moves, plies}: the server's review of the game's moves (or its first moves)
let reviewOff = false;   // the server has no review: the timeline says so and stays empty
let reviewBusy = false;
let reviewTimer = 0;
const REVIEW_DELAY_MS = 400; // a game that stays this long is reviewed (not every move of a fast watch)
const REVIEW_MS = 1000;      // the review's budget for a whole game

// The review of ply i when it is of this game's moves.
function reviewAt(i) {
  if (!review || !game || i >= review.plies.length) return null;
  const e = review.plies[i];
  return e && review.moves[i] === game.moves[i] && review.moves.slice(0, i).join(' ') === game.moves.slice(0, i).join(' ') ? e : null;
}

function scheduleReview() {
  clearTimeout(reviewTimer);
  if (reviewOff || !game || reviewBusy) return;
  if (review && review.moves.join(' ') === game.moves.join(' ')) return;
  reviewTimer = setTimeout(runReview, REVIEW_DELAY_MS);
}

async function runReview() {
  if (!game || reviewBusy) return;
  const state = game, my = epoch;
  if (!state.moves.length) { review = { moves: [], plies: [] }; drawTimeline(); return; }
  reviewBusy = true;
  let again = REVIEW_DELAY_MS;
  try {
    const r = await api('POST', '/api/review', { rules: state.rules.text, moves: state.moves, ms: REVIEW_MS });
    if (my === epoch) {
      review = { moves: state.moves.slice(), plies: r.plies, error: null };
      render();
    }
  } catch (e) {
    if (e.status === 404 || e.status === 405) reviewOff = true; // a server without the review
    else if (limited(e)) again = Math.max(1, e.retryAfter || RETRY_DEFAULT_S) * 1000;
    else if (my === epoch) review = { moves: [], plies: [], error: e.message };
    drawTimeline();
  } finally {
    reviewBusy = false;
  }
  if (!reviewOff && game && !review?.error && review?.moves.join(' ') !== game.moves.join(' '))
    reviewTimer = setTimeout(runReview, again);
}

const verdictClass = (v) => (!v ? 'v-none' : /^threw away a win/.test(v) ? 'v-blunder' : /draw/.test(v) ? 'v-mistake' : v === 'best' ? 'v-best' : 'v-kept');
const VERDICT_MARK = { 'v-blunder': '??', 'v-mistake': '?', 'v-best': '✓', 'v-kept': '·', 'v-none': '' };

// A value for the side to move, short (W5: a win in 5 moves, D, L4; ≈+30: an estimate) or in words.
function valueShort(v) {
  if (!v) return '?';
  if (v.kind === 'exact') return v.result > 0 ? `W${v.plies}` : v.result < 0 ? `L${v.plies}` : 'D';
  return `≈${v.score >= 0 ? '+' : ''}${Math.round(v.score * 100)}`;
}
function valueWords(v) {
  if (!v) return 'not known in the time';
  if (v.kind === 'exact') return v.result > 0 ? `a win in ${v.plies}` : v.result < 0 ? `a loss in ${v.plies}` : 'a draw';
  return `≈${v.score >= 0 ? '+' : ''}${Math.round(v.score * 100)} ±${Math.round(v.spread * 100)} (${v.by || 'engine'}'s estimate)`;
}
function verdictLong(r) {
  const change = `${valueWords(r.before)} → ${valueWords(r.after)} for ${r.side.toUpperCase()}`;
  return r.verdict ? `${VERDICT_MARK[verdictClass(r.verdict)]} ${r.verdict}: ${change}.` : `No exact verdict: ${change}.`;
}

// The value of the position after p moves from X's point of view (-1 O wins … +1 X wins), with whether it
// is exact and its uncertainty; null where the review has none.
function pointValue(v, side) {
  if (!v) return null;
  const sign = side === 'x' ? 1 : -1;
  if (v.kind === 'exact') return { y: sign * v.result, exact: true, spread: 0 };
  return { y: sign * v.score, exact: false, spread: v.spread || 0 };
}
function timelinePoints() {
  const n = game.moves.length, pts = Array(n + 1).fill(null);
  for (let i = 0; i < n; i++) {
    const r = reviewAt(i);
    if (!r) continue;
    if (i === 0) pts[0] = pointValue(r.before, r.side);
    const p = pointValue(r.after, r.side); // value_x: the server's own X's view of it, when it sends one
    pts[i + 1] = p && typeof r.value_x === 'number' ? { ...p, y: r.value_x } : p;
  }
  return pts;
}

const SVG = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// The graph of the game's value (lichess's timeline): X's advantage up, O's down; exact values solid, the
// engine's estimates dashed with their uncertainty as a band; the ply shown is a line; a click browses.
const TL_PAD = 6;
function drawTimeline() {
  const svg = $('timeline-svg'), cap = $('timeline-legend');
  if (!game) return;
  const W = Math.max(100, Math.round(svg.clientWidth || 260)), H = Math.max(30, Math.round(svg.clientHeight || 56));
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const n = game.moves.length, pts = timelinePoints();
  // A square-root scale: estimates near 0 (±0.1 is already a clear edge) stay readable beside proven ±1.
  const x = (p) => TL_PAD + (p * (W - 2 * TL_PAD)) / Math.max(n, 1), y = (v) => H / 2 - Math.sign(v) * Math.sqrt(Math.abs(v)) * (H / 2 - 4);
  const parts = [svgEl('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'axis' })];
  const known = pts.map((p, i) => [i, p]).filter(([, p]) => p);
  if (known.length) { // the area between the curve and the axis: X's colour above, O's below
    const d = `M${x(known[0][0])},${H / 2} ${known.map(([i, p]) => `L${x(i)},${y(p.y)}`).join(' ')} L${x(known[known.length - 1][0])},${H / 2}Z`;
    parts.push(svgEl('path', { d, class: 'area' }));
  }
  for (let i = 1; i <= n; i++) {
    const a = pts[i - 1], b = pts[i];
    if (a && b) parts.push(svgEl('line', { x1: x(i - 1), y1: y(a.y), x2: x(i), y2: y(b.y), class: a.exact && b.exact ? 'exact' : 'estimate' }));
  }
  pts.forEach((p, i) => {
    if (!p) return;
    if (!p.exact && p.spread > 0) parts.push(svgEl('line', { x1: x(i), x2: x(i), y1: y(Math.min(1, p.y + p.spread)), y2: y(Math.max(-1, p.y - p.spread)), class: 'spread' }));
    const r = i > 0 ? reviewAt(i - 1) : null;
    parts.push(svgEl('circle', { cx: x(i), cy: y(p.y), r: 2.6, class: `${p.exact ? 'exact' : 'estimate'} ${r ? verdictClass(r.verdict) : ''}` }));
  });
  const now = shownPly();
  parts.push(svgEl('line', { x1: x(now), x2: x(now), y1: 0, y2: H, class: 'now' }));
  svg.replaceChildren(...parts);
  const exact = pts.filter((p) => p && p.exact).length, est = pts.filter((p) => p && !p.exact).length;
  svg.setAttribute('aria-label', `The game's value over its ${n} moves, from X's side: ${exact} exact, ${est} estimated, ${n + 1 - exact - est} unknown. Use the slider or the move list to move through it.`);
  $('timeline').dataset.points = `${exact + est}`;
  if (reviewOff) cap.textContent = 'This server does not review games: no timeline.';
  else if (review && review.error) cap.textContent = `No review: ${review.error}`;
  else if (!n) cap.textContent = 'The value of the game over its moves: X up, O down.';
  else if (!exact && !est) cap.textContent = 'Reviewing the moves…';
  else {
    cap.replaceChildren(el('span', { className: 'key exact', textContent: '—' }), ` exact (solver) ${exact}`,
      ...(est ? [' · ', el('span', { className: 'key estimate', textContent: '- -' }), ` estimate ±spread (engine, not proven) ${est}`] : []), ' · X up, O down');
  }
}

function timelineClick(e) {
  if (!game) return;
  const svg = $('timeline-svg'), box = svg.getBoundingClientRect(), n = game.moves.length;
  const p = Math.round(((e.clientX - box.left - TL_PAD) / Math.max(1, box.width - 2 * TL_PAD)) * n);
  browse(Math.max(0, Math.min(n, p)));
}

// --- Step-through teaching views (boards of at most TRACE_MAX_CELLS cells) ------------------------------------

const TRACE_MAX_CELLS = 25;
const TRACE_LIMIT = 300;       // steps asked for; the server says when it dropped more
const TRACE_PLAY_MS = 350;     // the pace of "Play"
const TRACE_KINDS = ['minimax', 'mcts', 'montecarlo', 'heuristic', 'learner', 'table'];
let trace = null;              // {key, data, step, error}
let traceTimer = 0, traceEpoch = 0, tracePlay = 0, traceOff = false;
let traceChosen = '';          // an engine picked in the select (else the one that played the move shown)

// The decision stepped through: the one that made the move shown (the first move at the start).
function traceTarget() {
  const ply = shownPly(), i = Math.max(0, ply - 1), f = figures[i];
  const moves = game.moves.slice(0, i);
  const player = game.players[sideAt(i)];
  const kind = player === 'human' ? '' : (f ? f.spec : player).split(':')[0];
  const engine = traceChosen || (TRACE_KINDS.includes(kind) ? kind : 'minimax');
  // The player's own spec (its seed and budget) when it is the engine shown: the real decision.
  const spec = f && f.spec && f.spec.split(':')[0] === engine ? f.spec : engine;
  return { moves, engine, spec, ply: i + 1, side: sideAt(i), own: kind === engine && ply > 0 };
}

function scheduleTrace() {
  clearTimeout(traceTimer);
  if (!game) return;
  const small = game.rules.rows * game.rules.cols <= TRACE_MAX_CELLS;
  $('trace').hidden = !small || traceOff;
  if (!small || traceOff || !$('trace').open) return;
  traceTimer = setTimeout(runTrace, WHY_DELAY_MS);
}

async function runTrace() {
  const t = traceTarget(), key = `${game.rules.text}|${t.moves.join(' ')}|${t.spec}`;
  $('trace-engine').value = t.engine;
  if (trace && trace.key === key) return;
  const my = ++traceEpoch, state = game;
  stopTracePlay();
  trace = { key, t, data: null, step: 0, error: null };
  renderTrace();
  try {
    const data = await api('POST', '/api/trace', { rules: state.rules.text, moves: t.moves, engine: t.spec, limit: TRACE_LIMIT });
    if (my !== traceEpoch) return;
    trace.data = data;
    trace.step = traceSteps(data) ? 1 : 0;
  } catch (e) {
    if (my !== traceEpoch) return;
    if (e.status === 404 || e.status === 405) { traceOff = true; $('trace').hidden = true; return; }
    if (limited(e)) { // busy: said, and asked again when the server said to
      const wait = Math.max(1, e.retryAfter || RETRY_DEFAULT_S);
      trace.error = `${e.message}: asking again in ${wait} s.`;
      trace.key = null;
      traceTimer = setTimeout(runTrace, wait * 1000);
    } else {
      trace.error = e.message;
    }
  }
  renderTrace();
}

// The steps of a trace: tree nodes in the order searched, iterations, playouts, rules; 0 for none.
function treeOrder(root) {
  const out = [];
  const walk = (node, path) => {
    for (const c of node.children || []) {
      out.push({ node: c, path: [...path, c.move] });
      walk(c, [...path, c.move]);
    }
  };
  walk(root, []);
  return out;
}
// (A decision without a search, e.g. a level's random blunder, has no tree.)
function traceSteps(d) {
  if (d.kind === 'tree') return d.tree ? treeOrder(d.tree).length : 0;
  const steps = { iterations: d.iterations, playouts: d.playouts, rules: d.rules }[d.kind];
  return Array.isArray(steps) ? steps.length : 0;
}

function stopTracePlay() {
  clearInterval(tracePlay);
  tracePlay = 0;
  $('trace-play').textContent = 'Play';
  $('trace-play').setAttribute('aria-pressed', 'false');
}

function traceGo(step) {
  if (!trace || !trace.data) return;
  const n = traceSteps(trace.data);
  trace.step = Math.max(1, Math.min(n, step));
  renderTrace();
}

function toggleTracePlay() {
  if (tracePlay) { stopTracePlay(); return; }
  if (!trace || !trace.data) return;
  if (trace.step >= traceSteps(trace.data)) trace.step = 0;
  $('trace-play').textContent = 'Pause';
  $('trace-play').setAttribute('aria-pressed', 'true');
  tracePlay = setInterval(() => {
    if (!trace || !trace.data || trace.step >= traceSteps(trace.data)) { stopTracePlay(); return; }
    traceGo(trace.step + 1);
  }, TRACE_PLAY_MS);
}

// A small board of the position traced: stones, and per cell a text, a class and a shade (marks: name -> {...}).
function traceBoard(position, rules, marks, label) {
  const { rows, cols } = rules, cells = position.split('/');
  const mini = el('div', { className: 'mini trace-board', role: 'img' });
  mini.style.setProperty('--cols', cols);
  mini.style.setProperty('grid-template-columns', `repeat(${cols}, 1fr)`);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const name = cellName(r, c), stone = cells[r][c], m = marks.get(name);
      const span = el('span');
      span.dataset.cell = name;
      if (stone !== '.') { span.className = stone; span.textContent = stone.toUpperCase(); }
      if (m) {
        if (m.text !== undefined && stone === '.') { span.textContent = m.text; span.classList.add('valued'); if (!m.bg) span.classList.add('plain'); }
        if (m.cls) span.classList.add(...m.cls.split(' '));
        if (m.bg) span.style.setProperty('background', m.bg);
      }
      mini.append(span);
    }
  }
  mini.setAttribute('aria-label', label);
  return mini;
}

const resultWords = (r) => (r === 'draw' ? 'a draw' : `${r.toUpperCase()} wins`);
// Moves as a list, or a random game as each side's moves ({x: [...], o: [...]}).
const moveList = (ms) => (Array.isArray(ms) ? (ms.length ? ms.join(' ') : '(none)')
  : ['x', 'o'].filter((s) => ms[s]?.length).map((s) => `${s.toUpperCase()} ${ms[s].join(' ')}`).join(', ') || '(none)');
// A tree node's value: a proven result in words, else the search's number.
const nodeValue = (c) => (c.result ? (c.result === 'draw' ? 'draw' : `${c.result} in ${c.plies}`) : c.exact && c.value === 0 ? 'draw' : `value ${c.value}`);

// One step of the trace, in words and on the board.
function traceStepNodes(d, step, position, rules) {
  const marks = new Map(), out = [];
  if (d.kind === 'tree') {
    const order = treeOrder(d.tree), cur = order[step - 1];
    const seen = new Set(order.slice(0, step).map((o) => o.node));
    const list = (node, depth) => {
      const ul = el('ul', { className: depth ? 'tree-sub' : 'tree' });
      for (const c of node.children || []) {
        const li = el('li');
        const state = !seen.has(c) ? 'later' : c.pruned ? 'pruned' : 'done';
        li.className = `${state}${cur && cur.node === c ? ' now' : ''}`;
        const val = state === 'later' ? 'not searched yet' : c.pruned ? 'pruned: never searched' : nodeValue(c);
        li.append(el('span', { className: 'mv', textContent: c.move }), ` ${val}`);
        if (c.move === d.choice && depth === 0 && step === order.length) li.append(el('strong', { textContent: ' ← chosen' }));
        if (c.children && c.children.length) li.append(list(c, depth + 1));
        ul.append(li);
      }
      return ul;
    };
    out.push(el('p', { className: 'trace-now', textContent: cur.node.pruned
      ? `Step ${step}: ${cur.path.join(' then ')} is pruned: what is already known means it cannot change the choice.`
      : `Step ${step}: ${cur.path.join(' then ')}: ${nodeValue(cur.node)}.` }));
    cur.path.forEach((m, k) => marks.set(m, { text: String(k + 1), cls: k ? 'path reply' : 'path' }));
    out.push(el('div', { className: 'trace-step' }, traceBoard(position, rules, marks, `the line ${cur.path.join(' ')} on the board`), list(d.tree, 0)));

  } else if (d.kind === 'iterations') {
    const it = d.iterations[step - 1];
    const visits = new Map(it.visits.map((v) => [v.move, v]));
    const most = Math.max(1, ...it.visits.map((v) => v.visits));
    for (const [m, v] of visits) if (v.visits > 0) marks.set(m, { text: String(v.visits), bg: `hsl(215, 70%, ${Math.round(95 - (v.visits / most) * 45)}%)` });
    it.path.forEach((m, k) => { if (k === 0) marks.set(m, { ...(marks.get(m) || {}), cls: 'path' }); });
    out.push(el('p', { className: 'trace-now' },
      el('strong', { textContent: `Iteration ${step}. ` }),
      `Selection: ${moveList(it.path)}. Expansion: ${it.expanded ? `the replies to ${it.expanded} join the tree` : it.expanded_root ? "the root's moves join the tree" : 'none this time'}. `,
      it.proven ? `No playout: the result is proven, ${resultWords(it.result)}. ` : `Playout (the stones at the end of a random game): ${moveList(it.playout)}; ${resultWords(it.result)}. `,
      'Backup: every move on the path counts one more visit, and the result.'));
    const tbl = el('table', { className: 'visits' }, el('caption', { className: 'sr-only', textContent: `Root moves after iteration ${step}` }),
      el('tr', {}, el('th', { textContent: 'move' }), el('th', { textContent: 'visits' }), el('th', { textContent: 'wins' })));
    for (const v of [...it.visits].filter((x) => x.visits > 0).sort((a, b) => b.visits - a.visits))
      tbl.append(el('tr', { className: it.path[0] === v.move ? 'now' : '' }, el('td', { textContent: v.move }), el('td', { textContent: number(v.visits) }), el('td', { textContent: number(Math.round(v.wins * 10) / 10) })));
    out.push(el('div', { className: 'trace-step' }, traceBoard(position, rules, marks, `visits of each move after iteration ${step}; the first move selected is outlined`), tbl));
  } else if (d.kind === 'playouts') {
    const po = d.playouts[step - 1];
    const scores = po.scores.map((x) => x.score), lo = Math.min(0, ...scores), hi = Math.max(0, ...scores);
    for (const x of po.scores) {
      const layer = { lo: lo < 0 ? lo : -1, hi: hi > 0 ? hi : 1 };
      marks.set(x.move, { text: whyFormat({ percent: false }, x.score), bg: hsl(whyShade(layer, x.score)) });
    }
    out.push(el('p', { className: 'trace-now' }, el('strong', { textContent: `Random game ${step}. ` }),
      `The stones at its end: ${moveList(po.moves)}; ${resultWords(po.result)}. Every square of the winner gains, every square of the loser loses.`));
    out.push(traceBoard(position, rules, marks, `the score grid after random game ${step}`));
  } else if (d.kind === 'rules') {
    const ol = el('ol', { className: 'rules' });
    d.rules.forEach((r, k) => {
      const li = el('li', { className: k >= step ? 'later' : r.fired ? 'fired' : 'passed' });
      li.append(el('span', { className: 'rule', textContent: r.rule }), ` ${k >= step ? '' : r.fired ? `fired: ${moveList(r.moves)}` : 'did not apply'}`);
      if (k === step - 1) li.classList.add('now');
      ol.append(li);
    });
    const r = d.rules[step - 1];
    for (const m of r.moves || []) marks.set(m, { cls: r.fired ? 'path' : 'reply' });
    out.push(el('p', { className: 'trace-now', textContent: `Rule ${step}, "${r.rule}": ${r.fired ? `it fires (${moveList(r.moves)})` : 'it does not apply here; the next rule is tried'}.` }));
    out.push(el('div', { className: 'trace-step' }, traceBoard(position, rules, marks, `the moves of the rule "${r.rule}"`), ol));
  }
  return out;
}

function renderTrace() {
  const body = $('trace-body'), controls = $('trace-controls');
  if (!trace) { body.replaceChildren(); return; }
  const { t, data: d } = trace;
  $('trace-title').textContent = `How ${t.engine} ${t.own ? 'chose' : 'would choose'} move ${t.ply} (${t.side.toUpperCase()} to play)`;
  if (trace.error) { controls.hidden = true; $('trace-sentence').textContent = ''; body.replaceChildren(el('p', { className: 'error', textContent: trace.error })); return; }
  if (!d) { controls.hidden = true; $('trace-sentence').textContent = ''; body.replaceChildren(el('p', { className: 'busy', textContent: `${t.engine} is thinking…` })); return; }
  $('trace-sentence').textContent = d.sentence || '';
  body.dataset.kind = d.kind;
  const n = traceSteps(d), position = boardAt(game, t.moves.length).join('/');
  controls.hidden = n === 0;
  const slider = $('trace-slider');
  slider.max = Math.max(1, n);
  slider.value = trace.step;
  slider.setAttribute('aria-valuetext', `step ${trace.step} of ${n}`);
  $('trace-count').textContent = n ? `${trace.step} / ${n}${d.truncated ? '+' : ''}` : '';
  const out = n ? traceStepNodes(d, trace.step, position, game.rules) : [];
  if (!n && d.kind !== 'none') out.push(el('p', { className: 'note', textContent: 'This decision took no steps to show (no search ran): here is what the engine reported.' }));
  if (!n && d.explanation) out.push(...explanationNodes({ ...d.explanation, rules: game.rules, position }, 0, () => {}).filter((e) => !e.classList.contains('layers')));
  if (n && trace.step === n) out.push(el('p', { className: 'step' }, 'Plays ', el('strong', { textContent: d.choice || '—' })));
  if (d.truncated) out.push(el('p', { className: 'note', textContent: `Only the first ${n} steps are shown; the engine went on past them.` }));
  body.replaceChildren(...out);
  if (!tracePlay) $('trace-announce').textContent = body.querySelector('.trace-now')?.textContent || '';
}

// --- Why this move: each engine's own view ----------------------------------------------------------------

let whyPanels = [];  // {engine, data, error, layer}: one panel per engine, in order
let whyEpoch = 0;    // answers for an older position are dropped
let whyTimer = 0;
const WHY_DELAY_MS = 250; // a position that stays this long is explained (not every step of a fast game)

function fillWhyEngines(data) {
  const sel = $('why-engine');
  for (const e of data.engines) sel.append(new Option(e.name, e.name));
  for (const l of data.levels) sel.append(new Option(`${l.name} (level)`, l.name));
}

// The engines a panel starts with: the game's engine players, else minimax.
function defaultWhyEngines() {
  const names = game ? ['x', 'o'].map((s) => game.players[s].split(':')[0]).filter((n) => n !== 'human') : [];
  return names.length ? [...new Set(names)] : ['minimax'];
}

// tryOut: added by "All engines": a panel whose engine answers an error for these rules is taken away again
// and named in one line instead (gomoku explains nothing; the table engine refuses big boards).
function addWhy(engine, tryOut = false) {
  if (whyPanels.some((p) => p.engine === engine)) return;
  whyPanels.push({ engine, data: null, error: null, layer: 0, tryOut });
  refreshWhy(true);
}

// The panels follow the players: when the game's engines change, the panels of the old ones go (those added
// by hand stay) and the new ones come.
let whyPlayers = null;
function followPlayers() {
  const names = defaultWhyEngines(), key = names.join(',');
  if (key === whyPlayers) return;
  whyPlayers = key;
  const kept = whyPanels.filter((p) => !p.auto && !names.includes(p.engine));
  whyPanels = [...names.map((engine) => ({ engine, data: null, error: null, layer: 0, auto: true })), ...kept];
}

const whySkipped = new Map(); // engine -> its error, for the rules of the last "All engines"

function showWhySkipped() {
  $('why-skipped').textContent = whySkipped.size
    ? `Not for these rules: ${[...whySkipped].map(([e, why]) => `${e} (${why})`).join('; ')}.` : '';
}

function scheduleWhy() {
  clearTimeout(whyTimer);
  if (!$('why').open) return;
  whyTimer = setTimeout(() => refreshWhy(false), WHY_DELAY_MS);
}

// Explains the position shown with every panel's engine (onlyNew: with the panels not yet explained).
async function refreshWhy(onlyNew) {
  if (!$('why').open || !game) return;
  if (!onlyNew) whyEpoch++;
  const my = whyEpoch, state = game, moves = state.moves.slice(0, shownPly());
  const over = moves.length === state.moves.length && state.outcome !== 'ongoing';
  const todo = whyPanels.filter((p) => !onlyNew || p.epoch !== my);
  for (const p of todo) {
    p.epoch = my;
    p.data = null;
    p.error = over ? 'The game is over: nothing to explain.' : null;
  }
  renderWhy();
  if (over) return;
  await Promise.all(todo.map(async (p) => {
    try {
      const data = await api('POST', '/api/explain', { rules: state.rules.text, moves: moves.join(' '), engine: p.engine });
      if (my === whyEpoch && p.epoch === my) p.data = data;
    } catch (e) {
      if (my === whyEpoch && p.epoch === my) {
        p.error = e.message;
        if (p.tryOut && e.status >= 400 && e.status < 500) { // a refusal, not a busy server
          whyPanels = whyPanels.filter((q) => q !== p);
          whySkipped.set(p.engine, e.message);
          showWhySkipped();
        }
      }
    }
    p.tryOut = false;
    if (my === whyEpoch) renderWhy();
  }));
}

// A value of a quantity as its panel shows it.
function whyFormat(layer, v) {
  if (layer.percent) { const p = v * 100; return p >= 10 || p === 0 ? `${Math.round(p)}%` : `${p.toFixed(1)}%`; }
  if (Number.isInteger(v)) return Math.abs(v) >= 10000 ? `${Math.round(v / 1000)}k` : String(v);
  return Math.abs(v) >= 100 ? String(Math.round(v)) : v.toFixed(2);
}

// A quantity whose values fill less than FIT_BELOW of its scale (the table's averages: -0.7..0.1 of -10..+10)
// is shaded over the range of its values, or every cell would look alike; the legend then says so.
const FIT_BELOW = 0.25;
function fitted(layer) {
  if (!layer.cells.length) return layer;
  const values = layer.cells.map((c) => c.value);
  const lo = Math.min(...values), hi = Math.max(...values);
  if (hi <= lo || hi - lo >= FIT_BELOW * (layer.hi - layer.lo)) return layer;
  return { ...layer, lo, hi, scale: `${layer.scale} (colours fitted to the values here, of ${whyFormat(layer, layer.lo)}…${whyFormat(layer, layer.hi)})` };
}

// The shade of a value: red to white to green around 0 when the scale has both signs, else white to blue.
function whyShade(layer, v) {
  if (layer.lo < 0 && layer.hi > 0) {
    const t = v >= 0 ? v / layer.hi : v / -layer.lo;
    return t >= 0 ? [130, 50, Math.round(97 - t * 45)] : [5, 70, Math.round(97 + t * 35)];
  }
  const t = (v - layer.lo) / (layer.hi - layer.lo);
  return [215, 70, Math.round(97 - t * 50)];
}
const hsl = ([h, s, l]) => `hsl(${h}, ${s}%, ${l}%)`;

function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

function renderWhy() {
  const box = $('why-panels');
  box.replaceChildren(...whyPanels.map(renderWhyPanel));
}

// An engine's explanation as nodes: its method, the rule that chose, its figures, one quantity per cell on its
// board (layerIndex; setLayer(i) picks another) with a legend, and its lines.
function explanationNodes(d, layerIndex, setLayer) {
  const out = [];
  out.push(el('p', { className: 'method', textContent: d.method }));
  const step = el('p', { className: 'step' }, 'Plays ', el('strong', { textContent: d.choice || '—' }));
  if (d.step) step.append(`: ${d.step}`);
  out.push(step);
  const facts = el('dl');
  const figures = [...d.facts, { name: 'nodes', value: d.nodes }, { name: 'time', value: d.ms, ms: true }];
  if (d.depth > 0 && !d.facts.some((f) => f.name === 'depth reached')) figures.push({ name: 'depth', value: d.depth });
  for (const f of figures)
    facts.append(el('dt', { textContent: f.name }), el('dd', { textContent: f.ms ? `${Math.round(f.value)} ms` : number(Math.round(f.value * 1000) / 1000) }));
  out.push(facts);
  if (d.layers.length) {
    const tabs = el('div', { className: 'layers', role: 'group' });
    tabs.setAttribute('aria-label', 'Quantity shown');
    d.layers.forEach((l, i) => {
      const b = el('button', { type: 'button', textContent: l.name });
      b.setAttribute('aria-pressed', String(i === layerIndex));
      b.addEventListener('click', () => { setLayer(i); });
      tabs.append(b);
    });
    out.push(tabs);
    const layer = fitted(d.layers[Math.min(layerIndex, d.layers.length - 1)]);
    out.push(renderMini(d, layer), renderLegend(layer));
    if (!layer.cells.length) out.push(el('p', { className: 'note', textContent: `No cell has a figure for ${layer.name} here.` }));
  } else {
    out.push(el('p', { className: 'note', textContent: 'No figures per cell: one rule decided.' }));
  }
  if (d.lines.length) {
    const ol = el('ol', { className: 'lines' });
    for (const l of d.lines) {
      const li = el('li', { textContent: `${l.label}: ${l.moves.join(' ')}` });
      if (l.note) li.append(` (${l.note} ${number(l.count)})`);
      ol.append(li);
    }
    out.push(ol);
  }
  return out;
}

function renderWhyPanel(p) {
  const panel = el('section', { className: 'why-panel' });
  panel.dataset.engine = p.engine;
  const close = el('button', { type: 'button', textContent: '×', title: 'Remove this panel' });
  close.setAttribute('aria-label', `Remove ${p.engine}`);
  close.addEventListener('click', () => { whyPanels = whyPanels.filter((q) => q !== p); renderWhy(); });
  const d = p.data;
  const engineName = d ? d.engine.split(':')[0] : '';
  panel.append(el('h3', {}, el('span', { textContent: d && engineName !== p.engine ? `${p.engine} (${engineName})` : p.engine }), close));
  if (p.error) { panel.append(el('p', { className: 'error', textContent: p.error })); return panel; }
  if (!d) { panel.append(el('p', { className: 'busy', textContent: `${p.engine} is thinking…` })); return panel; }
  panel.append(...explanationNodes(d, p.layer, (i) => { p.layer = i; renderWhy(); }));
  return panel;
}

// The engine's board: its stones, and the quantity on the cells it considered (blank elsewhere).
function renderMini(d, layer) {
  const { rows, cols } = d.rules;
  const values = new Map(layer.cells.map((c) => [c.move, c.value]));
  const mini = el('div', { className: 'mini', role: 'img' });
  mini.style.setProperty('--cols', cols);
  mini.style.setProperty('grid-template-columns', `repeat(${cols}, 1fr)`);
  const cells = d.position.split('/');
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const name = cellName(r, c), stone = cells[r][c];
      const span = el('span');
      span.dataset.cell = name;
      if (stone !== '.') {
        span.className = stone;
        span.textContent = stone.toUpperCase();
      } else if (values.has(name)) {
        const v = values.get(name), colour = whyShade(layer, v);
        span.style.setProperty('background', hsl(colour));
        if (colour[2] < 55) span.style.setProperty('color', '#fff');
        span.textContent = whyFormat(layer, v);
        span.classList.add('valued');
      }
      if (name === d.choice) span.classList.add('choice');
      mini.append(span);
    }
  }
  mini.setAttribute('aria-label', `${layer.name} on ${values.size} cells; the chosen move ${d.choice} is outlined`);
  return mini;
}

// The legend: the quantity's name, its scale in words, and the colours from one end to the other.
function renderLegend(layer) {
  const ramp = el('span', { className: 'ramp' });
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => hsl(whyShade(layer, layer.lo + t * (layer.hi - layer.lo))));
  ramp.style.setProperty('background', `linear-gradient(to right, ${stops.join(', ')})`);
  return el('div', { className: 'legend' },
    el('div', {}, el('strong', { textContent: layer.name }), `: ${layer.scale}`),
    el('div', { className: 'bar' }, el('span', { textContent: whyFormat(layer, layer.lo) }), ramp, el('span', { textContent: whyFormat(layer, layer.hi) })));
}

// --- Events --------------------------------------------------------------------------------------------

function moveFocus(to) {
  const cells = cellButtons();
  if (to < 0 || to >= cells.length) return;
  cells[focusCell]?.setAttribute('tabindex', '-1');
  focusCell = to;
  cells[to].setAttribute('tabindex', '0');
  cells[to].focus();
}

function onKey(e) {
  const cell = e.target.closest('.cell');
  if (!cell || !game) return;
  const { rows, cols } = game.rules;
  const i = +cell.dataset.index, r = Math.floor(i / cols), c = i % cols;
  const to = {
    ArrowLeft: c > 0 ? i - 1 : i, ArrowRight: c < cols - 1 ? i + 1 : i,
    ArrowUp: r > 0 ? i - cols : i, ArrowDown: r < rows - 1 ? i + cols : i,
    Home: r * cols, End: r * cols + cols - 1,
  }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  moveFocus(to);
}

// ←/→ step through the game, Home/End go to its start and its current position; not inside the board
// (its arrows move between cells) nor in a field of the form.
function onBrowseKey(e) {
  if (!game || e.altKey || e.ctrlKey || e.metaKey || e.target.closest('#board, input, select, textarea')) return;
  const ply = shownPly();
  const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: game.moves.length }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  browse(to);
}

function init() {
  showScore();
  $('setup').addEventListener('submit', (e) => { e.preventDefault(); newGame(); });
  for (const id of ['rows', 'cols', 'k', 'misere', 'player-x', 'player-o']) $(id).addEventListener('change', setupChanged);
  $('undo').addEventListener('click', undo);
  $('pause').addEventListener('click', togglePause);
  $('why').addEventListener('toggle', () => {
    if (!$('why').open) return;
    followPlayers();
    refreshWhy(false);
  });
  $('why-add').addEventListener('click', () => addWhy($('why-engine').value));
  $('why-all').addEventListener('click', () => {
    whySkipped.clear();
    showWhySkipped();
    for (const o of $('why-engine').options) if (!o.text.endsWith('(level)')) addWhy(o.value, true);
  });
  $('step').addEventListener('click', step);
  $('trace').addEventListener('toggle', () => { if ($('trace').open) { trace = null; scheduleTrace(); } else stopTracePlay(); });
  for (const k of TRACE_KINDS) $('trace-engine').append(new Option(k, k));
  $('trace-engine').addEventListener('change', () => { traceChosen = $('trace-engine').value; scheduleTrace(); });
  $('trace-first').addEventListener('click', () => { stopTracePlay(); traceGo(1); });
  $('trace-prev').addEventListener('click', () => { stopTracePlay(); traceGo((trace?.step || 1) - 1); });
  $('trace-next').addEventListener('click', () => { stopTracePlay(); traceGo((trace?.step || 0) + 1); });
  $('trace-last').addEventListener('click', () => { stopTracePlay(); traceGo(Infinity); });
  $('trace-play').addEventListener('click', toggleTracePlay);
  $('trace-slider').addEventListener('input', () => { stopTracePlay(); traceGo(+$('trace-slider').value); });
  $('timeline-svg').addEventListener('click', timelineClick);
  window.addEventListener('resize', () => { if (game) drawTimeline(); });
  $('speed').addEventListener('change', () => wake?.());
  $('move-list').addEventListener('click', (e) => {
    const b = e.target.closest('button.mv');
    if (b) browse(+b.dataset.ply);
  });
  $('export').addEventListener('click', () => {
    const t = $('export-text');
    t.hidden = false;
    t.value = game ? exportText(game) : '';
    t.select();
  });
  $('hints').addEventListener('click', () => {
    $('hints').setAttribute('aria-pressed', String(!hintsOn()));
    refreshHints();
  });
  $('board').addEventListener('click', (e) => {
    const cell = e.target.closest('.cell');
    if (!cell) return;
    moveFocus(+cell.dataset.index);
    play(cell.dataset.cell);
  });
  $('board').addEventListener('keydown', onKey);
  $('copy-link').addEventListener('click', copyLink);
  $('ply-slider').addEventListener('input', () => browse(+$('ply-slider').value));
  $('play-here').addEventListener('click', playFromHere);
  document.addEventListener('keydown', onBrowseKey);
  window.addEventListener('popstate', () => openAddress());
  start();
}

// The engines, then the game of the address; a refused start is retried (never "Loading…" for ever).
function start() {
  loadEngines().then(openAddress).catch((e) => waitForServer(e, start));
}

document.addEventListener('DOMContentLoaded', init);
