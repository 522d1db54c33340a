// tests/web/address.mjs - the game in the address (imported by e2e.mjs): the URL follows the rules, players and
// moves; a reload, Back/Forward and a bookmark (a new tab with the address) restore the game; "Link" copies
// it; a bad rules link shows a clear error and a board of the default rules.
import { join } from 'node:path';

const stones = (page) => page.evaluate(() => [...document.querySelectorAll('#board .cell')]
  .filter((b) => b.textContent).map((b) => `${b.textContent}${b.dataset.cell}`).sort().join(' '));
const params = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));
const settled = (page) => page.waitForFunction(() => document.getElementById('thinking').hidden &&
  /X to move$|O to move$|wins|Draw/.test(document.getElementById('status').textContent));

async function playAs(page, name, side) {
  await page.click(`#board .cell[data-cell="${name}"]`);
  await page.waitForFunction(([c, p]) => document.querySelector(`[data-cell="${c}"]`).textContent === p, [name, side]);
}

export async function addressChecks(browser, url, shots, check) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#board .cell');
  await page.waitForFunction(() => document.querySelector('#player-o option[value="medium"]'));
  await page.selectOption('#player-o', 'human');
  await page.click('#new-game');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('o'));
  await playAs(page, 'b2', 'X');
  await playAs(page, 'a1', 'O');
  let q = await params(page);
  check(q.rules === '3x3' && q.moves === 'b2 a1' && !q.x && !q.o, `the address follows the game (${JSON.stringify(q)})`);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#board .cell.x, #board .cell.o').length === 2);
  check((await stones(page)) === 'Oa1 Xb2' && (await page.locator('#status').textContent()) === 'X to move',
    `a reload restores the game at its position (${await stones(page)})`);

  // A second game against an engine: its own history entry; Back returns to the first, Forward to it.
  await page.selectOption('#player-o', 'medium');
  await page.click('#new-game');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('o') === 'medium');
  await settled(page);
  await playAs(page, 'c3', 'X');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell.o').length === 1);
  await settled(page);
  q = await params(page);
  const second = await stones(page);
  check(q.o === 'medium' && q.moves.split(' ').length === 2 && q.moves.startsWith('c3 '), `the address carries the engine player (${JSON.stringify(q)})`);
  await page.goBack();
  // (the second game also has two stones: wait for the first game's own, or the check races the reopening)
  await page.waitForFunction(() => document.querySelector('[data-cell="a1"]').classList.contains('o') &&
    document.querySelector('[data-cell="b2"]').classList.contains('x') && !new URLSearchParams(location.search).has('o'));
  await settled(page);
  check((await stones(page)) === 'Oa1 Xb2' && (await page.inputValue('#player-o')) === 'human', `Back restores the first game (${await stones(page)})`);
  await page.goForward();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('o') === 'medium' &&
    document.querySelectorAll('#board .cell.o').length === 1 && game.players.o.startsWith('medium'));
  await settled(page);
  check((await stones(page)) === second && (await page.inputValue('#player-o')) === 'medium', `Forward restores the second game (${second})`);

  // "Link" copies the address; opened in a new tab (a bookmark), it restores the game.
  await page.click('#copy-link');
  await page.waitForFunction(() => /copied/i.test(document.getElementById('message').textContent));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  check(copied === page.url(), `"Link" copies the game's address (${copied})`);
  const tab = await context.newPage();
  await tab.goto(copied);
  await tab.waitForFunction(() => document.querySelectorAll('#board .cell.x, #board .cell.o').length === 2);
  check((await stones(tab)) === second && (await tab.inputValue('#player-o')) === 'medium', `the copied link opens the game in a new tab (${await stones(tab)})`);

  // A bad rules link: a clear error and a board of the default rules, never an empty page.
  await tab.goto(`${url}?rules=25x25&moves=a1`);
  await tab.waitForFunction(() => document.getElementById('message').textContent !== '' && document.querySelectorAll('#board .cell').length > 0);
  const msg = await tab.locator('#message').textContent();
  check((await tab.locator('#board .cell').count()) === 9 && /25x25/.test(msg) && /pick the rules/.test(msg) &&
    (await tab.inputValue('#rows')) === '3' && new URL(tab.url()).searchParams.get('rules') === '3x3',
    `?rules=25x25: a clear error and a 3x3 board ("${msg}")`);
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await tab.setViewportSize({ width: w, height: h });
    const box = await tab.evaluate(() => { const u = document.querySelector('.under'); return [u.scrollHeight, u.clientHeight]; });
    check(box[0] <= box[1], `${w}x${h}: the whole message fits its box under the board (${box[0]} of ${box[1]} px)`);
  }
  await tab.screenshot({ path: join(shots, '0-bad-rules-link.png') });
  await context.close();
}
