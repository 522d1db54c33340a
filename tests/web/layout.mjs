// tests/web/layout.mjs - the page's layout, measured in the browser (imported by e2e.mjs): the whole board and
// the current position's explanation visible without scrolling on a desktop, the page stacked on a phone, no
// layout shift on load and through a whole watched 3x3 game (the browser's own 'layout-shift' entries), no
// scroll jump on a phone, and an error shown next to the board with what to do.
import { join } from 'node:path';

export const MAX_CLS = 0.05; // the "good" threshold of Cumulative Layout Shift

// Installed before any script of the page: sums the layout shifts not caused by input, as CLS counts them.
export function observeShifts() {
  window.cls = 0;
  window.shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.cls += e.value;
      window.shifts.push([Math.round(performance.now()), e.value.toFixed(4),
        e.sources.map((s) => s.node?.id || s.node?.className || s.node?.nodeName).join(' ')]);
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

export const rect = (page, sel) => page.evaluate((s) => {
  const e = document.querySelector(s);
  if (!e) return null;
  const b = e.getBoundingClientRect();
  return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
}, sel);
export const inView = (r, w, h) => !!r && r.left >= 0 && r.top >= 0 && r.right <= w && r.bottom <= h;
export const show = (r) => (r ? `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}` : 'none');

// The page settled: a person to move or the game over, no engine thinking, the explanations arrived.
const settledAll = (page) => page.waitForFunction(() => {
  const s = document.getElementById('status').textContent;
  return document.getElementById('thinking').hidden && /to move$|wins|Draw/.test(s) &&
    ![...document.querySelectorAll('.why-panel')].some((p) => p.querySelector('.busy'));
}, null, { timeout: 30000 });

export async function layoutChecks(browser, url, shots, check) {
  // Desktop: the board whole and the current position's explanation beside it, at the two common sizes.
  for (const [w, h] of [[1280, 800], [1366, 657]]) {
    const page = await browser.newPage({ viewport: { width: w, height: h } });
    await page.goto(url);
    await page.waitForSelector('#board .cell');
    await page.waitForFunction(() => document.querySelector('#player-o option[value="medium"]'));
    await page.click('#board .cell[data-cell="b2"]');
    await page.waitForFunction(() => document.querySelectorAll('#board .cell.o').length === 1);
    await page.waitForSelector('#played .mini'); // the engine's explanation of the move it played
    await settledAll(page);
    const board = await rect(page, '#board'), panel = await rect(page, '#played'), list = await rect(page, '#move-list');
    const scroll = await page.evaluate(() => [document.documentElement.scrollWidth, window.scrollY]);
    check(inView(board, w, h) && inView(panel, w, h) && inView(list, w, h) && scroll[0] <= w && scroll[1] === 0,
      `${w}x${h}: the whole board (${show(board)}), the move list (${show(list)}) and the explanation panel (${show(panel)}) are in view, unscrolled`);
    check(panel.left >= board.right && list.left >= board.right, `${w}x${h}: the analysis sits beside the board, not under it`);
    const bar = await rect(page, 'header.bar');
    check(bar.bottom <= 60, `${w}x${h}: the settings are one compact bar (${Math.round(bar.bottom)} px high)`);
    await page.screenshot({ path: join(shots, `0-desktop-${w}x${h}.png`) });
    await page.close();
  }

  // Load and a whole watched 3x3 game (engines on both sides, no input): the layout does not shift.
  for (const [w, h, name] of [[1280, 800, 'desktop'], [390, 844, 'phone']]) {
    const page = await browser.newPage({ viewport: { width: w, height: h } });
    await page.addInitScript(observeShifts);
    await page.goto(url);
    await page.waitForSelector('#board .cell');
    await page.waitForFunction(() => document.querySelector('#player-o option[value="medium"]'));
    await settledAll(page);
    await page.waitForTimeout(600); // anything late (fonts, panels) shifts now or never
    const load = await page.evaluate(() => [window.cls, JSON.stringify(window.shifts)]);
    check(load[0] <= MAX_CLS, `${name}: layout shift on load ${load[0].toFixed(3)} <= ${MAX_CLS} ${load[1]}`);
    await page.selectOption('#player-x', 'easy');
    await page.selectOption('#player-o', 'medium');
    await page.click('#new-game');
    await page.waitForTimeout(600); // the shifts of the click itself are the user's (hadRecentInput)
    const before = await page.evaluate(() => { const c = window.cls; window.cls = 0; window.shifts = []; return c; });
    await page.waitForFunction(() => /wins|Draw/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    await settledAll(page);
    // and the solver's review of the game: its verdicts in the list and its timeline
    await page.waitForFunction(() => +document.getElementById('timeline').dataset.points === game.moves.length + 1, null, { timeout: 30000 });
    await page.waitForTimeout(600);
    const game = await page.evaluate(() => [window.cls, JSON.stringify(window.shifts), document.querySelectorAll('#move-list li').length - 1]);
    check(game[0] <= MAX_CLS && game[2] >= 5,
      `${name}: layout shift through a watched 3x3 game of ${game[2]} moves ${game[0].toFixed(3)} <= ${MAX_CLS} (before it ${before.toFixed(3)}) ${game[1]}`);
    await page.close();
  }

  // A phone: board, then the record; a game played by tapping never scrolls the page.
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(url);
  await page.waitForSelector('#board .cell');
  await page.waitForFunction(() => document.querySelector('#player-o option[value="medium"]'));
  await page.selectOption('#player-o', 'medium');
  await page.click('#new-game');
  await settledAll(page);
  const ys = [];
  for (let turn = 0; turn < 5; turn++) {
    const s = await page.locator('#status').textContent();
    if (!s.startsWith('X to move')) break;
    const n = await page.locator('#board .cell.x, #board .cell.o').count();
    await page.locator('#board .cell[aria-label*=", empty"]').first().click();
    await page.waitForFunction((k) => document.querySelectorAll('#board .cell.x, #board .cell.o').length >= k + 2 ||
      !/to move/.test(document.getElementById('status').textContent), n);
    await settledAll(page);
    ys.push(await page.evaluate(() => window.scrollY));
  }
  const board = await rect(page, '#board'), record = await rect(page, '.record');
  check(ys.length >= 3 && ys.every((y) => y === 0), `390x844: a game by tapping never scrolls the page (scrollY ${ys.join(', ')})`);
  check(inView(board, 390, 844) && record.top >= board.bottom && (await page.evaluate(() => document.documentElement.scrollWidth)) <= 390,
    `390x844: the whole board in view (${show(board)}), the record stacked under it (top ${Math.round(record.top)})`);
  await page.screenshot({ path: join(shots, '0-phone-390x844.png') });
  await page.close();
}

// An error is shown next to the board, in view, and says what to do (the server is stopped).
export async function errorInView(page, w, h, check) {
  const msg = await rect(page, '#message'), board = await rect(page, '#board');
  const text = await page.locator('#message').textContent();
  check(inView(msg, w, h) && msg.top >= board.bottom && msg.top - board.bottom < 40 && /Start it again/.test(text),
    `the error is under the board, in view (${show(msg)}), and says what to do ("${text}")`);
}
