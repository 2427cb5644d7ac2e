// A user's Node program (a serverless function, say), bundled by esbuild into one file that
// runs with osw.wasm beside it and no node_modules.
import { createSampler } from 'onnx-sampling-wasm';

async function main() {
  const sampler = await createSampler();
  const x = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) };
  const y = sampler.resize(x, { sizes: [1, 1, 4, 4], mode: 'linear' });
  console.log(JSON.stringify({ dims: y.dims, data: Array.from(y.data) }));
}

main().catch((e) => {
  console.error(e.message);
  process.exitCode = 1;
});
