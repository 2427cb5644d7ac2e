// entries/worker-node.js -> dist/worker-node.mjs and dist/worker-node.cjs: the worker of
// createSampler({ worker: true }) in Node, Deno and Bun (worker-main.js), with a synchronous
// sampler of its own (the whole API inside: the worker needs no other file of the package
// but the .wasm files).
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { makeApi } from '../api.js';
import { oswHere } from '../here-node.js';
import { nodeHost } from '../host-node.js';
import { oswServeWorker } from '../worker-main.js';

const { loadModule, compat } = nodeHost({ here: oswHere });
oswServeWorker(makeApi({ loadModule, compat, noWorker: 'this is the worker' }).createSampler, {
  post: (m, t) => parentPort.postMessage(m, t),
  listen: (f) => parentPort.on('message', f),
}, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
