// glue.mjs: the one step that edits Emscripten's output. emcc 3.1.6 writes three glues
// (build/osw.mjs, build/osw-mt.mjs, build/osw-mt-node.cjs); this module turns each into an
// ES module under build/glue/ that the package's own modules import (bindings/, bundled by
// scripts/build.mjs). Every edit is an exact text that must occur exactly once, so a
// different emcc fails the build here, naming the edit, instead of shipping a glue that was
// half edited.
//
// What the edits are for:
// - The package loads and compiles every .wasm itself (bindings/loader.js) and hands the
//   compiled module over through instantiateWasm, so the glue's own ways of finding its
//   files (import.meta.url, new URL(...)) go: a bundler sees only the package's references.
// - Code that this build can never run goes (the glue's own fetching, coders of types no
//   binding uses): it is what a browser downloads.
// - The threaded glues' pool workers run the package's own pool worker (bindings/pool.js),
//   which reports a failed load instead of leaving the glue waiting; the Node glue keeps its
//   worker_threads Worker to itself instead of making it a global.
// - The Node threaded glue (CommonJS) becomes a function of the few Node modules it needs
//   (oswMtNodeGlue(require, postMessage)), so it bundles into ES modules and CommonJS alike
//   and needs no require of its own (bindings/glue-node.js).
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

function edit(text, file, edits) {
  for (const [from, to] of edits) {
    const n = text.split(from).length - 1;
    if (n !== 1) throw new Error(`glue: expected "${from.slice(0, 120)}" once in build/${file}, found it ${n} times (not the output of emcc 3.1.6?)`);
    text = text.replace(from, () => to);
  }
  return text;
}

// A pool worker's error, while the pool loads, is the load's rejection (bindings/loader-mt.js,
// oswPoolWatch), not an exception thrown from the glue's handler (in Node, an uncaught one).
const WORKER_ON_ERROR = ['worker.onerror=(e=>{var message="worker sent an error!";',
  'worker.onerror=(e=>{if(Module["oswWorkerError"]&&Module["oswWorkerError"](e))return;var message="worker sent an error!";'];

function singleThreaded(text) {
  text = edit(text, 'osw.mjs', [
    ['var _scriptDir = import.meta.url;', 'var _scriptDir = undefined;'],
    ['new URL("osw.wasm",import.meta.url).toString()', '"osw.wasm"'],
    // The glue's own fetching and compiling is never called (instantiateWasm is always
    // given): without its one call the minifier drops it.
    ['}instantiateAsync().catch(readyPromiseReject);return{}}', '}return{}}'],
    // The one string type registered is std::string (bindings/embind.cpp).
    ['var stdStringIsUTF8=name==="std::string";', 'var stdStringIsUTF8=true;'],
    // No binding passes a 64-bit integer, so no signature has a 'j' (no WASM_BIGINT).
    ['function makeDynCaller(){if(signature.includes("j")){return getDynCaller(signature,rawFunction)}return getWasmTableEntry(rawFunction)}',
      'function makeDynCaller(){return getWasmTableEntry(rawFunction)}'],
    // (file system preloading, which this build has not: -sFILESYSTEM=0)
    ['Module["preloadedImages"]={};Module["preloadedAudios"]={};', ''],
  ]);
  // No binding takes a string (lastError returns one), so std::string's encoder into wasm
  // memory is never run: a stub that says so replaces it.
  const from = '"toWireType":function(destructors,value){if(value instanceof ArrayBuffer)';
  const to = '},"argPackAdvance":8,"readValueFromPointer":simpleReadValueFromPointer,destructorFunction:function(ptr){_free(ptr)}})}function __embind_register_void(';
  const a = text.indexOf(from), b = text.indexOf(to, a);
  if (a < 0 || text.indexOf(from, a + 1) >= 0 || b < 0)
    throw new Error("glue: build/osw.mjs's std::string registration is not the one of emcc 3.1.6");
  text = `${text.slice(0, a)}"toWireType":function(){throwBindingError("onnx-sampling-wasm: no binding of osw.wasm takes a string")}${text.slice(b + 1)}`;
  // bindings/embind.cpp registers only the types its bindings use; should another come back
  // (a binding with another type), the build says so.
  for (const name of ['__embind_register_std_wstring', '__embind_register_emval', 'init_emval', '__embind_register_memory_view'])
    if (text.includes(`function ${name}(`))
      throw new Error(`glue: build/osw.mjs has Embind's ${name} again: see bindings/embind.cpp, "Embind's builtin types"`);
  return text;
}

function browserThreaded(text) {
  return edit(text, 'osw-mt.mjs', [
    WORKER_ON_ERROR,
    ['var _scriptDir = import.meta.url;', 'var _scriptDir = undefined;'],
    ['new URL("osw-mt.wasm",import.meta.url).toString()', '"osw-mt.wasm"'],
    // Each pool worker is a module worker of the file that holds this glue (osw-mt.mjs,
    // named 'osw-pthread'): bindings/entries/mt-browser.js.
    ['if(!Module["locateFile"]){PThread.unusedWorkers.push(new Worker(new URL("osw-mt.worker.js",import.meta.url)));return}', ''],
    ['PThread.unusedWorkers.push(new Worker(pthreadMainJs))', 'PThread.unusedWorkers.push(new Worker(pthreadMainJs,{type:"module",name:"osw-pthread"}))'],
  ]);
}

function nodeThreaded(text) {
  text = edit(text, 'osw-mt-node.cjs', [
    WORKER_ON_ERROR,
    ['global.Worker=nodeWorkerThreads.Worker', 'var Worker=nodeWorkerThreads.Worker'],
    // CommonJS's export, replaced by the function's return below.
    ["if (typeof exports === 'object' && typeof module === 'object')\n  module.exports = createOswMtModule;\nelse if (typeof define === 'function' && define['amd'])\n  define([], function() { return createOswMtModule; });\nelse if (typeof exports === 'object')\n  exports[\"createOswMtModule\"] = createOswMtModule;", ''],
  ]);
  const required = new Set([...text.matchAll(/\brequire\("([^"]*)"\)/g)].map((m) => m[1]));
  for (const name of required)
    if (!['fs', 'path', 'worker_threads', 'perf_hooks'].includes(name))
      throw new Error(`glue: build/osw-mt-node.cjs requires "${name}", which bindings/glue-node.js does not provide`);
  if (/\bmodule\.exports\b|\bexports\[/.test(text))
    throw new Error('glue: build/osw-mt-node.cjs still exports by CommonJS after the edits');
  // (the glue's own file name and folder serve only to find files, which the loader does)
  return `export default function oswMtNodeGlue(require, postMessage) {\nvar __filename = '', __dirname = '';\n${text.trim()}\nreturn createOswMtModule;\n}\n`;
}

// Writes build/glue/{osw,osw-mt,osw-mt-node}.mjs from the emcc outputs in build; rewritten
// only when their content changes (so the bundler's inputs keep their times).
export function writeGlues(build) {
  const out = join(build, 'glue');
  mkdirSync(out, { recursive: true });
  const header = (from) => `// Generated by scripts/glue.mjs from build/${from} (emcc 3.1.6); do not edit.\n`;
  const glues = [
    ['osw.mjs', 'osw.mjs', singleThreaded],
    ['osw-mt.mjs', 'osw-mt.mjs', browserThreaded],
    ['osw-mt-node.cjs', 'osw-mt-node.mjs', nodeThreaded],
  ];
  for (const [from, to, fn] of glues) {
    const text = header(from) + fn(readFileSync(join(build, from), 'utf8')).trim() + '\n';
    if (/import\.meta/.test(text)) throw new Error(`glue: build/glue/${to} still refers to import.meta after the edits`);
    const path = join(out, to);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeFileSync(path, text);
  }
  return out;
}
