// entries/bun.js -> dist/bun.mjs: the package in Bun (package.json's "bun" condition), the
// Node entry with its files imported as files, so that `bun build --compile` embeds them in
// the executable: the .wasm files, the pool workers' script (dist/osw-pool-bun.mjs) and the
// worker API's (dist/worker-bun.mjs), each an ES module that imports only Node's modules, as
// a worker embedded by Bun must be. Bun gives each import the file's path: an absolute one
// (bun run, and /$bunfs/... in an executable), or one relative to the bundle
// (bun build --outdir).
import { fileURLToPath } from 'node:url';
import compatMt from './osw-compat-mt.wasm' with { type: 'file' };
import compat from './osw-compat.wasm' with { type: 'file' };
import mt from './osw-mt.wasm' with { type: 'file' };
import pool from './osw-pool-bun.mjs' with { type: 'file' };
import wasm from './osw.wasm' with { type: 'file' };
import worker from './worker-bun.mjs' with { type: 'file' };
import { makeApi } from '../api.js';
import { nodeHost } from '../host-node.js';

const path = (p) => (/^\.\.?\//.test(p) ? fileURLToPath(new URL(p, import.meta.url)) : p);
// (named as host-node.js asks for them)
const files = {
  'osw.wasm': path(wasm), 'osw-mt.wasm': path(mt), 'osw-compat.wasm': path(compat), 'osw-compat-mt.wasm': path(compatMt),
  'osw-mt-node.worker.js': path(pool), 'worker-bun.mjs': path(worker),
};
const api = makeApi(nodeHost({ here: (file) => files[file], workerFile: 'worker-bun.mjs', workerData: { files } }));
export const createSampler = api.createSampler;
export const TENSOR_TYPES = api.TENSOR_TYPES;
export default { createSampler, TENSOR_TYPES };
