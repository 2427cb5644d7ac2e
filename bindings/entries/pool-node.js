// entries/pool-node.js -> dist/osw-mt-node.worker.js (CommonJS): the script of each worker of the threaded
// build's pool in Node, Deno and Bun (pool.js), started by the glue (loader-mt.js).
import { writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { oswNodeMtFactory } from '../glue-node.js';
import { oswServePool } from '../pool.js';

const post = (message, transfer) => parentPort.postMessage(message, transfer);
oswServePool({
  factory: oswNodeMtFactory(post),
  post,
  listen: (f) => parentPort.on('message', f),
  printErr: (text) => writeSync(2, `${text}\n`),
});
