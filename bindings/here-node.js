// here-node.js: where the Node entries find the files of dist/ (the .wasm files, the
// workers' scripts): beside the file that runs, which is the entry itself or the bundle it
// was bundled into. An ES module bundled into CommonJS (esbuild --format=cjs) has no
// import.meta.url, but __dirname.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { oswLoadError } from './loader.js';

export function oswHere(file) {
  if (import.meta.url) return fileURLToPath(new URL(`./${file}`, import.meta.url));
  if (typeof __dirname === 'string') return join(__dirname, file);
  throw oswLoadError(file, 'this copy of onnx-sampling-wasm has neither import.meta.url nor __dirname to find it by');
}

// The script of the worker API's worker: its CommonJS copy where this file runs as CommonJS.
export const OSW_NODE_WORKER = import.meta.url ? 'worker-node.mjs' : 'worker-node.cjs';
