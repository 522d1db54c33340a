// tests/web/e2e.mjs - the page of `ttt serve` in headless Chromium (Debian's /usr/bin/chromium), driven by
// playwright-core: a full game by clicking (against an engine), a full game by keyboard, undo, the hint overlay,
// 4x4 misère, phone width. Screenshots go to the directory given as the second argument.
//
// usage: node tests/web/e2e.mjs path/to/ttt SCREENSHOT_DIR    (exit 0 on success; any failure throws)
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { addressChecks } from './address.mjs';
import { analysisChecks } from './analysis.mjs';
import { browseChecks } from './browse.mjs';
import { errorInView, layoutChecks } from './layout.mjs';
import { smallerChecks } from './smaller.mjs';

const [ttt, shots] = process.argv.slice(2);
if (!ttt || !shots) throw new Error('usage: node e2e.mjs path/to/ttt SCREENSHOT_DIR');
mkdirSync(shots, { recursive: true });
const CHROMIUM = '/usr/bin/chromium';
const TIMEOUT_MS = 20000;

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
  console.log(`ok - ${what}`);
}

// Starts the server on a free port and resolves with its URL (from the line it prints).
function startServer(port = 0) {
  const proc = spawn(ttt, ['serve', '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.on('exit', (code) => reject(new Error(`ttt serve exited early (${code})`)));
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[^ ]+\//);
      if (m) resolve({ proc, url: m[0] });
    });
  });
}

let server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
let failed = false;
let page;
try {
  await layoutChecks(browser, server.url, shots, check);
  await addressChecks(browser, server.url, shots, check);
  await browseChecks(browser, server.url, shots, check);
  await smallerChecks(browser, server.url, shots, check);
  await analysisChecks(browser, server.url, shots, check);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(TIMEOUT_MS);
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const notFound = []; // every 404 the page gets (the favicon was one)
  page.on('response', (r) => { if (r.status() === 404) notFound.push(r.url()); });

  const cell = (name) => page.locator(`#board .cell[data-cell="${name}"]`);
  const status = () => page.locator('#status').textContent();
  const label = (name) => cell(name).getAttribute('aria-label');
  // Empty cells are found by `[aria-label*=", empty"]`: the label is "a1, empty", and "a1, empty, hint draw" once
  // the hints arrive (matching the end of the label missed them whenever the hints came before the next check).
  // Waits until the game is over, or it is a person's turn with no engine thinking.
  const settled = () =>
    page.waitForFunction(() => {
      const s = document.getElementById('status').textContent;
      return document.getElementById('thinking').hidden && /to move$|wins|Draw/.test(s) && !/\(/.test(s.split('to move')[1] || '');
    });

  async function newGame({ rows = 3, cols = 3, misere = false, x = 'human', o = 'human' }) {
    await page.fill('#rows', String(rows));
    await page.fill('#cols', String(cols));
    await page.fill('#k', '');
    await page.setChecked('#misere', misere);
    await page.selectOption('#player-x', x);
    await page.selectOption('#player-o', o);
    const before = await page.locator('#board').getAttribute('data-game');
    await page.click('#new-game');
    // The game the click started (changing a field may have started one before it: epoch counts them).
    await page.waitForFunction(
      ([n, prev]) => document.querySelectorAll('#board .cell').length === n && document.getElementById('board').dataset.game !== prev &&
        [undefined, String(epoch)].includes(document.getElementById('board').dataset.epoch),
      [rows * cols, before]);
    await settled();
  }

  await page.goto(server.url);
  await page.waitForSelector('#board .cell');
  await page.waitForFunction(() => document.querySelector('#player-o option[value="perfect"]'));
  // Records whether "thinking…" is ever shown.
  // and where the board was each time "thinking…" or "computing hints…" appeared (layout is forced there and
  // then, inside the observer, so the position is the one a click at that moment would meet).
  await page.evaluate(() => {
    window.sawThinking = false;
    window.sawHintBusy = false;
    window.boardTops = [];
    const top = () => Math.round(document.getElementById('board').getBoundingClientRect().top);
    const t = document.getElementById('thinking'), h = document.getElementById('hint-busy');
    new MutationObserver(() => { if (!t.hidden) { window.sawThinking = true; window.boardTops.push(['thinking', top()]); } }).observe(t, { attributes: true });
    if (h) new MutationObserver(() => { if (!h.hidden) { window.sawHintBusy = true; window.boardTops.push(['hints', top()]); } }).observe(h, { attributes: true });
  });

  // 1. A full game by clicking, against the perfect level: click the first empty cell until the game ends.
  await newGame({ x: 'human', o: 'perfect' });
  const topIdle = await page.evaluate(() => Math.round(document.getElementById('board').getBoundingClientRect().top));
  for (let turn = 0; turn < 9; turn++) {
    const s = await status();
    if (!s.startsWith('X to move')) break;
    const empty = page.locator('#board .cell[aria-label*=", empty"]').first();
    const name = await empty.getAttribute('data-cell');
    await empty.click();
    await page.waitForFunction((n) => /, X/.test(document.querySelector(`[data-cell="${n}"]`).getAttribute('aria-label')), name);
    await settled();
  }
  const end1 = await status();
  check(/O wins|Draw/.test(end1), `game by clicking against perfect ends in O wins or a draw (${end1})`);
  check(await page.evaluate(() => window.sawThinking), '"thinking…" was shown while the engine searched');
  const tops = await page.evaluate(() => window.boardTops.filter(([what]) => what === 'thinking').map(([, t]) => t));
  check(tops.length > 0 && tops.every((t) => t === topIdle), `no layout shift: the board stays at ${topIdle} px while the engine thinks (${tops.join(', ')})`);
  check(JSON.stringify(await page.locator('#col-coords span').allTextContents()) === '["a","b","c"]' &&
    JSON.stringify(await page.locator('#row-coords span').allTextContents()) === '["1","2","3"]', 'coordinates a-c and 1-3 around the 3x3 board');
  const colA = await page.locator('#col-coords span').first().boundingBox(), cellA1 = await cell('a1').boundingBox();
  check(Math.abs(colA.x + colA.width / 2 - (cellA1.x + cellA1.width / 2)) < 2, 'column letter a sits over the cells of column a');
  if (end1.startsWith('O wins'))
    check(await page.locator('#board .cell.win').count() === 3, 'the winning line is highlighted (3 cells)');
  check(await page.locator('#board .cell.last').count() === 1, 'the last move is highlighted');
  await page.screenshot({ path: join(shots, '1-click-game-vs-perfect.png') });
  const scoreO = +(await page.locator('#score-o').textContent()), scoreD = +(await page.locator('#score-draw').textContent());
  check(scoreO + scoreD === 1, 'the score across games counted the finished game');

  // 2. A full game by keyboard, two people: X b2, O a2, X a1, O b1, X c3 (diagonal a1-b2-c3).
  await newGame({});
  await cell('b2').focus();
  const keys = ['Enter', 'ArrowLeft', 'Space', 'ArrowUp', 'Enter', 'ArrowRight', 'Enter', 'ArrowDown', 'ArrowDown',
    'ArrowRight', 'Enter'];
  const expected = { 0: ['b2', 'X'], 2: ['a2', 'O'], 4: ['a1', 'X'], 6: ['b1', 'O'], 10: ['c3', 'X'] };
  for (let i = 0; i < keys.length; i++) {
    await page.keyboard.press(keys[i]);
    if (expected[i]) {
      const [n, side] = expected[i];
      await page.waitForFunction(([c, p]) => document.querySelector(`[data-cell="${c}"]`).getAttribute('aria-label').startsWith(`${c}, ${p}`), [n, side]);
    }
  }
  check((await status()) === 'X wins', 'game by keyboard: X wins');
  check(await page.locator('#board .cell.win').count() === 3, 'keyboard game: winning line highlighted');
  const focus = await page.evaluate(() => {
    const a = document.activeElement;
    return { cell: a.dataset.cell, outline: getComputedStyle(a).outlineStyle, width: getComputedStyle(a).outlineWidth };
  });
  check(focus.cell === 'c3' && focus.outline === 'solid' && focus.width !== '0px', `keyboard focus is visible on c3 (${JSON.stringify(focus)})`);
  check((await label('a1')) === 'a1, X, winning line', `cells have accessible names ("${await label('a1')}")`);
  check(+(await page.locator('#score-x').textContent()) === 1, 'score: X has 1 win');
  await page.screenshot({ path: join(shots, '2-keyboard-game.png') });

  // 3. Undo: two people, one move back; against an engine, back to the person's turn.
  await newGame({});
  await cell('b2').click();
  await page.waitForFunction(() => document.querySelector('[data-cell="b2"]').getAttribute('aria-label').startsWith('b2, X'));
  await cell('a1').click();
  await page.waitForFunction(() => document.querySelector('[data-cell="a1"]').getAttribute('aria-label').startsWith('a1, O'));
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelector('[data-cell="a1"]').getAttribute('aria-label') === 'a1, empty');
  check((await status()) === 'O to move', 'undo takes back one move between two people');
  await newGame({ o: 'hard' });
  await cell('a1').click();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 7);
  await settled();
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 9);
  check((await status()) === 'X to move', "undo against an engine takes back its reply too: the person's turn again");

  // 4. The hint overlay: every empty cell coloured with its exact value on 3x3.
  await cell('b2').click();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 7);
  await settled();
  await page.click('#hints');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell.hint-win, #board .cell.hint-draw, #board .cell.hint-loss').length === 7);
  const hintTexts = await page.locator('#board .cell .hint').allTextContents();
  check(hintTexts.length === 7 && hintTexts.every((t) => /^(W\d+|D|L\d+)$/.test(t)), `hint overlay on every empty cell: ${hintTexts.join(' ')}`);
  check(await page.locator('#hint-legend').isVisible(), 'the hint legend is shown');
  check(await page.evaluate(() => window.sawHintBusy), '"computing hints…" was shown while the hints were computed');
  const hintTops = await page.evaluate(() => window.boardTops.filter(([what]) => what === 'hints').map(([, t]) => t));
  check(hintTops.every((t) => t === topIdle), `no layout shift while hints are computed (${hintTops.join(', ')})`);
  await page.screenshot({ path: join(shots, '3-hints-3x3.png') });

  // 5. 4x4 misère: a new board of 16 cells, rules shown, a few moves, hints still coloured.
  await newGame({ rows: 4, cols: 4, misere: true, o: 'easy' });
  check(await page.locator('#board .cell').count() === 16, '4x4 misère: 16 cells');
  await cell('a1').click();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 14);
  await settled();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell .hint').length === 14);
  check(await page.locator('#board .cell .hint').count() === 14, '4x4 misère: hints on all 14 empty cells');
  await page.screenshot({ path: join(shots, '4-4x4-misere-hints.png') });

  // 6. Phone width: nothing wider than the screen, the board still playable.
  await page.setViewportSize({ width: 375, height: 760 });
  await newGame({ rows: 5, cols: 5 });
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, board: document.getElementById('board').getBoundingClientRect().width }));
  check(widths.doc <= 375 && widths.board <= 375, `usable at 375 px: page ${widths.doc} px, board ${widths.board} px wide`);
  await cell('c3').click();
  await page.waitForFunction(() => document.querySelector('[data-cell="c3"]').getAttribute('aria-label').startsWith('c3, X'));
  await page.screenshot({ path: join(shots, '5-phone-375px.png'), fullPage: true });

  // 7. The biggest board: 16x16, k=5. The solver cannot prove it in time, so the overlay shows the Monte Carlo
  // score grid, only where a score stands out from chance (at most 12 cells), and the legend says so.
  await page.setViewportSize({ width: 1280, height: 1100 });
  await page.fill('#k', '5');
  await page.fill('#rows', '16');
  await page.fill('#cols', '16');
  await page.setChecked('#misere', false);
  await page.click('#new-game');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 256);
  await cell('h8').click();
  await page.waitForFunction(() => /^(Shown: only the \d+( farthest)? moves?|No move's score stands out)/.test(document.getElementById('hint-scale').textContent));
  const shaded16 = await page.locator('#board .cell.hint-score').count(), scale16 = await page.locator('#hint-scale').textContent();
  check((await page.locator('#hint-method').textContent()).includes('montecarlo') && shaded16 <= 12 && (shaded16 === 0 || scale16.includes(`only the ${shaded16}`)),
    `16x16 k=5: the Monte Carlo overlay shows only the ${shaded16} cells that stand out from chance ("${scale16}")`);
  const cols16 = await page.locator('#col-coords span').allTextContents(), rows16 = await page.locator('#row-coords span').allTextContents();
  check(cols16.length === 16 && cols16[15] === 'p' && rows16.length === 16 && rows16[15] === '16', '16x16: coordinates a-p and 1-16');
  await page.screenshot({ path: join(shots, '6-16x16k5-score-hints.png') });

  // 8. No clipped names in the player selects (the widest option's text fits the select), at 1280 and 375 px;
  // the favicon is served (no 404 at all).
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    const clipped = await page.evaluate(() => {
      const ctx = document.createElement('canvas').getContext('2d');
      const out = [];
      for (const sel of document.querySelectorAll('#setup select')) {
        ctx.font = getComputedStyle(sel).font;
        for (const o of sel.options) {
          const need = ctx.measureText(o.text).width;
          if (need > sel.clientWidth - 20) out.push(`${sel.id}: "${o.text}" needs ${Math.round(need)} px of ${sel.clientWidth}`);
        }
      }
      return out;
    });
    check(clipped.length === 0, `at ${width} px every player name fits its select (${clipped.join('; ')})`);
  }
  const favicon = await page.request.get(`${server.url}favicon.ico`);
  check(favicon.status() === 200 && (await favicon.body()).length > 0, `/favicon.ico is served (${favicon.status()})`);
  check(notFound.length === 0, `no 404 while using the page (${notFound.join(', ')})`);

  // 10. Changing the rules or the players starts a new game by itself, and says so.
  if ((await page.getAttribute('#hints', 'aria-pressed')) === 'true') await page.click('#hints');
  await newGame({ o: 'easy' });
  await cell('b2').click();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 7);
  await settled();
  let gameBefore = await page.locator('#board').getAttribute('data-game');
  await page.selectOption('#player-o', 'human');
  await page.waitForFunction((prev) => document.getElementById('board').dataset.game !== prev, gameBefore);
  await settled();
  check((await page.locator('#board .cell[aria-label*=", empty"]').count()) === 9 && /new game/i.test(await page.locator('#message').textContent()),
    `changing a player started a new game and said so ("${await page.locator('#message').textContent()}")`);
  gameBefore = await page.locator('#board').getAttribute('data-game');
  await page.fill('#rows', '4');
  await page.locator('#rows').blur();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 12);
  check(await page.locator('#board').getAttribute('data-game') !== gameBefore, 'changing the rows started a 4x3 game');
  await page.fill('#rows', '3');
  await page.locator('#rows').blur();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 9);
  await settled();

  // 11. The server stops: a move says so under the board. It restarts without the game: the next move opens
  // the game again from its moves, with a short message.
  await cell('a1').click();
  await page.waitForFunction(() => document.querySelector('[data-cell="a1"]').getAttribute('aria-label').startsWith('a1, X'));
  const port = new URL(server.url).port;
  server.proc.removeAllListeners('exit');
  server.proc.kill('SIGTERM');
  await new Promise((r) => server.proc.on('exit', r));
  await cell('b2').click();
  await page.waitForFunction(() => document.getElementById('message').textContent !== '');
  await errorInView(page, 375, 900, check);
  await page.screenshot({ path: join(shots, '8a-server-stopped.png') });
  server = await startServer(port);
  gameBefore = await page.locator('#board').getAttribute('data-game');
  await cell('b2').click();
  await page.waitForFunction((prev) => document.getElementById('board').dataset.game !== prev, gameBefore);
  await settled();
  const expiredText = await page.locator('#message').textContent();
  check(/opened again/i.test(expiredText) && !/no game '/.test(expiredText), `a game the restarted server no longer has is opened again, with a short message ("${expiredText}")`);
  check((await label('a1')).startsWith('a1, X') && (await page.locator('#board .cell[aria-label*=", empty"]').count()) === 8,
    'the server restart kept the game: a1 is still on the board');
  await page.screenshot({ path: join(shots, '8-expired-game.png') });

  // 12. The game record: a move list with the engine's figures, stepping back by clicking it, export, a link.
  await page.setViewportSize({ width: 1280, height: 900 });
  await newGame({ o: 'easy' });
  await cell('a1').click();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 7);
  await settled();
  const entries = await page.locator('#move-list li').allTextContents();
  // (the solver's verdict, "✓ D→D", may stand between the move and the engine's figures)
  check(entries.length === 3 && /^1\. X a1(\S{1,2} [WDL]\d*→[WDL]\d*)?$/.test(entries[1]) &&
    /^2\. O [a-c][1-3](\S{1,2} [WDL]\d*→[WDL]\d*)?easy \(minimax\) · [\d,]+ nodes · [\d.]+ ms/.test(entries[2]),
    `the move list shows the moves, and the engine's nodes and time (${entries.join(' | ')})`);
  await page.screenshot({ path: join(shots, '9-move-list.png') });
  // the engine's own value of its move: perfect (minimax) proves a draw or a result in so many moves
  await newGame({ o: 'perfect' });
  await cell('a1').click();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 7);
  await settled();
  const perfectEntry = (await page.locator('#move-list li').allTextContents())[2];
  check(/· (proven draw|moves to a (win|loss) \d+)$/.test(perfectEntry), `the move list gives the engine's value of its move ("${perfectEntry}")`);
  await newGame({});
  for (const [name, side] of [['b2', 'X'], ['a1', 'O'], ['c3', 'X'], ['a3', 'O']]) {
    await cell(name).click();
    await page.waitForFunction(([c, p]) => document.querySelector(`[data-cell="${c}"]`).getAttribute('aria-label').startsWith(`${c}, ${p}`), [name, side]);
  }
  check((await page.locator('#move-list li').count()) === 5, 'four moves listed (and the start)');
  await page.click('#move-list button[data-ply="2"]');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 7);
  check((await label('c3')) === 'c3, empty' && (await label('a1')).startsWith('a1, O') && /^Move 2 of 4 shown/.test(await status()),
    'clicking move 2 in the list shows the position after it');
  await page.click('#move-list button[data-ply="0"]');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 9);
  check((await page.locator('#move-list li').count()) === 5, 'clicking "start" shows the empty board; the moves stay listed');
  await page.click('#play-here');
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 1);
  for (const [name, side] of [['b2', 'X'], ['a1', 'O'], ['c3', 'X']]) {
    await cell(name).click();
    await page.waitForFunction(([c, p]) => document.querySelector(`[data-cell="${c}"]`).getAttribute('aria-label').startsWith(`${c}, ${p}`), [name, side]);
  }
  await page.click('#export');
  const exported = await page.locator('#export-text').inputValue();
  check(exported.includes('ttt show --rules 3x3 --moves "b2 a1 c3"'), `export as text in the project's notation (${exported.trim().replace('\n', ' / ')})`);
  const link = await page.locator('#link').getAttribute('href');
  check(/\?rules=3x3&moves=b2\+a1\+c3/.test(link), `a link to the position (${link})`);
  const page2 = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page2.goto(link);
  await page2.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 6);
  const reopened = await page2.evaluate(() => ['b2', 'a1', 'c3'].map((c) => document.querySelector(`[data-cell="${c}"]`).getAttribute('aria-label')));
  check(reopened[0].startsWith('b2, X') && reopened[1].startsWith('a1, O') && reopened[2].startsWith('c3, X') &&
    (await page2.locator('#status').textContent()) === 'O to move', `the link reopens the position (${reopened.join('; ')})`);
  await page2.locator('#board .cell[data-cell="a3"]').click();
  await page2.waitForFunction(() => document.querySelector('[data-cell="a3"]').getAttribute('aria-label').startsWith('a3, O'));
  check((await page2.locator('#move-list li').count()) === 5, 'the reopened game goes on: a fourth move');
  await page2.screenshot({ path: join(shots, '10-reopened-link.png') });
  await page2.goto(`${server.url}?rules=3x3&moves=b2+b2`);
  await page2.waitForFunction(() => /could not be opened/.test(document.getElementById('message').textContent));
  check((await page2.locator('#board .cell[aria-label*=", empty"]').count()) === 9, 'a link with an impossible position says so and starts an empty game');
  await page2.close();

  // 13. Watch mode: two engines at the watching pace; pause, step one move, resume to the end; undo in the
  // finished game steps back and the engine does not replay at once.
  const moveCount = () => page.evaluate(() => 9 - document.querySelectorAll('#board .cell[aria-label*=", empty"]').length);
  await page.selectOption('#speed', '700');
  await page.fill('#rows', '3');
  await page.fill('#cols', '3');
  await page.selectOption('#player-x', 'easy');
  await page.selectOption('#player-o', 'medium');
  await page.click('#new-game');
  await page.waitForFunction(() => 9 - document.querySelectorAll('#board .cell[aria-label*=", empty"]').length >= 1);
  await page.click('#pause');
  await page.waitForFunction(() => /paused/.test(document.getElementById('status').textContent) && document.getElementById('thinking').hidden);
  const pausedAt = await moveCount();
  await page.waitForTimeout(1500); // three times the pace: an unpaused game would have moved on
  check((await moveCount()) === pausedAt && (await page.getAttribute('#pause', 'aria-pressed')) === 'true',
    `watch mode: paused at ${pausedAt} moves, no engine moves while paused`);
  await page.screenshot({ path: join(shots, '11-watch-paused.png') });
  await page.click('#step');
  await page.waitForFunction((n) => 9 - document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === n + 1, pausedAt);
  await page.waitForFunction(() => /paused/.test(document.getElementById('status').textContent));
  await page.waitForTimeout(1500);
  check((await moveCount()) === pausedAt + 1, `Step plays exactly one engine move (${pausedAt} -> ${await moveCount()})`);
  await page.selectOption('#speed', '0');
  await page.click('#pause');
  await page.waitForFunction(() => /wins|Draw/.test(document.getElementById('status').textContent));
  const watchEnd = await moveCount();
  check((await page.locator('#move-list li').count()) === watchEnd + 1, `Resume plays the game to its end (${await status()})`);
  await page.click('#undo');
  await page.waitForFunction((n) => 9 - document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === n - 1, watchEnd);
  await page.waitForTimeout(1500);
  check((await moveCount()) === watchEnd - 1 && /paused/.test(await status()),
    `undo in a finished engine game steps back one move and the engine waits (${await status()})`);
  await page.click('#move-list button[data-ply="1"]');
  await page.waitForFunction(() => 9 - document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 1);
  check((await page.locator('#move-list li').count()) === watchEnd && /^Move 1 of/.test(await status()),
    `looking at move 1 of the engines' game keeps its ${watchEnd - 1} moves`);
  await page.click('#step');
  await page.waitForFunction((n) => document.querySelectorAll('#move-list li').length === n + 1, watchEnd);
  check(9 - (await page.locator('#board .cell[aria-label*=", empty"]').count()) === 1 && /^Move 1 of/.test(await status()),
    'Step plays the next move of the game while move 1 stays on the board');
  await page.keyboard.press('End');
  await page.waitForFunction((n) => 9 - document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === n, watchEnd);

  // 14. "Why this move": every engine's own view, on 3x3 and on 7x7 k=5. Each panel names its quantities, shows
  // one on its board with a legend (name and scale), and only on cells the engine considered.
  const panelsSettled = () => page.waitForFunction(() => document.querySelectorAll('.why-panel').length > 0 &&
    !document.querySelector('.why-panel .busy'), null, { timeout: 60000 });
  const panelInfo = () => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.why-panel')].map((p) => [p.dataset.engine, {
    error: p.querySelector('.error')?.textContent || '',
    step: p.querySelector('.step')?.textContent || '',
    layers: [...p.querySelectorAll('.layers button')].map((b) => b.textContent),
    facts: Object.fromEntries([...p.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])),
    lines: [...p.querySelectorAll('ol.lines li')].map((li) => li.textContent),
    valued: p.querySelectorAll('.mini span.valued').length,
    stones: p.querySelectorAll('.mini span.x, .mini span.o').length,
    legend: p.querySelector('.legend')?.textContent || '',
  }])));
  await page.setViewportSize({ width: 1280, height: 1000 });
  await newGame({});
  await cell('b2').click();
  await page.waitForFunction(() => document.querySelector('[data-cell="b2"]').getAttribute('aria-label').startsWith('b2, X'));
  if (!(await page.evaluate(() => document.getElementById('why').open))) await page.click('#why summary');
  await panelsSettled();
  await page.click('#why-all');
  await page.waitForFunction(() => document.querySelectorAll('.why-panel').length >= 7);
  await panelsSettled();
  let why = await panelInfo();
  const want = {
    minimax: ['value', 'distance'], montecarlo: ['score grid'], mcts: ['visits', 'win rate'], table: ['average score', 'games'],
    learner: ['games won', 'games drawn', 'games lost'], heuristic: ['frequency', 'line weight'], random: ['chance'],
  };
  for (const [engine, layers] of Object.entries(want)) {
    const w = why[engine];
    check(w && !w.error && layers.every((l) => w.layers.includes(l)) && w.stones === 1 && /^Plays [a-c][1-3]/.test(w.step),
      `3x3 why panel of ${engine}: ${w ? `${w.layers.join(', ')}; ${w.step}; ${Object.entries(w.facts).map(([k, v]) => `${k} ${v}`).join(', ')}` : 'missing'}`);
    check(w.legend.startsWith(w.layers[0]) && w.legend.includes(':'), `${engine}: the legend names the quantity and its scale ("${w.legend.slice(0, 70)}…")`);
  }
  check(why.minimax.valued === 8 && why.montecarlo.valued === 8 && why.mcts.valued === 8 && why.random.valued === 8, '3x3: minimax, montecarlo, mcts and random show all 8 empty cells');
  check(+why.montecarlo.facts.trials.replace(/,/g, '') > 0, `montecarlo: the trial count (${why.montecarlo.facts.trials})`);
  check(why.mcts.lines.some((l) => l.startsWith('principal variation: ')) && +why.mcts.facts.iterations.replace(/,/g, '') > 0, `mcts: principal variation and iterations (${why.mcts.lines[0]})`);
  check(why.table.facts['games that fed the table'] !== undefined, `table: the games that fed it (${why.table.facts['games that fed the table']})`);
  check(/random|pursue|avoid|win now|block/.test(why.learner.step) && why.learner.facts['games in memory'] !== undefined, `learner: its step (${why.learner.step}) and memory (${why.learner.facts['games in memory']} games)`);
  check(/steps 2-4/.test(why.heuristic.step) && why.heuristic.lines.some((l) => l.startsWith('kept line')), `heuristic: its step, the frequency table and the kept lines (${why.heuristic.lines.length} lines)`);
  await page.locator('.why-panel[data-engine="mcts"] .layers button', { hasText: 'win rate' }).click();
  check(/^win rate/.test(await page.locator('.why-panel[data-engine="mcts"] .legend').textContent()), 'choosing another quantity shows it, with its own legend');
  await page.screenshot({ path: join(shots, '12-why-3x3.png'), fullPage: true });

  // The same on 7x7 k=5 (the table engine is refused there: its table would be too big to build).
  await page.fill('#k', '5');
  await page.fill('#rows', '7');
  await page.fill('#cols', '7');
  await page.click('#new-game');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 49);
  await cell('d4').click();
  await page.waitForFunction(() => document.querySelector('[data-cell="d4"]').getAttribute('aria-label').startsWith('d4, X'));
  await page.waitForFunction(() => [...document.querySelectorAll('.why-panel .mini')].every((m) => m.children.length === 49));
  await panelsSettled();
  why = await panelInfo();
  for (const engine of ['minimax', 'montecarlo', 'mcts', 'learner', 'heuristic', 'random']) {
    const w = why[engine];
    check(w && !w.error && w.stones === 1 && w.layers.length > 0 && (engine === 'learner' || w.valued > 0) && w.valued <= 48,
      `7x7k5 why panel of ${engine}: ${w ? `${w.layers.join(', ')} on ${w.valued} cells; ${w.step}` : 'missing'}`);
  }
  check(why.minimax.layers.includes('heuristic score') || why.minimax.layers.includes('value'), `7x7k5 minimax: scores at the depth reached (${why.minimax.layers.join(', ')}; depth ${why.minimax.facts['depth reached']})`);
  check(!!why.table.error || why.table.valued > 0, `7x7k5 table: figures or a clear refusal (${why.table.error.slice(0, 80)})`);
  await page.screenshot({ path: join(shots, '13-why-7x7k5.png'), fullPage: true });
  await page.click('#why summary');

  // 15. The hint overlay shows one quantity: with MCTS playing on 7x7 k=5, the number is the visit share and
  // the shade follows it (more visits, darker); moves it never visited have no overlay.
  await newGame({ rows: 7, cols: 7, o: 'mcts' });
  await page.fill('#k', '5');
  await page.click('#new-game');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 49 && document.getElementById('board').dataset.setup.startsWith('7x7k5'));
  await settled();
  if ((await page.getAttribute('#hints', 'aria-pressed')) !== 'true') await page.click('#hints');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell .hint').length > 0, null, { timeout: 30000 });
  const overlay = await page.evaluate(() => [...document.querySelectorAll('#board .cell.hint-score')].map((b) => ({
    text: b.querySelector('.hint').textContent, light: +getComputedStyle(b).backgroundColor.match(/\d+/g).slice(0, 3).reduce((a, c) => a + +c, 0),
  })));
  const shares = overlay.map((o) => parseFloat(o.text));
  const ordered = overlay.map((o, i) => [shares[i], o.light]).sort((a, b) => a[0] - b[0]);
  check(overlay.length > 0 && overlay.every((o) => /%$/.test(o.text)) &&
    ordered.every(([sh, l], i) => ordered.slice(0, i).every(([sh2, l2]) => sh2 === sh || l2 >= l)),
    `7x7k5 hints: one quantity, the visit share, in number and shade alike (${overlay.length} cells, ${Math.min(...shares)}% to ${Math.max(...shares)}%)`);
  check((await page.locator('#hint-scale').textContent()).includes('share'), 'the hint legend names the quantity');
  await page.screenshot({ path: join(shots, '14-hints-7x7k5-mcts.png') });
  // 15x15 k=5 after h8 and MCTS's reply: only the moves its tree reached (near the stones) are shaded.
  await page.click('#hints');
  await page.fill('#rows', '15');
  await page.fill('#cols', '15');
  await page.click('#new-game');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 225 && document.getElementById('board').dataset.setup.startsWith('15x15k5'));
  await cell('h8').click();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 223);
  await settled();
  await page.click('#hints');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell .hint').length > 0, null, { timeout: 30000 });
  const shaded15 = await page.locator('#board .cell.hint-score').count();
  check(shaded15 > 0 && shaded15 < 223, `15x15k5: the overlay covers only the ${shaded15} moves MCTS's search reached, not all 223`);
  await page.screenshot({ path: join(shots, '14b-hints-15x15k5-mcts.png') });
  await page.click('#hints');

  // 9. A 375x700 phone: the whole 3x3 board is on the screen without scrolling.
  await page.setViewportSize({ width: 375, height: 700 });
  await newGame({});
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.evaluate(() => JSON.parse(JSON.stringify(document.getElementById('board').getBoundingClientRect())));
  check(box.top >= 0 && box.bottom <= 700 && box.left >= 0 && box.right <= 375, `375x700: the whole 3x3 board is visible (${Math.round(box.left)},${Math.round(box.top)} to ${Math.round(box.right)},${Math.round(box.bottom)})`);
  await page.screenshot({ path: join(shots, '7-phone-375x700-3x3.png') });

  // 16. The phone with everything open: the move list, the engine controls and the why panels stay within
  // 375 px (nothing to scroll sideways); a 16x16 board fits or scrolls inside its own box.
  await newGame({ o: 'medium' });
  await cell('b2').click();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell[aria-label*=", empty"]').length === 7);
  await settled();
  await page.click('#why summary');
  await panelsSettled();
  const phoneWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  check(phoneWidth <= 375, `375x700 with the record and the why panels open: nothing wider than the screen (${phoneWidth} px)`);
  await page.screenshot({ path: join(shots, '15-phone-record-and-why.png'), fullPage: true });
  await page.evaluate(() => document.getElementById('move-list').scrollIntoView());
  await page.screenshot({ path: join(shots, '15b-phone-record.png') });
  await page.evaluate(() => document.querySelector('.why-panel').scrollIntoView());
  await page.screenshot({ path: join(shots, '15c-phone-why.png') });
  await page.click('#why summary');
  await page.fill('#k', '5');
  await page.fill('#rows', '16');
  await page.fill('#cols', '16');
  await page.click('#new-game');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 256);
  const big = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, cell: document.querySelector('#board .cell').getBoundingClientRect().width }));
  check(big.doc <= 375 && big.cell >= 18, `375 px, 16x16: the page does not scroll sideways and cells stay tappable (${big.doc} px, cells ${big.cell.toFixed(1)} px)`);
  await page.screenshot({ path: join(shots, '16-phone-16x16.png') });
  // 20x20, the largest board, on the phone: coordinates a-t and 1-20, cells still tappable, the board scrolls
  // inside its own box (not the page), and its far corner t20 takes a stone.
  await page.fill('#rows', '20');
  await page.fill('#cols', '20');
  await page.click('#new-game');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 400);
  await cell('t20').click();
  await page.waitForFunction(() => document.querySelector('[data-cell="t20"]').getAttribute('aria-label').startsWith('t20, X'));
  const huge = await page.evaluate(() => {
    const wrap = document.querySelector('.board-wrap');
    const cols = [...document.querySelectorAll('#col-coords span')].map((s) => s.textContent);
    const rows = [...document.querySelectorAll('#row-coords span')].map((s) => s.textContent);
    return { doc: document.documentElement.scrollWidth, cell: document.querySelector('#board .cell').getBoundingClientRect().width,
      scrolls: wrap.scrollWidth > wrap.clientWidth, cols: cols.join(''), rows: rows.join(' ') };
  });
  check(huge.cols === 'abcdefghijklmnopqrst' && huge.rows === Array.from({ length: 20 }, (_, i) => i + 1).join(' ') &&
    huge.doc <= 375 && huge.cell >= 17.5 && huge.scrolls,
    `375 px, 20x20: coordinates a-t and 1-20, t20 played, the board scrolls in its box, not the page (${huge.doc} px, cells ${huge.cell.toFixed(1)} px, cols ${huge.cols})`);
  await page.screenshot({ path: join(shots, '16b-phone-20x20.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  check(pageErrors.length === 0, `no errors in the page (${pageErrors.join('; ')})`);
} catch (e) {
  failed = true;
  console.error(`FAIL: ${e.stack || e}`);
  await page?.screenshot({ path: join(shots, 'failure.png'), fullPage: true }).catch(() => {});
} finally {
  await browser.close();
  server.proc.removeAllListeners('exit');
  server.proc.kill('SIGTERM');
  const code = await new Promise((r) => server.proc.on('exit', (c) => r(c)));
  if (code !== 0) {
    console.error(`FAIL: ttt serve exited ${code} on SIGTERM`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
