// tests/web/analysis.mjs - the page as an analysis board (imported by e2e.mjs): every engine move shown with the
// explanation of that very decision (a watched 7x7 k=5 game, ply by ply, and after a reload), the solver's
// verdicts and the value timeline without layout shift (exact values solid, estimates dashed with their
// uncertainty), nothing cut off at 1280x800 and 390x844, browsing from the timeline keeps the game, the 20x20
// Monte Carlo overlay limited to what stands out from chance, the step-through views on 3x3, dark mode, and a
// limited client told when to retry. Screenshots 27-*.png of each view, at 1280x800 and 390x844.
import { join } from 'node:path';
import { inView, MAX_CLS, observeShifts, rect, show } from './layout.mjs';

const over = (page) => page.waitForFunction(() => /wins|Draw/.test(document.getElementById('status').textContent) &&
  document.getElementById('thinking').hidden, null, { timeout: 240000 });
// The review of the whole game is drawn: a point per position.
const reviewed = (page) => page.waitForFunction(() => game && +document.getElementById('timeline').dataset.points === game.moves.length + 1,
  null, { timeout: 60000 });

// What the page shows for the ply shown: the move named in the panel's title, and the explanation's choice.
const played = (page) => page.evaluate(() => ({
  title: document.getElementById('played-title').textContent,
  choice: document.getElementById('played-body').dataset.choice || '',
  outlined: document.querySelector('#played .mini span.choice')?.dataset.cell || '',
  text: document.getElementById('played-body').textContent,
}));

// Nothing inside the new panels is cut off sideways, and the page does not scroll sideways.
const clipped = (page, w) => page.evaluate((width) => {
  const out = [];
  if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth} px`);
  for (const sel of ['#played', '#timeline', '#timeline-svg', '#trace', '#move-list', '#board']) {
    const e = document.querySelector(sel);
    if (!e) { out.push(`${sel} missing`); continue; }
    const b = e.getBoundingClientRect();
    if (b.right > width + 0.5 || b.left < 0) out.push(`${sel} ${Math.round(b.left)}..${Math.round(b.right)}`);
    if (sel !== '#board' && e.scrollWidth > e.clientWidth + 1) out.push(`${sel} overflows sideways (${e.scrollWidth} > ${e.clientWidth})`);
  }
  return out;
}, w);

export async function analysisChecks(browser, url, shots, check) {
  await playedChecks(browser, url, shots, check);
  await traceChecks(browser, url, shots, check);
  await limitChecks(browser, url, shots, check);
}

export async function playedChecks(browser, url, shots, check) {
  // 1. A watched 7x7 k=5 game, Monte Carlo against MCTS at the fast pace: every engine move comes with the
  // explanation of that decision; the page shows it on each ply; no layout shift while the game, its verdicts
  // and its timeline arrive.
  let page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.addInitScript(observeShifts);
  await page.goto(url);
  await page.waitForSelector('#board .cell');
  await page.waitForFunction(() => document.querySelector('#player-o option[value="mcts"]'));
  await page.selectOption('#speed', '0');
  await page.fill('#rows', '7');
  await page.fill('#cols', '7');
  await page.fill('#k', '5');
  await page.selectOption('#player-x', 'montecarlo');
  await page.selectOption('#player-o', 'mcts');
  await page.click('#new-game');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 49 && game.players.o.startsWith('mcts'));
  await page.waitForTimeout(600); // the click's own shifts are the user's
  await page.evaluate(() => { window.cls = 0; window.shifts = []; });
  await over(page);
  await reviewed(page);
  await page.waitForTimeout(600);
  const cls = await page.evaluate(() => [window.cls, JSON.stringify(window.shifts)]);
  const n = await page.evaluate(() => game.moves.length);
  check(cls[0] <= MAX_CLS, `a watched 7x7k5 game of ${n} moves, its verdicts and its timeline: layout shift ${cls[0].toFixed(3)} <= ${MAX_CLS} ${cls[1]}`);
  const kept = await page.evaluate(() => game.moves.map((m, i) => [m, figures[i]?.explanation?.choice, figures[i]?.move]));
  const bad = kept.filter(([m, c, f]) => m !== c || m !== f);
  check(n >= 9 && bad.length === 0, `every one of the ${n} engine moves came with the explanation of that decision (explanation.choice == move played; ${bad.length} differ)`);
  const wrong = [];
  for (let ply = 1; ply <= n; ply++) {
    await page.click(`#move-list button[data-ply="${ply}"]`);
    await page.waitForFunction((p) => document.getElementById('played-body').dataset.ply === String(p), ply);
    const p = await played(page), move = kept[ply - 1][0];
    if (p.choice !== move || p.outlined !== move || !p.title.includes(` ${move} by `)) wrong.push(`${ply}: ${p.title} / ${p.choice} / ${p.outlined}`);
  }
  check(wrong.length === 0, `the page shows each of the ${n} plies with its own engine's explanation, the move outlined on its board (${wrong.join('; ')})`);
  await page.click(`#move-list button[data-ply="${Math.min(6, n)}"]`);
  await page.screenshot({ path: join(shots, '27-played-7x7k5-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => document.getElementById('played').scrollIntoView());
  await page.screenshot({ path: join(shots, '27-played-7x7k5-phone.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A reload keeps every ply's explanation (sessionStorage, by the game's address).
  await page.reload();
  await page.waitForFunction((k) => game && game.moves.length === k, n);
  await page.click('#move-list button[data-ply="3"]');
  await page.waitForFunction(() => document.getElementById('played-body').dataset.ply === '3');
  const after = await played(page);
  check(after.choice === kept[2][0], `after a reload, move 3 still shows its engine's explanation (${after.title}, chose ${after.choice})`);

  // 2. The verdicts and the timeline (3x3 against perfect after a blunder: the solver settles every ply).
  await page.goto(`${url}?rules=3x3&moves=b2+b1+a1+a3`);
  await page.waitForFunction(() => game && game.moves.length === 4);
  await reviewed(page);
  const list = await page.evaluate(() => [...document.querySelectorAll('#move-list li')].map((li) => li.querySelector('.verdict')?.getAttribute('aria-label') || ''));
  check(list.slice(1).every((v) => /: a (win|draw|loss)/.test(v)) && /threw away|lost/.test(list.join(' ')),
    `every ply has its exact verdict with the distance (${list.slice(1).join(' | ')})`);
  const tl = await page.evaluate(() => ({
    solid: document.querySelectorAll('#timeline-svg line.exact').length, dots: document.querySelectorAll('#timeline-svg circle').length,
    legend: document.getElementById('timeline-legend').textContent,
  }));
  check(tl.solid === 4 && tl.dots === 5 && /exact/.test(tl.legend), `the timeline draws the 5 exact values as a solid line ("${tl.legend}")`);
  // A click on the timeline browses to that ply; the game stays.
  const box = await rect(page, '#timeline-svg');
  await page.mouse.click(box.left + 6 + (box.right - box.left - 12) * 0.25, (box.top + box.bottom) / 2);
  await page.waitForFunction(() => /^Move 1 of 4/.test(document.getElementById('status').textContent));
  check((await page.evaluate(() => game.moves.length)) === 4 && (await page.locator('#board .cell.x, #board .cell.o').count()) === 1,
    'a click on the timeline shows move 1; the game keeps its 4 moves');
  await page.screenshot({ path: join(shots, '27-timeline-verdicts-desktop.png') });
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(200);
    const cut = await clipped(page, w);
    const board = await rect(page, '#board'), tline = await rect(page, '#timeline'), panel = await rect(page, '#played');
    check(cut.length === 0 && inView(board, w, h) && (w < 700 || (inView(tline, w, h) && inView(panel, w, h))),
      `${w}x${h}: nothing cut off (${cut.join('; ')}); board ${show(board)}, timeline ${show(tline)}, explanation ${show(panel)}`);
    if (w < 700) {
      await page.evaluate(() => document.getElementById('move-list').scrollIntoView());
      await page.screenshot({ path: join(shots, '27-timeline-verdicts-phone.png') });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Beyond the solver: the engine's estimates, dashed, with their uncertainty, and named as estimates.
  await page.goto(`${url}?rules=9x9k5&moves=e5+d4+e4+e6`);
  await page.waitForFunction(() => game && game.moves.length === 4);
  await reviewed(page);
  const est = await page.evaluate(() => ({
    dashed: document.querySelectorAll('#timeline-svg line.estimate').length, bands: document.querySelectorAll('#timeline-svg line.spread').length,
    legend: document.getElementById('timeline-legend').textContent, verdict: document.getElementById('played-body').querySelector('.verdict-line')?.textContent || '',
  }));
  check(est.dashed > 0 && est.bands > 0 && /estimate ±spread/.test(est.legend) && /estimate/.test(est.verdict),
    `9x9k5: the engine's estimates are dashed with an uncertainty band and named ("${est.legend}"; "${est.verdict}")`);
  await page.screenshot({ path: join(shots, '27-timeline-estimates-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => document.getElementById('timeline').scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: join(shots, '27-timeline-estimates-phone.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The 20x20 Monte Carlo overlay shows only the cells whose score stands out from chance, and says so.
  await page.goto(`${url}?rules=20x20k5&moves=j10+k11`);
  await page.waitForFunction(() => game && game.moves.length === 2);
  await page.click('#hints');
  await page.waitForFunction(() => /^(Shown: only the \d+( farthest)? moves?|No move's score stands out)/.test(document.getElementById('hint-scale').textContent), null, { timeout: 30000 });
  const overlay = await page.evaluate(() => ({ shaded: document.querySelectorAll('#board .cell.hint-score').length, legend: document.getElementById('hint-scale').textContent }));
  check(overlay.shaded <= 12 && overlay.legend.includes('stands out from chance') && (overlay.shaded === 0 || overlay.legend.includes(`only the ${overlay.shaded}`)),
    `20x20: the Monte Carlo overlay shows ${overlay.shaded} of 398 cells, those that stand out from chance ("${overlay.legend}")`);
  await page.screenshot({ path: join(shots, '27-overlay-20x20-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => document.getElementById('hint-legend').scrollIntoView({ block: 'end' }));
  await page.screenshot({ path: join(shots, '27-overlay-20x20-phone.png') });
  check(errors.length === 0, `no console errors (${errors.join('; ')})`);
  await page.close();
}

export async function traceChecks(browser, url, shots, check) {
  // 3. Step-through on 3x3: each kind of engine shows its steps and one plain sentence.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  // The decision of move 2 (O's, after b2): the heuristic goes past its first rule there.
  await page.goto(`${url}?rules=3x3&moves=b2+a1&ply=2`);
  await page.waitForFunction(() => game && game.moves.length === 2);
  await page.click('#trace summary');
  const kinds = { minimax: 'tree', mcts: 'iterations', montecarlo: 'playouts', heuristic: 'rules', learner: null, table: null };
  for (const [engine, kind] of Object.entries(kinds)) {
    await page.selectOption('#trace-engine', engine);
    await page.waitForFunction((e) => document.getElementById('trace-title').textContent.startsWith(`How ${e} `) && !document.querySelector('#trace-body .busy') &&
      !document.querySelector('#trace-body .busy') && document.getElementById('trace-sentence').textContent.length > 0, engine, { timeout: 60000 });
    const t = await page.evaluate(() => ({
      kind: document.getElementById('trace-body').dataset.kind, count: document.getElementById('trace-count').textContent,
      sentence: document.getElementById('trace-sentence').textContent, now: document.querySelector('.trace-now')?.textContent || '',
      error: document.querySelector('#trace-body .error')?.textContent || '',
    }));
    if (kind) {
      await page.click('#trace-next');
      await page.waitForFunction(() => /^2 \//.test(document.getElementById('trace-count').textContent));
      const next = await page.evaluate(() => document.querySelector('.trace-now')?.textContent || '');
      check(!t.error && t.kind === kind && /^1 \/ \d+/.test(t.count) && t.now && next !== t.now && /\w+ \w+ \w+/.test(t.sentence),
        `3x3 step-through of ${engine} (${t.kind}, ${t.count} steps): "${t.sentence}"; step 1 "${t.now.slice(0, 60)}…", then step 2`);
      if (engine === 'minimax') { // at the last step every reply searched or pruned, the pruned ones said so
        await page.click('#trace-last');
        const tree = await page.evaluate(() => ({
          pruned: document.querySelectorAll('#trace li.pruned').length, later: document.querySelectorAll('#trace li.later').length,
          data: trace.data.tree ? JSON.stringify(trace.data.tree).split('"pruned":true').length - 1 : -1,
          chosen: document.querySelector('#trace-body .step strong')?.textContent,
        }));
        check(tree.pruned === tree.data && tree.pruned > 0 && tree.later === 0 && !!tree.chosen,
          `minimax's tree at its last step: ${tree.pruned} pruned replies shown as pruned, none left unsearched, plays ${tree.chosen}`);
      }
    } else {
      check(!t.error && /\w+ \w+ \w+/.test(t.sentence) && (await page.locator('#trace-body .mini').count()) === 1,
        `3x3 ${engine}: its sentence ("${t.sentence}") and its figures on a board`);
    }
    await page.screenshot({ path: join(shots, `27-trace-${engine}-desktop.png`) });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => document.getElementById('trace').scrollIntoView());
    await page.screenshot({ path: join(shots, `27-trace-${engine}-phone.png`) });
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await page.selectOption('#trace-engine', 'mcts');
  await page.waitForFunction(() => document.getElementById('trace-body').dataset.kind === 'iterations' && !document.querySelector('#trace-body .busy'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => document.getElementById('trace').scrollIntoView());
  check((await clipped(page, 390)).length === 0, 'the step-through view fits a 390 px phone');

  // "What other engines think" follows the players: O medium, then O mcts.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${url}?rules=3x3&o=medium`);
  await page.waitForSelector('#board .cell');
  await page.click('#why summary');
  await page.waitForSelector('.why-panel[data-engine="medium"]');
  await page.selectOption('#player-o', 'mcts');
  await page.waitForFunction(() => game.players.o.startsWith('mcts'));
  await page.waitForSelector('.why-panel[data-engine="mcts"]');
  const panels = await page.evaluate(() => [...document.querySelectorAll('.why-panel')].map((p) => p.dataset.engine));
  check(panels.join() === 'mcts', `"What other engines think" follows the players: O medium, then mcts (${panels.join(', ')})`);
  await page.close();

  // Dark mode: the explanation, the timeline and the step-through in the dark scheme.
  const dark = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  const night = await dark.newPage();
  night.on('pageerror', (e) => errors.push(String(e)));
  await night.goto(`${url}?rules=3x3&o=medium&moves=b2+a1+c3`);
  await night.waitForFunction(() => game && game.moves.length === 4 && document.getElementById('thinking').hidden);
  await reviewed(night);
  await night.waitForSelector('#played .mini');
  await night.screenshot({ path: join(shots, '27-dark-desktop.png') });
  await night.click('#trace summary');
  await night.waitForFunction(() => document.getElementById('trace-body').dataset.kind && !document.querySelector('#trace-body .busy'), null, { timeout: 60000 });
  await night.screenshot({ path: join(shots, '27-dark-trace-desktop.png') });
  await night.setViewportSize({ width: 390, height: 844 });
  await night.evaluate(() => document.getElementById('played').scrollIntoView());
  await night.screenshot({ path: join(shots, '27-dark-phone.png') });
  const colours = await night.evaluate(() => [document.getElementById('played'), document.getElementById('timeline-svg')]
    .map((e) => getComputedStyle(e).backgroundColor.match(/\d+/g).slice(0, 3).reduce((t, c) => t + +c, 0) / 3));
  check(colours.every((c) => c < 60) && errors.length === 0, `dark mode: the explanation and the timeline are dark too (mean channel ${colours.map(Math.round).join(', ')}); no page errors`);
  await dark.close();
}

export async function limitChecks(browser, url, shots, check) {
  // 4. A limited client: eight slow requests of its own address in flight, the page's next one gets 429. The
  // page says so next to the board, counts down, offers to retry, and retries by itself.
  const blockers = [];
  for (let i = 0; i < 8; i++) {
    blockers.push(fetch(`${url}api/analyse`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ rules: '9x9k5', moves: 'e5', engine: 'montecarlo:time=2000', ms: 2000 }) }).catch(() => null));
  }
  // Until all eight are in flight (a loaded machine may take longer than any fixed wait to accept them): a quick
  // request of the same address is refused with 429 once they are, and holds no slot while they are not.
  for (let tries = 0; ; tries++) {
    const probe = await fetch(`${url}api/engines`).catch(() => null);
    if (probe && probe.status === 429) break;
    if (tries >= 200) throw new Error('the eight slow requests never filled the address\'s slots');
    await new Promise((r) => setTimeout(r, 50));
  }
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.waitForFunction(() => /Retrying in \d+ s/.test(document.getElementById('message').textContent), null, { timeout: 10000 });
  const limited = await page.evaluate(() => ({
    status: document.getElementById('status').textContent, msg: document.getElementById('message').textContent,
    button: !!document.querySelector('#message button.retry'),
  }));
  const msgBox = await rect(page, '#message');
  check(limited.status !== 'Loading…' && limited.button && /slow down|busy/.test(limited.msg) && inView(msgBox, 1280, 800),
    `a limited client sees why, a countdown and a retry button next to the board ("${limited.status}"; "${limited.msg}")`);
  await page.screenshot({ path: join(shots, '27-limited-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => /Retrying in \d+ s/.test(document.getElementById('message').textContent));
  await page.screenshot({ path: join(shots, '27-limited-phone.png') });
  await Promise.all(blockers);
  await page.waitForFunction(() => document.querySelectorAll('#board .cell').length === 9 && document.getElementById('message').textContent === '',
    null, { timeout: 20000 });
  check(true, 'once the server has answered the slow requests, the page retried by itself and shows a board');
  await page.close();
}
