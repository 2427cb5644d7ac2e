// loader.test.mjs: how the Node entries of the installed package (index.mjs and index.cjs)
// load osw.wasm (bindings/loader.js). Each case runs in a child process, so that no module is
// cached yet: a wrong wasmUrl (a path, an http URL answering 404, a refused connection), bytes
// that are not wasm, and a package whose osw.wasm is missing must each give one Error naming
// what was tried, why, and the options that fix it, fetch at most once, print nothing, and
// leave a later createSampler() with good options working. A good wasmUrl (path or file: URL)
// and wasmBinary load. After the first success the compiled module is kept: a later call
// does not read the file again.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageEntry } from './package.mjs';

const esmEntry = packageEntry();                          // dist/index.mjs
const distDir = dirname(esmEntry);
const cjsEntry = join(distDir, 'index.cjs');
const wasmPath = join(distDir, 'osw.wasm');
const FIX = 'If a bundler did not copy it, copy node_modules/onnx-sampling-wasm/dist/osw.wasm next to your bundle, ' +
  'or say where it is with createSampler({ wasmUrl }), or pass its bytes with createSampler({ wasmBinary }).';
const message = (where, reason) => `onnx-sampling-wasm: could not load the WebAssembly module from ${where}: ${reason}. ${FIX}`;

// Runs `body` (an async function's text, given createSampler) in a fresh Node process with
// the entry loaded by import or require; returns { result, stdout, stderr, status }. The body
// returns a JSON-able value; nothing else may be printed.
function inChild(entry, body, nodeArgs = []) {
  const load = entry.endsWith('.cjs') ? `require(${JSON.stringify(entry)})` : `await import(${JSON.stringify(pathToFileURL(entry).href)})`;
  const src = `(async () => {
    const { createSampler } = ${load};
    const tryLoad = (o) => createSampler(o).then(() => 'loaded', (e) => \`\${e.constructor.name}: \${e.message}\`);
    const resizeOk = (s) => Array.from(s.resize({ type: 'float32', dims: [2], data: new Float32Array([0, 1]) }, { sizes: [4], mode: 'linear' }).data).join(' ') === '0 0.25 0.75 1';
    const result = await (async () => { ${body} })();
    process.stdout.write('RESULT ' + JSON.stringify(result));
  })().catch((e) => { process.stdout.write('FAILED ' + (e && e.stack)); process.exitCode = 1; });`;
  // Asynchronous, so that a server of this process can answer the child.
  const child = spawn(process.execPath, [...nodeArgs, '-e', src]);
  let stdout = '', stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve) => child.on('close', () => {
    const m = stdout.match(/^RESULT (.*)$/s);
    assert.ok(m, `the child printed a result: ${stdout} ${stderr}`);
    resolve({ result: JSON.parse(m[1]), stderr });
  }));
}

for (const entry of [esmEntry, cjsEntry]) {
  const kind = entry.endsWith('.cjs') ? 'CommonJS' : 'ES module';

  test(`${kind}: a wrong wasmUrl path names it; a later good call works; nothing printed`, async () => {
    const { result, stderr } = await inChild(entry, `
      const bad = await tryLoad({ wasmUrl: '/nonexistent/dir/osw.wasm' });
      const good = await createSampler();
      return { bad, good: resizeOk(good) };`);
    assert.equal(result.bad, `Error: ${message('/nonexistent/dir/osw.wasm', 'no such file')}`);
    assert.equal(result.good, true);
    assert.equal(stderr, '');
  });

  test(`${kind}: good wasmUrl (path, file: URL) and wasmBinary load`, async () => {
    for (const opts of [`{ wasmUrl: ${JSON.stringify(wasmPath)} }`, `{ wasmUrl: new URL(${JSON.stringify(pathToFileURL(wasmPath).href)}) }`,
      `{ wasmBinary: require('fs').readFileSync(${JSON.stringify(wasmPath)}) }`]) {
      const { result, stderr } = await inChild(entry, `return resizeOk(await createSampler(${opts}));`);
      assert.equal(result, true, opts);
      assert.equal(stderr, '');
    }
  });

  test(`${kind}: bytes that are not wasm, and bytes that do not compile`, async () => {
    const { result } = await inChild(entry, `
      return [await tryLoad({ wasmBinary: new TextEncoder().encode('<!doctype html>\\n<p>Not found') }),
              await tryLoad({ wasmBinary: new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0xff]) }),
              await tryLoad({ wasmBinary: 'osw.wasm' })];`);
    assert.equal(result[0], `Error: ${message('the wasmBinary option', 'it is not a WebAssembly file (it starts with "<!doctype html>.")')}`);
    // bytes that do not compile are not a missing file: no bundler hint, but the version's file
    assert.match(result[1], /^Error: onnx-sampling-wasm: could not load the WebAssembly module from the wasmBinary option: it does not compile \(.+\)\. Give it the osw\.wasm of this version of onnx-sampling-wasm \(node_modules\/onnx-sampling-wasm\/dist\/osw\.wasm\), or pass its bytes or a compiled WebAssembly\.Module with createSampler\(\{ wasmBinary \}\)\.$/);
    assert.match(result[2], /^TypeError: createSampler: wasmBinary: expected the \.wasm bytes \(an ArrayBuffer or Uint8Array\) or a compiled WebAssembly\.Module, got the string "osw\.wasm"$/);
  });

  test(`${kind}: an http wasmUrl is fetched once; a 404 and a refused connection are named`, async () => {
    const requests = [];
    const server = createServer((req, res) => {
      requests.push(req.url);
      if (req.url === '/osw.wasm') { res.writeHead(200, { 'content-type': 'application/wasm' }); res.end(readFileSync(wasmPath)); return; }
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not found</h1>');
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${server.address().port}`;
    const closed = createServer();
    await new Promise((r) => closed.listen(0, '127.0.0.1', r));
    const refused = `http://127.0.0.1:${closed.address().port}/osw.wasm`;
    await new Promise((r) => closed.close(r));
    try {
      const { result, stderr } = await inChild(entry, `
        const missing = await tryLoad({ wasmUrl: '${base}/assets/osw.wasm' });
        const down = await tryLoad({ wasmUrl: '${refused}' });
        const good = await createSampler({ wasmUrl: '${base}/osw.wasm' });
        const again = await createSampler({ wasmUrl: '${base}/osw.wasm' });
        return { missing, down, good: resizeOk(good), again: resizeOk(again) };`,
        ['--no-warnings']);  // Node 18 warns that its fetch is experimental
      assert.equal(stderr, '');
      assert.equal(result.missing, `Error: ${message(`${base}/assets/osw.wasm`, 'HTTP 404 Not Found')}`);
      // a refused connection is no missing file: it names the server, not the bundler
      assert.equal(result.down, `Error: onnx-sampling-wasm: could not load the WebAssembly module from ${refused}: the request failed (fetch failed: ECONNREFUSED). ` +
        'Check that the server is up and serves the file, or say where it is with createSampler({ wasmUrl }), or pass its bytes or a compiled WebAssembly.Module with createSampler({ wasmBinary }).');
      assert.equal(result.good, true);
      assert.equal(result.again, true);
      assert.deepEqual(requests, ['/assets/osw.wasm', '/osw.wasm'], 'each URL fetched once; the second good call reuses the compiled module');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test(`${kind}: a package copy without osw.wasm names the path and wasmBinary; the bytes then work`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'osw-nowasm-'));
    try {
      cpSync(distDir, dir, { recursive: true, filter: (src) => !src.endsWith('.wasm') });
      const copy = join(dir, entry.endsWith('.cjs') ? 'index.cjs' : 'index.mjs');
      const { result, stderr } = await inChild(copy, `
        const bad = await tryLoad();
        const good = await createSampler({ wasmBinary: require('fs').readFileSync(${JSON.stringify(wasmPath)}) });
        const later = await createSampler();   // the compiled module is kept: no file needed
        return { bad, good: resizeOk(good), later: resizeOk(later) };`);
      assert.equal(result.bad, `Error: ${message(join(dir, 'osw.wasm'), 'no such file')}`);
      assert.equal(result.good, true);
      assert.equal(result.later, true);
      assert.equal(stderr, '');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

// loadModule() itself, the function each entry hands to makeApi: index.cjs compiled with
// one line added that exports it.
test('loadModule() gives a fresh instance, with its own memory, on every call, from the module compiled once', async () => {
  const { default: Module } = await import('node:module');
  const m = new Module(cjsEntry);
  m.filename = cjsEntry;
  m.paths = Module._nodeModulePaths(distDir);
  m._compile(`${readFileSync(cjsEntry, 'utf8')}\nmodule.exports.loadModule = loadModule;\n`, cjsEntry);
  const { loadModule } = m.exports;
  const dir = mkdtempSync(join(tmpdir(), 'osw-once-'));
  try {
    const copy = join(dir, 'osw.wasm');
    cpSync(wasmPath, copy);
    const a = await loadModule({ wasmUrl: copy });
    rmSync(copy);                                  // later calls must not need the file
    const b = await loadModule({ wasmUrl: copy });
    const c = await loadModule({});
    assert.notEqual(a, b);
    assert.notEqual(b, c);
    assert.notEqual(a.HEAPU8.buffer, b.HEAPU8.buffer, 'each instance has its own memory');
    a.HEAPU8[1000] = 7;
    assert.equal(b.HEAPU8[1000], 0);
    assert.equal(typeof c._osw_alloc, 'function');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the package exports its wasm as 'onnx-sampling-wasm/osw.wasm'", async () => {
  const { createRequire } = await import('node:module');
  // From the app the package is installed in (or, for the repository, by self-reference).
  const pkgDir = dirname(distDir);
  const from = process.env.OSW_PACKAGE ? join(pkgDir, '..', '..', 'package.json') : join(pkgDir, 'package.json');
  const resolved = createRequire(from).resolve('onnx-sampling-wasm/osw.wasm');
  assert.deepEqual(readFileSync(resolved), readFileSync(wasmPath));
});
