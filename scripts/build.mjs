// build.mjs: compiles the core with Emscripten (through CMake) and writes the package's
// files into dist/. Incremental: CMake rebuilds only what changed, and dist/ files are
// rewritten only when their content changes.
//
//   node scripts/build.mjs            the package builds (osw: glue + osw.wasm; osw-mt and
//                                     osw-mt-node: the threaded build) and dist/
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
const targets = ['osw', 'osw-mt', 'osw-mt-node', 'osw-compat', 'osw-compat-mt'];
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
copyIfChanged(join(build, 'osw-compat.wasm'), join(dist, 'osw-compat.wasm'));
copyIfChanged(join(build, 'osw-compat-mt.wasm'), join(dist, 'osw-compat-mt.wasm'));
// The threaded build's wasm is one file for both glues (the two links give the same bytes).
if (!readFileSync(join(build, 'osw-mt.wasm')).equals(readFileSync(join(build, 'osw-mt-node.wasm'))))
  throw new Error('build: build/osw-mt.wasm and build/osw-mt-node.wasm differ; dist/ ships one osw-mt.wasm for both glues');
copyIfChanged(join(build, 'osw-mt.wasm'), join(dist, 'osw-mt.wasm'));
// Files of earlier layouts (two wasm builds, separate glue files) must not linger in dist/.
for (const f of ['osw-node.cjs', 'osw-node.wasm', 'osw-web.mjs', 'osw-web.wasm']) rmSync(join(dist, f), { force: true });

// terser (a devDependency) minifies what a browser downloads (browser.mjs below); redone
// only when its source changed.
// privateProps: also shorten the property names that start with one underscore (the
// sampler's and its tensors' private state and methods, bindings/api.js), except the names
// in that list (underscoreNames()).
async function minifyModule(name, source, sourceMap, preamble, privateProps = null) {
  let minify;
  try {
    ({ minify } = await import('terser'));
  } catch {
    throw new Error('build: the devDependency terser is missing; run `npm ci` (npm test and npm run build do it)');
  }
  const mangle = privateProps
    ? { properties: { regex: /^_[A-Za-z]/, keep_quoted: true, reserved: privateProps } }
    : true;
  return minify({ [name]: source }, {
    module: true,
    compress: { passes: 2 },
    mangle,
    keep_classnames: true,
    // (the bundlers' magic comments on the dynamic import of the threaded glue stay)
    format: preamble ? { comments: /webpackIgnore|@vite-ignore/, preamble } : { comments: /webpackIgnore|@vite-ignore/ },
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
function editGlue(file, edits) {
  let glue = readFileSync(join(build, file), 'utf8');
  for (const [from, to] of edits) {
    const n = glue.split(from).length - 1;
    if (n !== 1) throw new Error(`build: expected "${from}" once in build/${file}, found it ${n} times (a different emcc?)`);
    glue = glue.replace(from, () => to);
  }
  return glue;
}
function glueFactory() {
  let glue = editGlue('osw.mjs', [
    ['var _scriptDir = import.meta.url;', 'var _scriptDir = undefined;'],
    ['new URL("osw.wasm",import.meta.url).toString()', '"osw.wasm"'],
    ['export default createOswModule;', ''],
    // The entries always hand the compiled wasm over through instantiateWasm (loader.js), so
    // the glue's own fetching and compiling is dead code: without its one call, the minifier
    // drops it (about 0.4 kB of browser.mjs gzipped, which the threads option uses).
    ['}instantiateAsync().catch(readyPromiseReject);return{}}', '}return{}}'],
    // The one string type registered is std::string (bindings/embind.cpp's start-up
    // function), so the decoder's branch for std::basic_string<unsigned char> goes.
    ['var stdStringIsUTF8=name==="std::string";', 'var stdStringIsUTF8=true;'],
    // No binding passes a 64-bit integer (embind.cpp), so no invoker's signature has a 'j'
    // and none goes through the legacy dynCall path (the build has no WASM_BIGINT).
    ['function makeDynCaller(){if(signature.includes("j")){return getDynCaller(signature,rawFunction)}return getWasmTableEntry(rawFunction)}',
      'function makeDynCaller(){return getWasmTableEntry(rawFunction)}'],
    // (the file system's preloading, which this build has not: -sFILESYSTEM=0)
    ['Module["preloadedImages"]={};Module["preloadedAudios"]={};', ''],
  ]);
  // No binding takes a string (lastError returns one: bindings/embind.cpp), so std::string's
  // encoder into wasm memory (its toWireType, with UTF-8's length and encoding, which nothing
  // else calls) is never run: a stub that says so replaces it (0.4 kB of browser.mjs gzipped).
  {
    const from = '"toWireType":function(destructors,value){if(value instanceof ArrayBuffer)';
    const to = '},"argPackAdvance":8,"readValueFromPointer":simpleReadValueFromPointer,destructorFunction:function(ptr){_free(ptr)}})}function __embind_register_void(';
    const a = glue.indexOf(from), b = glue.indexOf(to, a);
    if (a < 0 || glue.indexOf(from, a + 1) >= 0 || b < 0)
      throw new Error("build: build/osw.mjs's std::string registration is not the one of emcc 3.1.6 (see scripts/build.mjs, glueFactory)");
    glue = `${glue.slice(0, a)}"toWireType":function(){throwBindingError("onnx-sampling-wasm: no binding of osw.wasm takes a string")}${glue.slice(b + 1)}`;
  }
  // Embind's type registrations: bindings/embind.cpp registers only the types its bindings
  // use, so the glue carries no coder for the others (std::wstring's UTF-16/UTF-32 coders,
  // emscripten::val's handle table, typed memory views: 0.76 kB of browser.mjs gzipped).
  // Should one come back (a binding with another type), the build says so.
  for (const name of ['__embind_register_std_wstring', '__embind_register_emval', 'init_emval', '__embind_register_memory_view'])
    if (glue.includes(`function ${name}(`))
      throw new Error(`build: build/osw.mjs has Embind's ${name} again: see bindings/embind.cpp, "Embind's builtin types"`);
  if (/import\.meta|^\s*(export|import)\b|\brequire\(/m.test(glue))
    throw new Error('build: build/osw.mjs still refers to import.meta, import/export or require after the edits');
  return `// The Emscripten glue (emcc 3.1.6), without its own wasm loading.\n${glue.trim()}\n`;
}
const glue = glueFactory();
// (with the loader of osw-compat.wasm, the compat modes' module: bindings/compat-loader.js)
const loader = readFileSync(join(root, 'bindings', 'loader.js'), 'utf8') + '\n' +
  readFileSync(join(root, 'bindings', 'compat-loader.js'), 'utf8');

// The threaded build's files, fetched (or required) only by createSampler({ threads }) where
// shared memory exists: its wasm (above), and per host its glue.
// Browsers: one ES module, osw-mt.mjs: the glue, bindings/loader-mt.js, and the pool workers'
// script. Each pool worker is a module worker running this same file (named 'osw-pthread'),
// which then does what Emscripten's worker script does (build/osw-mt.worker.js, embedded), so
// there is no third file for a bundler to miss or inline (Vite inlines small assets as data:
// URLs, where a worker has an opaque origin and cannot share memory). The entries hand the glue
// its wasm, so its own ways of finding files (import.meta.url) are taken out: a bundler sees
// only browser.mjs's new URL(...) references.
const banner = '// onnx-sampling-wasm: generated by scripts/build.mjs from bindings/*.js and the Emscripten glue; do not edit.\n';
const loaderMt = readFileSync(join(root, 'bindings', 'loader-mt.js'), 'utf8');
const workerScript = readFileSync(join(build, 'osw-mt.worker.js'), 'utf8').trim();
if (/^\s*(import|export)\b/m.test(workerScript)) throw new Error('build: build/osw-mt.worker.js has import/export statements');
// A pool worker's error, while the pool loads, is the load's rejection (loader-mt.js,
// oswPoolWatch), not an exception thrown from the glue's handler (in Node, an uncaught one).
const workerOnError = ['worker.onerror=(e=>{var message="worker sent an error!";',
  'worker.onerror=(e=>{if(Module["oswWorkerError"]&&Module["oswWorkerError"](e))return;var message="worker sent an error!";'];
const mtSource = `${editGlue('osw-mt.mjs', [
  workerOnError,
  ['new URL("osw-mt.wasm",import.meta.url).toString()', '"osw-mt.wasm"'],
  ['if(!Module["locateFile"]){PThread.unusedWorkers.push(new Worker(new URL("osw-mt.worker.js",import.meta.url)));return}', ''],
  ['PThread.unusedWorkers.push(new Worker(pthreadMainJs))', 'PThread.unusedWorkers.push(new Worker(pthreadMainJs,{type:"module",name:"osw-pthread"}))'],
]).trim()}
${loaderMt}
// browser.mjs calls this (a pool worker imports this file for its default export, the glue).
export function oswLoad(h) {
  return oswLoadThreaded({ ...h, factory: createOswMtModule, workerScript: h.mainScript });
}

// In a pool worker (a module worker of this file named 'osw-pthread', see above): Emscripten's
// worker script (emcc 3.1.6, build/osw-mt.worker.js).
// Its load (the import of this file, then the glue) failing is a rejection nobody handles, and
// the page would wait for this worker forever: it reports it (loader-mt.js, oswPoolWatch).
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope && self.name === 'osw-pthread') (function () {
${workerScript}
self.addEventListener('unhandledrejection', (ev) => {
  const r = ev.reason;
  postMessage({ cmd: 'oswFailed', text: String(r && r.message !== undefined ? r.message : r) });
});
})();
`;
// Minified like browser.mjs (terser), redone only when its source changed: the source is kept
// as a stamp, written before the output, so an output older than its stamp (another
// OSW_DIST_DIR built from this build dir since) is made again.
const mtStamp = join(build, 'osw-mt.source.mjs'), mtOut = join(dist, 'osw-mt.mjs');
if (!existsSync(mtOut) || !existsSync(mtStamp) || readFileSync(mtStamp, 'utf8') !== mtSource ||
    statSync(mtOut).mtimeMs < statSync(mtStamp).mtimeMs) {
  const out = await minifyModule('osw-mt.source.mjs', mtSource, false, banner.trim());
  writeFileSync(mtStamp, mtSource);
  writeFileSync(mtOut, out.code + '\n');
}
rmSync(join(dist, 'osw-mt.worker.js'), { force: true });  // of an earlier layout
// Node: the CommonJS glue; its worker_threads Worker stays a local of the glue instead of
// becoming a global (globalThis.Worker would tell other code it runs in a browser).
writeIfChanged(join(dist, 'osw-mt-node.cjs'), editGlue('osw-mt-node.cjs', [
  workerOnError,
  ['global.Worker=nodeWorkerThreads.Worker', 'var Worker=nodeWorkerThreads.Worker'],
]));
copyIfChanged(join(build, 'osw-mt-node.worker.js'), join(dist, 'osw-mt-node.worker.js'));

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
const api = ['api.js', 'drawables.js', 'image.js']
  .filter((f) => existsSync(join(root, 'bindings', f)))
  .map((f) => readFileSync(join(root, 'bindings', f), 'utf8'))
  .join('\n');
// createSampler({ worker: true }): the client (in the Node entries, and in
// worker-client.mjs, which browser.mjs imports only then) and what runs in the worker.
const workerClient = readFileSync(join(root, 'bindings', 'worker-client.js'), 'utf8');
// The compat modes' JavaScript (bindings/compat.js): inline in the Node entries and the browser
// worker; browsers fetch it as dist/compat.mjs (below) only when a sampler loads the compat module.
const compatCode = readFileSync(join(root, 'bindings', 'compat.js'), 'utf8');
const inlineCompat = (find, findSync) => `${compatCode}
const oswCompatInline = oswCompatCode(${find}, ${findSync});
function oswCompatCodeNow() { return oswCompatInline; }
function oswCompatCodeLoad() { return Promise.resolve(oswCompatInline); }
`;
// osw-compat.wasm in a browser: beside the file that runs this (compat.mjs or worker.mjs).
// (Each file named in its own static new URL(), the form bundlers follow to ship it.)
const browserCompatFind = `function oswCompatFind(options, shared) {
  if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option', '', OSW_COMPAT_FIX);
  if (options.wasmUrl !== undefined) return oswFetchAndCompile(String(options.wasmUrl), OSW_COMPAT_FIX);
  const url = shared ? new URL('./osw-compat-mt.wasm', import.meta.url) : new URL('./osw-compat.wasm', import.meta.url);
  return oswFetchAndCompile(url.href, OSW_COMPAT_FIX);
}
`;
const workerMain = readFileSync(join(root, 'bindings', 'worker-main.js'), 'utf8');

// Node entries: findWasm reads osw.wasm beside the entry (or options.wasmUrl: a path, a
// file: URL, or an http(s) URL fetched once), or takes options.wasmBinary. A missing file
// names its path and the options that fix it.
const nodeFindWasm = (defaultPath, mtDefaultPath) => `
const OSW_NODE = true;
function oswReadAndCompile(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw oswLoadError(file, e && e.code === 'ENOENT' ? 'no such file' : \`it cannot be read (\${e && e.message})\`, e);
  }
  return oswCompileBytes(bytes, file);
}
function findWasm(options) {
  if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option');
  if (options.wasmUrl !== undefined) {
    const url = String(options.wasmUrl);
    if (/^https?:/i.test(url)) return oswFetchAndCompile(url);
    return oswReadAndCompile(/^file:/i.test(url) ? fileURLToPath(url) : url);
  }
  return oswReadAndCompile(${defaultPath});
}
// osw-compat.wasm (bindings/compat-loader.js): beside the entry, read at once when a compat
// mode is first used, or as loadCompat({ wasmUrl, wasmBinary }) says.
function oswCompatFind(options, shared) {
  if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option', '', OSW_COMPAT_FIX);
  if (options.wasmUrl !== undefined) {
    const url = String(options.wasmUrl);
    if (/^https?:/i.test(url)) return oswFetchAndCompile(url, OSW_COMPAT_FIX);
    return Promise.resolve().then(() => oswCompatRead(/^file:/i.test(url) ? fileURLToPath(url) : url));
  }
  return Promise.resolve().then(() => oswCompatFindSync(shared));
}
function oswCompatFindSync(shared) {
  return oswCompatRead(shared ? ${defaultPath.replace('OSW_WASM_FILE', "'osw-compat-mt.wasm'")} : ${defaultPath.replace('OSW_WASM_FILE', "'osw-compat.wasm'")});
}
function oswCompatRead(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw oswLoadError(file, e && e.code === 'ENOENT' ? 'no such file' : \`it cannot be read (\${e && e.message})\`, e, OSW_COMPAT_FIX);
  }
  try {
    return new WebAssembly.Module(bytes);
  } catch (e) {
    throw oswLoadError(file, \`it does not compile (\${e && e.message})\`, e, OSW_COMPAT_FIX);
  }
}
function oswLoadMt(threads) {
  const mainScript = ${mtDefaultPath.replace('OSW_MT_WASM_FILE', "'osw-mt-node.cjs'")};
  return oswLoadThreaded({
    threads, node: true, mainScript, factory: oswRequire(mainScript),
    workerScript: ${mtDefaultPath.replace('OSW_MT_WASM_FILE', "'osw-mt-node.worker.js'")},
    find: () => oswReadAndCompile(${mtDefaultPath.replace('OSW_MT_WASM_FILE', "'osw-mt.wasm'")}),
  });
}
`;

// Node, CommonJS.
writeIfChanged(join(dist, 'index.cjs'), `${banner}'use strict';
const { readFileSync } = require('fs');
const { join } = require('path');
const { fileURLToPath } = require('url');

${glue}
${loader}${loaderMt}${nodeFindWasm('join(__dirname, OSW_WASM_FILE)', 'join(__dirname, OSW_MT_WASM_FILE)')}
const oswRequire = require;  // the threaded build's glue, dist/osw-mt-node.cjs, on first use
${inlineCompat('oswCompatFind', 'oswCompatFindSync')}
${api}
${workerClient}
function oswCreateWorkerSampler(o, cs) {
  const file = join(__dirname, 'worker-node.cjs');
  return oswWorkerSampler(o, cs, () => oswNodePort(() => new (require('worker_threads').Worker)(file), file));
}
const api = makeApi(loadModule);
module.exports = { createSampler: api.createSampler, TENSOR_TYPES: api.TENSOR_TYPES };
`);
// The worker of createSampler({ worker: true }) in Node: a worker_threads script beside the
// entry, with a synchronous sampler of that entry.
const nodeWorker = (load) => `${banner}${load}
${workerMain}
oswServeWorker(createSampler, { post: (m, t) => parentPort.postMessage(m, t), listen: (f) => parentPort.on('message', f) },
  typeof availableParallelism === 'function' ? availableParallelism() : cpus().length);
`;
writeIfChanged(join(dist, 'worker-node.cjs'), nodeWorker(`'use strict';
const { parentPort } = require('worker_threads');
const { availableParallelism, cpus } = require('os');
const { createSampler } = require('./index.cjs');`));
writeIfChanged(join(dist, 'worker-node.mjs'), nodeWorker(`import { parentPort } from 'node:worker_threads';
import os from 'node:os';
import { createSampler } from './index.mjs';
const { availableParallelism, cpus } = os;`));

// Node, ES module: its own copy, with no require (an ESM bundle for Node keeps it as is).
writeIfChanged(join(dist, 'index.mjs'), `${banner}import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker as OswNodeWorker } from 'node:worker_threads';

${glue}
${loader}
// Beside this file; an ESM source bundled into CommonJS (esbuild --format=cjs) has no
// import.meta.url, but __dirname.
function oswHere(file) {
  if (import.meta.url) return fileURLToPath(new URL('./' + file, import.meta.url));
  if (typeof __dirname === 'string') return join(__dirname, file);
  throw oswLoadError(file, 'this copy of onnx-sampling-wasm has neither import.meta.url nor __dirname to find it by');
}
${loaderMt}${nodeFindWasm('oswHere(OSW_WASM_FILE)', 'oswHere(OSW_MT_WASM_FILE)')}
// The threaded build's glue (dist/osw-mt-node.cjs, CommonJS), required on first use.
const oswRequire = (file) => createRequire(file)(file);
${inlineCompat('oswCompatFind', 'oswCompatFindSync')}
${api}
${workerClient}
function oswCreateWorkerSampler(o, cs) {
  const file = import.meta.url ? new URL('./worker-node.mjs', import.meta.url) : join(__dirname, 'worker-node.mjs');
  return oswWorkerSampler(o, cs, () => oswNodePort(() => new OswNodeWorker(file), file instanceof URL ? fileURLToPath(file) : file));
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
// (findWasm and the threaded build's loader: in browser.mjs and in worker.mjs.)
const browserFindWasm = `const OSW_NODE = false;
function findWasm(options) {
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
// The threaded build (fetched only when threads are possible and asked for): its wasm and its
// glue (an ES module, imported here and run by every pool worker), each a
// new URL(..., import.meta.url) that bundlers follow and copy.
function oswLoadMt(threads) {
  const mainScript = new URL('./osw-mt.mjs', import.meta.url).href;
  const wasm = new URL('./osw-mt.wasm', import.meta.url).href;
  return import(/* webpackIgnore: true */ /* @vite-ignore */ mainScript).then(
    (m) => m.oswLoad({ threads, mainScript, find: () => oswFetchAndCompile(wasm) }),
    (e) => { throw oswLoadError(mainScript, 'it did not import (threads)', e); });
}
`;
const browserSource = `${glue}
${loader}
${browserFindWasm}
// The compat modes' JavaScript: dist/compat.mjs, imported by the first sampler.loadCompat().
let oswCompatLoaded = null;
function oswCompatCodeNow() { return oswCompatLoaded; }
function oswCompatCodeLoad() {
  return import('./compat.mjs').then((m) => (oswCompatLoaded = m.oswCompatMake(oswFetchAndCompile, oswCompileBytes)));
}
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
// Its private property names are shortened (0.13 kB gzipped), all but the names with an
// underscore that the Emscripten glue (the wasm exports: _osw_*, _malloc, ...) and the files
// minified on their own that reach into the same objects (compat.mjs: sampler._io, _M;
// osw-mt.mjs; worker-client.mjs) write, as a property or not. (The list is part of the stamp:
// a change to one of those files makes browser.mjs again.)
function underscoreNames(sources) {
  const names = new Set();
  for (const s of sources) for (const m of s.matchAll(/\b_[A-Za-z][A-Za-z0-9_$]*/g)) names.add(m[0]);
  return [...names].sort();
}
// (and sampler._M, the module instance, which the browser tests read its heap's use from)
const browserKeep = underscoreNames([glue, compatCode, loaderMt, workerClient, '_M']);
await minifyIfChanged(`${browserSource}\n// kept: ${browserKeep.join(' ')}\n`, 'browser.mjs', join(build, 'browser.source.mjs'), async () => {
  const out = await minifyModule('browser.source.mjs', browserSource,
    { filename: 'browser.mjs', url: 'browser.mjs.map', includeSources: true }, banner.trim(), browserKeep);
  writeFileSync(join(dist, 'browser.mjs'), out.code + '\n');
  writeFileSync(join(dist, 'browser.mjs.map'), out.map);
});

// createSampler({ worker: true }) in browsers: worker-client.mjs starts worker.mjs (the whole
// API and worker-main.js) with the static form bundlers follow to ship a worker.
const workerClientSource = `${readFileSync(join(root, 'bindings', 'drawables.js'), 'utf8')}
${workerClient}
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
${browserCompatFind}
${inlineCompat('oswCompatFind', 'null')}
${api}
${workerMain}
oswServeWorker(makeApi(loadModule).createSampler, {
  post: (m, t) => self.postMessage(m, t),
  listen: (f) => self.addEventListener('message', (e) => f(e.data)),
}, self.navigator && self.navigator.hardwareConcurrency);
`;
await minifyIfChanged(workerSource, 'worker.mjs', join(build, 'worker.source.mjs'), async (source) => {
  const out = await minifyModule('worker.source.mjs', source, false, banner.trim());
  writeFileSync(join(dist, 'worker.mjs'), out.code + '\n');
});

// dist/compat.mjs: the compat modes' JavaScript for browser.mjs (see oswCompatCodeLoad there),
// finding osw-compat.wasm beside itself with the loader functions browser.mjs hands it.
const compatSource = `${compatCode}
export function oswCompatMake(oswFetchAndCompile, oswCompileBytes) {
  ${browserCompatFind.trim()}
  return oswCompatCode(oswCompatFind, null);
}
`;
await minifyIfChanged(compatSource, 'compat.mjs', join(build, 'compat.source.mjs'), async (source) => {
  const out = await minifyModule('compat.source.mjs', source, false, banner.trim());
  writeFileSync(join(dist, 'compat.mjs'), out.code + '\n');
});

console.log('build: dist/ is up to date');
