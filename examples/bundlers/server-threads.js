// A user's Node program bundled by esbuild that uses threads, the worker API and a compat
// mode: it runs from a folder that holds the bundle and the package's files the README lists
// for it, with no node_modules.
import { createSampler } from 'onnx-sampling-wasm';

async function main() {
  const x = { type: 'float32', dims: [1, 3, 96, 96], data: Float32Array.from({ length: 3 * 96 * 96 }, (_, i) => (i * 37) % 101) };
  const options = { sizes: [1, 3, 160, 128], mode: 'cubic' };
  const one = await createSampler();
  const threaded = await createSampler({ threads: 2 });
  const worker = await createSampler({ worker: true, threads: 2 });
  const expected = one.resize(x, options).data;
  const same = (y) => y.length === expected.length && y.every((v, i) => Object.is(v, expected[i]));
  const image = { width: 9, height: 7, data: Uint8ClampedArray.from({ length: 9 * 7 * 4 }, (_, i) => (i * 53) % 256) };
  const pillow = one.resizeImage(image, { width: 4, height: 3, compat: 'pillow' });
  const pillowInWorker = await worker.resizeImage(image, { width: 4, height: 3, compat: 'pillow' });
  console.log(JSON.stringify({
    threads: threaded.threads,
    workerThreads: worker.threads,
    threadedSame: same(threaded.resize(x, options).data),
    workerSame: same((await worker.resize(x, options)).data),
    compatSame: Array.from(pillow.data).join() === Array.from(pillowInWorker.data).join(),
  }));
  threaded.dispose();
  worker.dispose();
}

main().catch((e) => {
  console.error(e.message);
  process.exitCode = 1;
});
