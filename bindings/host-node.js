// host-node.js: the host of the Node entries (entries/node.js, entries/node-cjs.js), which
// Deno and Bun load too: files are read beside the entry (or where options say), threads run
// on worker_threads (the pool: dist/osw-mt-node.worker.js), and the worker API's worker is a
// worker_threads Worker of dist/worker-node.mjs (or .cjs).
//
// nodeHost({ here, workerFile, workerData }): here(file) is the path of a file of dist/
// (beside the entry, or where the Bun entry embedded it); workerFile the worker API's script
// there, started with workerData.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import createOswModule from '#glue/osw.mjs';
import { OSW_COMPAT_WASM as COMPAT_FIX, oswCompatCode } from './compat.js';
import { makeCompatHost } from './compat-loader.js';
import { oswNodeMtFactory } from './glue-node.js';
import { OSW_FIX, makeLoadModule, oswCompileBytes, oswCompileError, oswFetchAndCompile } from './loader.js';
import { oswReadError } from './permissions.js';
import { oswLoadThreaded } from './loader-mt.js';
import { oswNodePort, oswWorkerSampler } from './worker-client.js';

const isHttp = (url) => /^https?:/i.test(url);
const pathOf = (url) => (/^file:/i.test(url) ? fileURLToPath(url) : url);

function read(file, fix) {
  try {
    return readFileSync(file);
  } catch (e) {
    throw oswReadError(file, e, fix);
  }
}

export function nodeHost({ here, workerFile, workerData }) {
  const readAndCompile = (file) => oswCompileBytes(read(file, OSW_FIX), file);

  function findWasm(options) {
    if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option');
    if (options.wasmUrl !== undefined) {
      const url = String(options.wasmUrl);
      return isHttp(url) ? oswFetchAndCompile(url) : readAndCompile(pathOf(url));
    }
    return readAndCompile(here('osw.wasm'));
  }

  let mtFactory = null;  // the threaded glue, made on first use
  function loadMt(threads) {
    if (mtFactory === null) mtFactory = oswNodeMtFactory(() => { throw new Error('onnx-sampling-wasm: the main thread has no pool to post to'); });
    return oswLoadThreaded({
      threads, node: true, factory: mtFactory,
      mainScript: 'osw-mt.wasm',  // (the pool workers import the glue: nothing to load by name)
      workerScript: here('osw-mt-node.worker.js'),
      find: () => readAndCompile(here('osw-mt.wasm')),
    });
  }

  // osw-compat.wasm: read and compiled at once when a compat mode is first used, or as
  // loadCompat({ wasmUrl, wasmBinary }) says.
  function compatRead(file) {
    const bytes = read(file, COMPAT_FIX);
    try {
      return new WebAssembly.Module(bytes);
    } catch (e) {
      throw oswCompileError(file, e, COMPAT_FIX);
    }
  }
  function compatFindSync(shared) {
    return compatRead(here(shared ? 'osw-compat-mt.wasm' : 'osw-compat.wasm'));
  }
  function compatFind(options, shared) {
    if (options.wasmBinary !== undefined) return oswCompileBytes(options.wasmBinary, 'the wasmBinary option', '', COMPAT_FIX);
    if (options.wasmUrl !== undefined) {
      const url = String(options.wasmUrl);
      if (isHttp(url)) return oswFetchAndCompile(url, COMPAT_FIX);
      return Promise.resolve().then(() => compatRead(pathOf(url)));
    }
    return Promise.resolve().then(() => compatFindSync(shared));
  }
  const compatCode = oswCompatCode(compatFind, compatFindSync);

  return {
    loadModule: makeLoadModule({ createModule: createOswModule, findWasm, loadMt, threadsPossible: () => typeof SharedArrayBuffer === 'function' }),
    compat: makeCompatHost(() => compatCode, () => Promise.resolve(compatCode)),
    createWorkerSampler(options, createSampler) {
      const file = here(workerFile);
      return oswWorkerSampler(options, createSampler, () => oswNodePort(() => new Worker(file, { workerData }), file));
    },
  };
}
