// conformance.test.mjs: the 188 ONNX conformance cases (Resize, Upsample, GridSample and
// AffineGrid), computed IN the browser under test (OSW_BROWSER: Chromium, Firefox or
// WebKit) by the packed package's browser module (OSW_PACKAGE/dist/browser.mjs) through
// sampler.run().
//
// Node decodes the cases (tests/js/onnx-cases.mjs, protobufjs) and sends each tensor to the
// page as { type, dims, base64 bytes }; the page rebuilds the TypedArrays, runs every node,
// and returns each output the same way, with the name of its TypedArray. Node then applies
// the README's comparison rule (compareTensors) to every output: one subtest per case, and
// a final check that exactly 188 ran and passed; the summary line gives passed/total per
// operator (scripts/test.mjs reads it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { EXPECTED_CASES, OPS, PENDING_SETS, compareTensors, loadCases, readIndex } from '../js/onnx-cases.mjs';
import { BLANK_PAGE, ENGINES, conformanceDir, currentEngine, installPageWire, openBrowser, packageDir, startStaticServer, wire } from './helpers.mjs';

const LABEL = ENGINES[currentEngine()];
const ARRAYS = {
  Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
  Int32Array, Uint32Array, BigInt64Array, BigUint64Array,
};

let server, browser;
before(async () => {
  server = await startStaticServer([['/pkg/', packageDir()]], { errorHook: true });
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});


test(`the ${EXPECTED_CASES} conformance cases pass in ${LABEL} through browser.mjs`, async (t) => {
  const dir = conformanceDir();
  const cases = loadCases(dir);
  t.diagnostic(`conformance data: ${dir}; package: ${packageDir()}`);
  const page = await browser.newPage();
  await page.goto(server.url + BLANK_PAGE);
  await page.evaluate(installPageWire);

  const payload = cases.map((c) => ({ op: c.op, opset: c.opset, attributes: c.attributes, inputs: c.inputs.map(wire) }));
  const res = await page.evaluate(async (cases) => {
    const { createSampler } = await import('/pkg/dist/browser.mjs');
    const sampler = await createSampler();
    const { runCases } = globalThis.__oswWire;  // helpers.mjs installPageWire
    const t0 = performance.now();
    const outputs = runCases(sampler, cases);
    return { outputs, ms: performance.now() - t0, userAgent: navigator.userAgent };
  }, payload);

  t.diagnostic(`${LABEL} ${browser.version} (${res.userAgent}): ${cases.length} cases run in the page in ${res.ms.toFixed(1)} ms`);
  let passed = 0;
  const perOp = Object.fromEntries(OPS.map((op) => [op, { passed: 0, total: 0 }]));
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i];
    const r = res.outputs[i];
    perOp[c.op].total++;
    await t.test(`${c.set}/${c.name}`, () => {
      assert.equal(r.error, undefined, `${c.op} opset ${c.opset} ${JSON.stringify(c.attributes)} threw ${r.error}`);
      const w = r.output;
      const Ctor = ARRAYS[w.array];
      assert.ok(Ctor, `output data is a ${w.array}`);
      const buf = Buffer.from(w.bytes, 'base64');
      const data = new Ctor(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
      const mismatch = compareTensors({ type: w.type, dims: w.dims, data }, c.expected);
      assert.equal(mismatch, null, `${c.op} opset ${c.opset} ${JSON.stringify(c.attributes)}: ${mismatch}`);
      passed++;
      perOp[c.op].passed++;
    });
  }
  t.diagnostic(`conformance in ${LABEL}: ${passed}/${cases.length} passed (${OPS.map((op) => `${op} ${perOp[op].passed}/${perOp[op].total}`).join(', ')})`);
  for (const op of OPS) assert.ok(perOp[op].total > 0, `no ${op} cases ran in ${LABEL}`);
  assert.deepEqual(await page.errors(), []);
  assert.equal(cases.length, EXPECTED_CASES, `found ${cases.length} cases in ${dir}`);
  assert.equal(passed, EXPECTED_CASES, `${passed} of ${cases.length} cases passed in the browser`);
  await page.close();
});

for (const [set, why] of Object.entries(PENDING_SETS)) {
  const n = readIndex(conformanceDir(), set).length;
  test(`${set}/: ${n} cases in ${LABEL}`, { skip: `${why}; not counted in the ${EXPECTED_CASES}` }, () => {});
}
