// entries/worker-client-browser.js -> dist/worker-client.mjs: the client of
// createSampler({ worker: true }) in browsers (worker-client.js), imported by browser.mjs only
// then. It starts dist/worker.mjs in the static form bundlers follow to ship a worker.
import { oswBrowserPort, oswWorkerSampler } from '../worker-client.js';

export function createWorkerSampler(options, createSampler) {
  return oswWorkerSampler(options, createSampler,
    () => oswBrowserPort(new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' })));
}
