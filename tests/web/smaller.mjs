// tests/web/smaller.mjs - smaller parts of the page (imported by e2e.mjs): dark mode, the screen reader told
// where the engine played, misère's losing line painted as a loss, the table panel's colours fitted to its
// values, and "All engines" leaving out the engines that refuse the rules.
import { join } from 'node:path';

const rgb = (css) => css.match(/[\d.]+/g).slice(0, 3).map(Number);
const luminance = (css) => { const [r, g, b] = rgb(css); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
const whySettled = (page) => page.waitForFunction(() => document.querySelectorAll('.why-panel').length > 0 &&
  !document.querySelector('.why-panel .busy'), null, { timeout: 60000 });

export async function smallerChecks(browser, url, shots, check) {
  // Dark mode, and the engine's move announced.
  const dark = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  let page = await dark.newPage();
  await page.goto(`${url}?rules=3x3&o=medium`);
  await page.waitForSelector('#board .cell');
  const colours = await page.evaluate(() => ({
    bg: getComputedStyle(document.documentElement).backgroundColor,
    cell: getComputedStyle(document.querySelector('#board .cell')).backgroundColor,
    text: getComputedStyle(document.getElementById('status')).color,
  }));
  check(luminance(colours.bg) < 0.15 && luminance(colours.cell) < 0.2 && luminance(colours.text) > 0.7,
    `dark mode follows prefers-color-scheme (page ${colours.bg}, cells ${colours.cell}, text ${colours.text})`);
  const live = await page.getAttribute('#announce', 'aria-live');
  await page.click('#board .cell[data-cell="b2"]');
  await page.waitForFunction(() => /played/.test(document.getElementById('announce').textContent));
  const said = await page.locator('#announce').textContent(), last = await page.evaluate(() => game.last_move);
  check(live === 'polite' && said === `O played ${last}`, `the engine's move is announced in a live region ("${said}")`);
  await page.waitForSelector('#played .mini');
  await page.screenshot({ path: join(shots, '0-dark-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(shots, '0-dark-phone.png') });
  await dark.close();

  // Misère: X completed column a and lost; the line is painted as a loss.
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${url}?rules=3x3-misere&moves=a1+b1+a2+b2+a3`);
  await page.waitForFunction(() => /wins/.test(document.getElementById('status').textContent));
  const line = await page.evaluate(() => ['a1', 'a2', 'a3'].map((c) => {
    const b = document.querySelector(`[data-cell="${c}"]`);
    return { lose: b.classList.contains('lose'), win: b.classList.contains('win'), bg: getComputedStyle(b).backgroundColor, label: b.getAttribute('aria-label') };
  }));
  check(line.every((c) => c.lose && !c.win && rgb(c.bg)[0] > rgb(c.bg)[1] && c.label.endsWith('losing line')),
    `misère: the completed line is painted as a loss (${line[0].bg}, "${line[0].label}")`);
  await page.screenshot({ path: join(shots, '0-misere-losing-line.png') });

  // The table engine's panel: its averages fill a sliver of -10..+10; the colours span them all the same.
  await page.goto(`${url}?rules=3x3&moves=b2`);
  await page.waitForSelector('#board .cell.x');
  await page.click('#why summary'); // the other engines' view is opened by hand
  await page.waitForSelector('.why-panel');
  await page.selectOption('#why-engine', 'table');
  await page.click('#why-add');
  await page.waitForSelector('.why-panel[data-engine="table"] .mini', { timeout: 60000 });
  const table = await page.evaluate(() => {
    const p = document.querySelector('.why-panel[data-engine="table"]');
    const l = [...p.querySelectorAll('.mini span.valued')].map((s) => { // HSL lightness, in percent
      const c = getComputedStyle(s).backgroundColor.match(/\d+/g).slice(0, 3).map(Number);
      return Math.round((Math.max(...c) + Math.min(...c)) / 5.1);
    });
    return { spread: Math.max(...l) - Math.min(...l), n: l.length, legend: p.querySelector('.legend').textContent };
  });
  check(table.n === 8 && table.spread >= 30 && /fitted/.test(table.legend),
    `the table panel's colours are fitted to its values (lightness spread ${table.spread} over ${table.n} cells; "${table.legend.slice(-60)}")`);

  // "All engines": an engine that answers an error for these rules gets no panel, and is named.
  await page.click('#why-all');
  await whySettled(page);
  await page.waitForFunction(() => /gomoku/.test(document.getElementById('why-skipped').textContent), null, { timeout: 60000 });
  const engines = await page.evaluate(() => [...document.querySelectorAll('.why-panel')].map((p) => [p.dataset.engine, !!p.querySelector('.error')]));
  check(!engines.some(([e]) => e === 'gomoku') && engines.every(([, err]) => !err) && engines.length >= 7,
    `"All engines" shows only engines that explain 3x3 (${engines.map(([e]) => e).join(', ')}); "${await page.locator('#why-skipped').textContent()}"`);
  await page.screenshot({ path: join(shots, '0-all-engines-3x3.png'), fullPage: true });
  await page.close();
}
