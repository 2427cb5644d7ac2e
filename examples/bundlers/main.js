// A user's browser app: the package from npm, bundled (see package.json for each bundler).
import { createSampler } from 'onnx-sampling-wasm';

const out = document.getElementById('out');

async function main(options) {
  const sampler = await createSampler(options);
  const x = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) };
  const y = sampler.resize(x, { sizes: [1, 1, 4, 4], mode: 'linear' });
  out.textContent = `resize 2x2 -> 4x4 (linear): ${Array.from(y.data).join(' ')}`;
  document.body.dataset.result = JSON.stringify({ dims: y.dims, data: Array.from(y.data) });
  document.body.dataset.status = 'ok';
}

function start(options) {
  document.body.dataset.status = 'loading';
  main(options).catch((e) => {
    out.textContent = `error: ${e.message}`;
    document.body.dataset.error = `${e.name}: ${e.message}`;
    document.body.dataset.status = 'error';
  });
}

start();
// The bundler test also runs a sampler in a worker (createSampler({ worker: true })), with
// bundlers that ship the package's worker file (webpack 5 follows its `new Worker(new URL(...))`).
window.workerExample = async () => {
  const sampler = await createSampler({ worker: true });
  const x = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) };
  const y = await sampler.resize(x, { sizes: [1, 1, 4, 4], mode: 'linear' });
  sampler.dispose();
  return { threads: sampler.threads, data: Array.from(y.data) };
};
// The bundler test starts it again with other options after a failed load.
window.startExample = start;
