// build.mjs: compiles the core with Emscripten (through CMake) and writes the package's
// files into dist/. Incremental: CMake rebuilds only what changed, and dist/ files are
// rewritten only when their content changes.
//
//   node scripts/build.mjs            the package build (osw: glue + osw.wasm) and dist/
//   node scripts/build.mjs --tests    also the Catch2 test program build/osw-tests.js
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// OSW_BUILD_DIR / OSW_DIST_DIR let a second checkout or a parallel job build elsewhere.
const build = process.env.OSW_BUILD_DIR || join(root, 'build');
const dist = process.env.OSW_DIST_DIR || join(root, 'dist');
const withTests = process.argv.includes('--tests');

// emcc runs node for its JS optimizer and needs Debian's acorn (DEVELOPERS.md).
const env = { ...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };

function run(cmd, args) {
  execFileSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
}

if (!existsSync(join(build, 'CMakeCache.txt'))) {
  run('emcmake', ['cmake', '-S', '.', '-B', build, '-DCMAKE_BUILD_TYPE=Release']);
} else if (statSync(join(root, 'CMakeLists.txt')).mtimeMs > statSync(join(build, 'Makefile')).mtimeMs) {
  // Make resolves --target names before it would notice an edited CMakeLists.txt, so a
  // renamed target needs the build system regenerated first.
  run('cmake', ['-S', '.', '-B', build]);
}
const targets = ['osw'];
if (withTests) targets.push('osw-tests');
run('cmake', ['--build', build, '--parallel', '2', '--target', ...targets]);

mkdirSync(dist, { recursive: true });

function writeIfChanged(path, content) {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return;
  writeFileSync(path, content);
}
function copyIfChanged(from, to) {
  if (existsSync(to) && statSync(to).mtimeMs >= statSync(from).mtimeMs &&
      readFileSync(to).equals(readFileSync(from))) return;
  copyFileSync(from, to);
}

copyIfChanged(join(build, 'osw.wasm'), join(dist, 'osw.wasm'));
// Files of earlier layouts (two wasm builds, separate glue files) must not linger in dist/.
for (const f of ['osw-node.cjs', 'osw-node.wasm', 'osw-web.mjs', 'osw-web.wasm']) rmSync(join(dist, f), { force: true });

// terser (a devDependency) minifies what a browser downloads (browser.mjs below); redone
// only when its source changed.
async function minifyModule(name, source, sourceMap, preamble) {
  let minify;
  try {
    ({ minify } = await import('terser'));
  } catch {
    throw new Error('build: the devDependency terser is missing; run `npm ci` (npm test and npm run build do it)');
  }
  return minify({ [name]: source }, {
    module: true,
    compress: { passes: 2 },
    mangle: true,
    keep_classnames: true,
    format: preamble ? { comments: false, preamble } : { comments: false },
    sourceMap,
  });
}
async function minifyIfChanged(source, name, stamp, write) {
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === source) return;
  await write(source);
  writeFileSync(stamp, source);
}

// The Emscripten glue (build/osw.mjs, an ES module of emcc 3.1.6 built for web/worker) is
// embedded in every entry, so one osw.wasm serves Node and browsers. Its two references to
// import.meta.url (where the glue would look for the wasm itself) and its export are taken
// out: the entries compile the wasm and hand it over (bindings/loader.js), and bundlers see
// only the entries' own `new URL('./osw.wasm', import.meta.url)`.
function glueFactory() {
  let glue = readFileSync(join(build, 'osw.mjs'), 'utf8');
  const edits = [
    ['var _scriptDir = import.meta.url;', 'var _scriptDir = undefined;'],
    ['new URL("osw.wasm",import.meta.url).toString()', '"osw.wasm"'],
    ['export default createOswModule;', ''],
  ];
  for (const [from, to] of edits) {
    const n = glue.split(from).length - 1;
    if (n !== 1) throw new Error(`build: expected "${from}" once in build/osw.mjs, found it ${n} times (a different emcc?)`);
    glue = glue.replace(from, () => to);
  }
  if (/import\.meta|^\s*(export|import)\b|\brequire\(/m.test(glue))
    throw new Error('build: build/osw.mjs still refers to import.meta, import/export or require after the edits');
  return `// The Emscripten glue (emcc 3.1.6), without its own wasm loading.\n${glue.trim()}\n`;
}
const glue = glueFactory();
const loader = readFileSync(join(root, 'bindings', 'loader.js'), 'utf8');

copyIfChanged(join(root, 'bindings', 'index.d.ts'), join(dist, 'index.d.ts'));
copyIfChanged(join(root, 'bindings', 'image.d.ts'), join(dist, 'image.d.ts'));
// Types for a direct import of dist/browser.mjs (a page without a bundler); TypeScript looks
// for browser.d.mts beside it.
writeIfChanged(join(dist, 'browser.d.mts'), `// Declarations of browser.mjs: those of the package (index.d.ts).
import { createSampler, TENSOR_TYPES } from './index.js';
export * from './index.js';
declare const _default: { createSampler: typeof createSampler; TENSOR_TYPES: typeof TENSOR_TYPES };
export default _default;
`);

// The JS layer: api.js, then the optional image helpers (bindings/image.js), which api.js
// installs on the Sampler class when present.
const api = ['api.js', 'image.js']
  .filter((f) => existsSync(join(root, 'bindings', f)))
  .map((f) => readFileSync(join(root, 'bindings', f), 'utf8'))
  .join('\n');
// createSampler({ worker: true }): the client (in the Node entries, and in
// worker-client.mjs, which browser.mjs imports only then) and what runs in the worker.
const workerClient = readFileSync(join(root, 'bindings', 'worker-client.js'), 'utf8');
const workerMain = readFileSync(join(root, 'bindings', 'worker-main.js'), 'utf8');
const banner = '// onnx-sampling-wasm: generated by scripts/build.mjs from bindings/*.js and the Emscripten glue; do not edit.\n';

// Node entries: findWasm reads osw.wasm beside the entry (or options.wasmUrl: a path, a
// file: URL, or an http(s) URL fetched once), or takes options.wasmBinary. A missing file
// names its path and the options that fix it.
const nodeFindWasm = (defaultPath) => `
function findWasm(options) {
  if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option');
  let file;
  if (options.wasmUrl !== undefined) {
    const url = String(options.wasmUrl);
    if (/^https?:/i.test(url)) return oswFetchAndCompile(url);
    file = /^file:/i.test(url) ? fileURLToPath(url) : url;
  } else {
    file = ${defaultPath};
  }
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw oswLoadError(file, e && e.code === 'ENOENT' ? 'no such file' : \`it cannot be read (\${e && e.message})\`, e);
  }
  return oswCompileBytes(bytes, file);
}
`;

// Node, CommonJS.
writeIfChanged(join(dist, 'index.cjs'), `${banner}'use strict';
const { readFileSync } = require('fs');
const { join } = require('path');
const { fileURLToPath } = require('url');

${glue}
${loader}${nodeFindWasm("join(__dirname, OSW_WASM_FILE)")}
${api}
${workerClient}
function oswCreateWorkerSampler(o, cs) {
  return oswWorkerSampler(o, cs, () => oswNodePort(new (require('worker_threads').Worker)(join(__dirname, 'worker-node.cjs'))));
}
const api = makeApi(loadModule);
module.exports = { createSampler: api.createSampler, TENSOR_TYPES: api.TENSOR_TYPES };
`);
// The worker of createSampler({ worker: true }) in Node: a worker_threads script beside the
// entry, with a synchronous sampler of that entry.
const nodeWorker = (load) => `${banner}${load}
${workerMain}
oswServeWorker(createSampler, { post: (m, t) => parentPort.postMessage(m, t), listen: (f) => parentPort.on('message', f) });
`;
writeIfChanged(join(dist, 'worker-node.cjs'), nodeWorker(`'use strict';
const { parentPort } = require('worker_threads');
const { createSampler } = require('./index.cjs');`));
writeIfChanged(join(dist, 'worker-node.mjs'), nodeWorker(`import { parentPort } from 'node:worker_threads';
import { createSampler } from './index.mjs';`));

// Node, ES module: its own copy, with no require (an ESM bundle for Node keeps it as is).
writeIfChanged(join(dist, 'index.mjs'), `${banner}import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker as OswNodeWorker } from 'node:worker_threads';

${glue}
${loader}
// Beside this file; an ESM source bundled into CommonJS (esbuild --format=cjs) has no
// import.meta.url, but __dirname.
function defaultWasmPath() {
  if (import.meta.url) return fileURLToPath(new URL('./osw.wasm', import.meta.url));
  if (typeof __dirname === 'string') return join(__dirname, OSW_WASM_FILE);
  throw oswLoadError(OSW_WASM_FILE, 'this copy of onnx-sampling-wasm has neither import.meta.url nor __dirname to find it by');
}
${nodeFindWasm('defaultWasmPath()')}
${api}
${workerClient}
function oswCreateWorkerSampler(o, cs) {
  const file = import.meta.url ? new URL('./worker-node.mjs', import.meta.url) : join(__dirname, 'worker-node.mjs');
  return oswWorkerSampler(o, cs, () => oswNodePort(new OswNodeWorker(file)));
}
const api = makeApi(loadModule);
export const createSampler = api.createSampler;
export const TENSOR_TYPES = api.TENSOR_TYPES;
export default { createSampler, TENSOR_TYPES };
`);

// Browsers and workers: an ES module. The wasm URL is written as new URL(..., import.meta.url)
// so that bundlers find and copy the file; options.wasmUrl or options.wasmBinary override it.
// This is the file a page downloads, so it is minified (terser, a devDependency), with a
// source map beside it (browser.mjs.map, the readable source) for debugging.
const browserFindWasm = `function findWasm(options) {
  if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option');
  if (options.wasmUrl !== undefined) return oswFetchAndCompile(String(options.wasmUrl));
  let url;
  try {
    url = new URL('./osw.wasm', import.meta.url).href;
  } catch (e) {
    throw oswLoadError(OSW_WASM_FILE, 'this copy of onnx-sampling-wasm has no import.meta.url to find it by (bundled into a classic script?)', e);
  }
  return oswFetchAndCompile(url);
}
`;
const browserSource = `${glue}
${loader}
${browserFindWasm}
${api}
// createSampler({ worker }) loads its code only when asked for.
function oswCreateWorkerSampler(o, cs) {
  return import('./worker-client.mjs').then((m) => m.createWorkerSampler(o, cs));
}
const api = makeApi(loadModule);
export const createSampler = api.createSampler;
export const TENSOR_TYPES = api.TENSOR_TYPES;
export default { createSampler, TENSOR_TYPES };
`;
await minifyIfChanged(browserSource, 'browser.mjs', join(build, 'browser.source.mjs'), async (source) => {
  const out = await minifyModule('browser.source.mjs', source,
    { filename: 'browser.mjs', url: 'browser.mjs.map', includeSources: true }, banner.trim());
  writeFileSync(join(dist, 'browser.mjs'), out.code + '\n');
  writeFileSync(join(dist, 'browser.mjs.map'), out.map);
});

// createSampler({ worker: true }) in browsers: worker-client.mjs starts worker.mjs (the whole
// API and worker-main.js) with the static form bundlers follow to ship a worker.
const workerClientSource = `${workerClient}
export function createWorkerSampler(o, cs) {
  return oswWorkerSampler(o, cs, () => oswBrowserPort(new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' })));
}
`;
await minifyIfChanged(workerClientSource, 'worker-client.mjs', join(build, 'worker-client.source.mjs'), async (source) => {
  const out = await minifyModule('worker-client.source.mjs', source, false, banner.trim());
  writeFileSync(join(dist, 'worker-client.mjs'), out.code + '\n');
});
const workerSource = `${glue}
${loader}
${browserFindWasm}
${api}
${workerMain}
oswServeWorker(makeApi(loadModule).createSampler, {
  post: (m, t) => self.postMessage(m, t),
  listen: (f) => self.addEventListener('message', (e) => f(e.data)),
});
`;
await minifyIfChanged(workerSource, 'worker.mjs', join(build, 'worker.source.mjs'), async (source) => {
  const out = await minifyModule('worker.source.mjs', source, false, banner.trim());
  writeFileSync(join(dist, 'worker.mjs'), out.code + '\n');
});

console.log('build: dist/ is up to date');
