// engine.test.mjs: the engine layer of helpers.mjs (openBrowser) in the browser under test
// (OSW_BROWSER): evaluate passes its argument in and its (awaited) result out and turns a
// rejection into a thrown error; waitFor polls; errors() sees console errors, uncaught
// exceptions, unhandled rejections and failed script loads. The other tests' "no errors"
// checks mean something only if this passes in every engine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BLANK_PAGE, ENGINES, currentEngine, openBrowser, startStaticServer } from './helpers.mjs';

const LABEL = ENGINES[currentEngine()];
let server, browser;
before(async () => {
  server = await startStaticServer([], { errorHook: true });
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test(`${LABEL}: evaluate, waitFor and errors()`, async (t) => {
  const page = await browser.newPage();
  t.diagnostic(`${browser.label} ${browser.version}`);
  await page.goto(server.url + BLANK_PAGE);
  assert.deepEqual(await page.evaluate((a) => ({ sum: a.x + a.y, title: document.title }), { x: 2, y: 3 }), { sum: 5, title: 'blank' });
  assert.equal(await page.evaluate(async (ms) => { await new Promise((r) => setTimeout(r, ms)); return 'later'; }, 20), 'later');
  await assert.rejects(page.evaluate(async () => { throw new RangeError('thrown in the page'); }), /thrown in the page/);
  assert.deepEqual(await page.errors(), [], 'a clean page has no errors');

  await page.evaluate(() => {
    setTimeout(() => { window.flag = 7; }, 50);
    console.error('osw-console-probe');
    setTimeout(() => { throw new Error('osw-uncaught-probe'); }, 0);
    Promise.reject(new Error('osw-rejection-probe'));
    const s = document.createElement('script');
    s.src = '/osw-missing-probe.js';
    document.head.append(s);
  });
  assert.equal(await page.waitFor(() => window.flag, undefined, 10_000), 7);
  // the events arrive asynchronously: wait until every probe shows (or fail after 10 s)
  const want = [/console\.error: osw-console-probe/, /osw-uncaught-probe/, /osw-rejection-probe/, /osw-missing-probe\.js/];
  let errors = [];
  for (const t0 = Date.now(); Date.now() - t0 < 10_000; await new Promise((r) => setTimeout(r, 100))) {
    errors = await page.errors();
    if (want.every((re) => errors.some((e) => re.test(e)))) break;
  }
  for (const re of want) assert.ok(errors.some((e) => re.test(e)), `errors() has ${re}: ${JSON.stringify(errors)}`);
  await page.close();
});
