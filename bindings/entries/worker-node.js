// entries/worker-node.js -> dist/worker-node.mjs and dist/worker-node.cjs: the worker of
// createSampler({ worker: true }) in Node, Deno and Bun, with the whole API inside: the worker
// needs no other file of the package but the .wasm files, found beside it.
import { oswHere } from '../here-node.js';
import { oswServeNodeWorker } from '../serve-node-worker.js';

oswServeNodeWorker(oswHere);
