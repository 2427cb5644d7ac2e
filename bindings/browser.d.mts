// Declarations of dist/browser.mjs, for a direct import of it (a page without a bundler):
// those of the package (index.d.ts); TypeScript looks for browser.d.mts beside it.
import { createSampler, TENSOR_TYPES } from './index.js';
export * from './index.js';
declare const _default: { createSampler: typeof createSampler; TENSOR_TYPES: typeof TENSOR_TYPES };
export default _default;
