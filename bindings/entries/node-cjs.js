// entries/node-cjs.js -> dist/index.cjs: entries/node.js for require(), whose exports are
// createSampler and TENSOR_TYPES alone.
export { createSampler, TENSOR_TYPES } from './node.js';
