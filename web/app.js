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
let whyShown = false; // the why panels were opened (on a desktop) with the first game
const DESKTOP = '(min-width: 701px)'; // style.css: narrower is a phone, everything in one column
const counted = new Set(); // games already added to the score
let score = JSON.parse(sessionStorage.getItem('ttt-score') || '{"x":0,"o":0,"draw":0}');

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw Object.assign(new Error(data.error || `HTTP ${res.status}`), { status: res.status });
  return data;
}

// An error as one line that says what to do about it (shown under the board, in view).
function errorText(e) {
  if (e instanceof TypeError) // fetch found no server
    return 'The server did not answer: is ttt serve still running? Start it again, then press New game.';
  const text = String(e.message || e);
  if (e.status === 503) return `${text} (wait a moment, then try the same again).`;
  return text;
}

function showError(e) {
  $('message').classList.remove('notice');
  $('message').textContent = e ? errorText(e) : '';
}

// A short note that is not an error (e.g. why a new game started).
function showNotice(text) {
  $('message').textContent = text;
  $('message').classList.add('notice');
}

// The answer of the API for a game it no longer has (the server restarted, or the game sat idle too long).
const EXPIRED = /^no game '[^']*' \(unknown or expired\)$/;

// Errors of requests about the current game: an expired game starts a new one with the same settings.
function gameError(e) {
  if (e && e.status === 404 && EXPIRED.test(e.message)) {
    newGame('That game had expired on the server: it was opened again from its moves.', game.moves.join(' '), { replace: true });
    return;
  }
  showError(e);
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
    figures = [];
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
    // On a desktop the position's explanation sits beside the board from the first game on.
    if (!whyShown) {
      whyShown = true;
      if (matchMedia(DESKTOP).matches) $('why').open = true;
    }
    engineTurns(my);
  } catch (e) {
    if (quiet) throw e;
    if (my === epoch) showError(e);
  }
}

// Opens the game the address names (on load, Back or Forward): its rules, players and moves, created again
// through the API. What cannot be opened is said, and a board is always shown: the rules' empty board when
// only the moves are wrong, else the default rules'.
async function openAddress() {
  const link = fromLink();
  if (!link) return newGame(undefined, undefined, { replace: true });
  if (!link.error) {
    try {
      await newGame(link.moves ? 'Reopened from the address.' : undefined, link.moves || undefined, { replace: true, quiet: true });
      if (link.ply !== null) browse(link.ply);
      return;
    } catch (e) {
      link.error = `The address's game could not be opened: ${errorText(e)}.`;
    }
    if (link.moves) {
      try {
        await newGame(undefined, undefined, { replace: true, quiet: true });
        showError(`${link.error} Here is the empty board of its rules.`);
        return;
      } catch { /* the rules are refused too: the default ones below */ }
    }
  }
  for (const id of ['rows', 'cols']) $(id).value = $(id).defaultValue;
  $('k').value = '';
  $('misere').checked = false;
  await newGame(undefined, undefined, { replace: true });
  showError(`${link.error} Showing ${rulesText()} instead: pick the rules above.`);
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
  scheduleWhy();
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
        figures[state.moves.length - 1] = { ...state.engine, who: player === engine ? engine : `${player} (${engine})` };
        const side = game.to_move.toUpperCase();
        update(state);
        announce(`${side} played ${state.last_move}${state.outcome === 'ongoing' ? '' : `: ${statusText(state)}`}`);
      } catch (e) {
        if (my === epoch) gameError(e);
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
    if (my === epoch) gameError(e);
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
    if (my === epoch) gameError(e);
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

// One quantity per overlay: proven values as W/D/L; otherwise, when the engine reports how it spread its
// effort (MCTS visits), the share of it, else its score; each the number and the shade of the same quantity,
// and only on the moves that have it (a move no visit reached has no overlay).
function showHints(a) {
  const byName = new Map([...cellButtons()].map((b) => [b.dataset.cell, b]));
  const scored = a.moves.filter((m) => m.kind === 'score');
  const byShare = scored.some((m) => m.share > 0);
  const values = scored.map((m) => (byShare ? m.share : m.score));
  const lo = Math.min(...values), hi = Math.max(...values);
  for (const m of a.moves) {
    const b = byName.get(m.move);
    if (!b || m.kind === 'none' || (m.kind === 'score' && byShare && !(m.share > 0))) continue;
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
        b.style.setProperty('background', `hsl(${Math.round(t * 120)}, 65%, 72%)`);
        text = `${Math.round(m.score * 100)}`;
      }
    }
    tag.textContent = text;
    tag.setAttribute('aria-hidden', 'true');
    b.append(tag);
    b.setAttribute('aria-label', `${b.getAttribute('aria-label')}, hint ${m.kind === 'exact' ? m.result : `${byShare ? 'share' : 'score'} ${text}`}`);
  }
  $('board').classList.add('hinted');
  $('hint-scale').textContent = !scored.length ? '' : byShare
    ? `Shaded and numbered: the share of the search spent on the move, from ${pct(lo)} (lightest) to ${pct(hi)} (darkest); moves it never reached are blank.`
    : "Shaded and numbered: the engine's score ×100, red the worst move here, green the best.";
  $('hint-method').textContent = `(${a.method})`;
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
  panel.append(el('p', { className: 'method', textContent: d.method }));
  const step = el('p', { className: 'step' }, 'Plays ', el('strong', { textContent: d.choice || '—' }));
  if (d.step) step.append(`: ${d.step}`);
  panel.append(step);
  const facts = el('dl');
  const figures = [...d.facts, { name: 'nodes', value: d.nodes }, { name: 'time', value: d.ms, ms: true }];
  if (d.depth > 0 && !d.facts.some((f) => f.name === 'depth reached')) figures.push({ name: 'depth', value: d.depth });
  for (const f of figures)
    facts.append(el('dt', { textContent: f.name }), el('dd', { textContent: f.ms ? `${Math.round(f.value)} ms` : number(Math.round(f.value * 1000) / 1000) }));
  panel.append(facts);
  if (d.layers.length) {
    const tabs = el('div', { className: 'layers', role: 'group' });
    tabs.setAttribute('aria-label', 'Quantity shown');
    d.layers.forEach((l, i) => {
      const b = el('button', { type: 'button', textContent: l.name });
      b.setAttribute('aria-pressed', String(i === p.layer));
      b.addEventListener('click', () => { p.layer = i; renderWhy(); });
      tabs.append(b);
    });
    panel.append(tabs);
    const layer = fitted(d.layers[Math.min(p.layer, d.layers.length - 1)]);
    panel.append(renderMini(d, layer), renderLegend(layer));
    if (!layer.cells.length) panel.append(el('p', { className: 'note', textContent: `No cell has a figure for ${layer.name} here.` }));
  } else {
    panel.append(el('p', { className: 'note', textContent: 'No figures per cell: one rule decided.' }));
  }
  if (d.lines.length) {
    const ol = el('ol', { className: 'lines' });
    for (const l of d.lines) {
      const li = el('li', { textContent: `${l.label}: ${l.moves.join(' ')}` });
      if (l.note) li.append(` (${l.note} ${number(l.count)})`);
      ol.append(li);
    }
    panel.append(ol);
  }
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
    if (!whyPanels.length) for (const e of defaultWhyEngines()) whyPanels.push({ engine: e, data: null, error: null, layer: 0 });
    refreshWhy(false);
  });
  $('why-add').addEventListener('click', () => addWhy($('why-engine').value));
  $('why-all').addEventListener('click', () => {
    whySkipped.clear();
    showWhySkipped();
    for (const o of $('why-engine').options) if (!o.text.endsWith('(level)')) addWhy(o.value, true);
  });
  $('step').addEventListener('click', step);
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
  loadEngines().then(openAddress).catch(showError);
}

document.addEventListener('DOMContentLoaded', init);
