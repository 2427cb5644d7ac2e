// csp.test.mjs: the package under a strict Content-Security-Policy, in the browser under
// test (OSW_BROWSER): a page served with `script-src 'self' 'wasm-unsafe-eval'` (no
// 'unsafe-eval', as hardened sites and Chrome MV3 extensions have) loads the packed
// package's browser module, creates a sampler and runs a Resize and a GridSample
// correctly, with no console error and no CSP violation. A probe page under the same
// policy first shows that the engine enforces it (new Function throws EvalError).
// The pages are tests/browser/csp/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ENGINES, currentEngine, here, openBrowser, packageDir, startStaticServer } from './helpers.mjs';

const LABEL = ENGINES[currentEngine()];
const POLICY = "script-src 'self' 'wasm-unsafe-eval'";
let server, browser;
before(async () => {
  server = await startStaticServer([['/pkg/', packageDir()], ['/csp/', join(here, 'csp')]],
    { headers: { 'content-security-policy': POLICY }, errorHook: true });
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test(`${LABEL} enforces the policy: string evaluation is refused, wasm compiles`, async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/csp/probe.html`);
  const probe = await page.waitFor(() => window.__probe, undefined, 30_000);
  assert.deepEqual(probe, { evalRefused: 'EvalError', wasmCompiles: 'yes' });
  await page.close();
});

test(`under ${POLICY}, the package loads and computes in ${LABEL}`, async (t) => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/csp/index.html`);
  await page.waitFor(() => window.__csp !== undefined, undefined, 30_000);
  const r = await page.evaluate(() => window.__csp);
  assert.equal(r.error, undefined, `the page failed: ${r.error}`);
  // Resize 2x2 -> 4x4 linear (half_pixel): the ONNX formula, in float32
  const c = (i) => Math.min(Math.max((i + 0.5) / 2 - 0.5, 0), 1);
  const want = [];
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) {
    const top = 1 + c(j), bottom = 3 + c(j);
    want.push(Math.fround(top * (1 - c(i)) + bottom * c(i)));
  }
  assert.deepEqual(r.ok.resize, { dims: [1, 1, 4, 4], data: want });
  assert.deepEqual(r.ok.gridSample, [1, 4, 2.5]);
  const hooked = await page.evaluate(() => window.__oswErrors);
  assert.deepEqual(hooked, [], 'no CSP violation, console error or uncaught error seen by the page');
  assert.deepEqual(await page.errors(), []);
  const doc = server.requests.find(([, u]) => u === '/csp/index.html');
  assert.deepEqual(doc, [200, '/csp/index.html']);
  assert.ok(server.requests.some(([s, u]) => s === 200 && u === '/pkg/dist/osw.wasm'), 'the wasm was fetched');
  t.diagnostic(`${LABEL} ${browser.version}: resize and gridSample right under ${POLICY}`);
  await page.close();
});
