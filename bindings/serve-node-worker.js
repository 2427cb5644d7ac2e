// serve-node-worker.js: the worker of createSampler({ worker: true }) in Node, Deno and Bun
// (worker-main.js on a worker_threads port), with a synchronous sampler of its own. here(file):
// where the package's files are (entries/worker-node.js: beside the script; entries/
// worker-bun.js: as the Bun entry embedded them).
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { makeApi } from './api.js';
import { nodeHost } from './host-node.js';
import { oswServeWorker } from './worker-main.js';

export function oswServeNodeWorker(here) {
  const { loadModule, compat } = nodeHost({ here });
  oswServeWorker(makeApi({ loadModule, compat, noWorker: 'this is the worker' }).createSampler, {
    post: (m, t) => parentPort.postMessage(m, t),
    listen: (f) => parentPort.on('message', f),
  }, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
}
