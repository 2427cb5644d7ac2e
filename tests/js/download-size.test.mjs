// download-size.test.mjs: what a browser downloads (dist/browser.mjs, the API with the
// Emscripten glue inside, and dist/osw.wasm), gzipped at level 9 as the benchmark measures
// it, stays within the budget of 100 kB (read strictly: 100,000 bytes). A size, not a time:
// the same build gives the same bytes on every machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { packageEntry } from './package.mjs';

const BUDGET = 100000;

test(`browser.mjs + osw.wasm gzipped stay within ${BUDGET} bytes`, (t) => {
  const dist = path.dirname(packageEntry());
  const sizes = {};
  for (const f of ['browser.mjs', 'osw.wasm'])
    sizes[f] = gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length;
  const total = sizes['browser.mjs'] + sizes['osw.wasm'];
  t.diagnostic(`browser.mjs ${sizes['browser.mjs']} + osw.wasm ${sizes['osw.wasm']} = ${total} bytes gzipped`);
  assert.ok(total <= BUDGET, `the download is ${total} bytes gzipped (browser.mjs ${sizes['browser.mjs']}, osw.wasm ${sizes['osw.wasm']}), over ${BUDGET}`);
});
