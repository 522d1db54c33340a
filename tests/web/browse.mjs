// tests/web/browse.mjs - browsing is not undoing (imported by e2e.mjs): the move list, the arrow keys and the
// slider show earlier positions and leave the game as it is; the address keeps the ply shown; "Play from here"
// is the explicit way to branch; Undo still takes back a move in play.
import { join } from 'node:path';

const stones = (page) => page.evaluate(() => [...document.querySelectorAll('#board .cell')]
  .filter((b) => b.textContent).map((b) => `${b.textContent}${b.dataset.cell}`).sort().join(' '));
const count = (page) => page.evaluate(() => document.querySelectorAll('#board .cell.x, #board .cell.o').length);
const listed = (page) => page.evaluate(() => document.querySelectorAll('#move-list li').length - 1);
const shown = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#board .cell.x, #board .cell.o').length === k, n);

export async function browseChecks(browser, url, shots, check) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${url}?rules=3x3&moves=b2+a1+c3+a3`);
  await shown(page, 4);
  const game = await page.evaluate(() => game.id);

  await page.click('#move-list button[data-ply="2"]');
  await shown(page, 2);
  const q = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));
  check((await stones(page)) === 'Oa1 Xb2' && (await listed(page)) === 4 && q.moves === 'b2 a1 c3 a3' && q.ply === '2' &&
    /^Move 2 of 4 shown/.test(await page.locator('#status').textContent()),
    `clicking move 2 shows its position; the game keeps its 4 moves; the address says ply 2 (${await page.locator('#status').textContent()})`);
  const recordLeft = () => page.evaluate(() => Math.round(document.querySelector('.record').getBoundingClientRect().left));
  const leftBefore = await recordLeft();
  await page.click('#board .cell[data-cell="c1"]', { force: true }); // aria-disabled: a person may click it all the same
  await page.waitForFunction(() => /earlier position/.test(document.getElementById('message').textContent));
  check((await count(page)) === 2 && (await page.evaluate(() => game.moves.length)) === 4, 'a click on the board while browsing plays nothing, and says why');
  check((await recordLeft()) === leftBefore, `the long message under the board moves nothing beside it (the record at ${leftBefore} px)`);

  await page.locator('#move-list button[data-ply="2"]').focus();
  await page.keyboard.press('ArrowLeft');
  await shown(page, 1);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await shown(page, 3);
  await page.keyboard.press('Home');
  await shown(page, 0);
  await page.keyboard.press('End');
  await shown(page, 4);
  check((await page.locator('#status').textContent()) === 'X to move' && (await page.evaluate(() => location.search.includes('ply'))) === false,
    '←, →, Home and End step through the game and back to its end');
  await page.evaluate(() => { const s = document.getElementById('ply-slider'); s.value = '1'; s.dispatchEvent(new Event('input', { bubbles: true })); });
  await shown(page, 1);
  check((await stones(page)) === 'Xb2' && (await page.evaluate(() => game.id)) === game && (await listed(page)) === 4,
    'the slider shows move 1; the game is the same game, its moves all there');
  await page.screenshot({ path: join(shots, '0-browsing-move-1.png') });

  await page.reload();
  await shown(page, 1);
  check((await listed(page)) === 4 && /^Move 1 of 4/.test(await page.locator('#status').textContent()), 'a reload restores the game and the ply shown');

  // "Play from here": a new game of the moves up to the ply shown; Back returns to the whole game.
  await page.click('#move-list button[data-ply="2"]');
  await shown(page, 2);
  await page.click('#play-here');
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 3 && !location.search.includes('ply'));
  const branch = await page.evaluate(() => [game.id, new URLSearchParams(location.search).get('moves')]);
  check(branch[0] !== game && branch[1] === 'b2 a1' && (await page.locator('#status').textContent()) === 'X to move',
    `"Play from here" starts a new game from move 2 (${branch[1]})`);
  await page.click('#board .cell[data-cell="c1"]');
  await shown(page, 3);
  await page.click('#undo');
  await shown(page, 2);
  check((await stones(page)) === 'Oa1 Xb2', 'Undo still takes back a move in play');
  await page.goBack();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('moves') === 'b2 a1 c3 a3');
  // The branch left behind is also shown at ply 2: wait for the restored game's list before reading it.
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length - 1 === 4, null, {timeout: 10000})
    .catch(() => {});
  await shown(page, 2);
  check((await listed(page)) === 4, 'Back returns to the whole game, at the ply it showed');
  await page.close();
}
