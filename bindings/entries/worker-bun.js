// entries/worker-bun.js -> dist/worker-bun.mjs: entries/worker-node.js for the Bun entry,
// which passes where it embedded the package's files (workerData.files).
import { workerData } from 'node:worker_threads';
import { oswServeNodeWorker } from '../serve-node-worker.js';

oswServeNodeWorker((file) => workerData.files[file]);
