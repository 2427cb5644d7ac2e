// entries/node.js -> dist/index.mjs (and, as CommonJS, dist/index.cjs): the package in
// Node, and in Deno and Bun, which load it too (package.json's "node" condition).
import { makeApi } from '../api.js';
import { OSW_NODE_WORKER, oswHere } from '../here-node.js';
import { nodeHost } from '../host-node.js';

const host = nodeHost({ here: oswHere, workerFile: OSW_NODE_WORKER });
const loadModule = host.loadModule;  // (tests/js/loader.test.mjs reaches it by this name)
const api = makeApi({ ...host, loadModule });
export const createSampler = api.createSampler;
export const TENSOR_TYPES = api.TENSOR_TYPES;
export default { createSampler, TENSOR_TYPES };
