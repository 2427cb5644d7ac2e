// A user's app: the package from npm, bundled by Vite.
import { createSampler } from 'onnx-sampling-wasm';

const out = document.getElementById('out');

async function main() {
  const sampler = await createSampler();

  // Resize a 2x2 tensor to 4x4 (linear, half_pixel).
  const x = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) };
  const y = sampler.resize(x, { sizes: [1, 1, 4, 4], mode: 'linear' });

  // Resize a small RGBA gradient with the image helper and show it.
  const w = 16, h = 8, px = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < h; i++) {
    for (let j = 0; j < w; j++) px.set([j * 17, i * 36, 255 - j * 17, 255], 4 * (i * w + j));
  }
  const big = sampler.resizeImage(new ImageData(px, w, h), { width: 64, mode: 'cubic' });
  document.getElementById('picture').getContext('2d').putImageData(big, 0, 0);

  // The same resize off the main thread: a sampler in a dedicated worker (Vite bundles the
  // package's worker file); its methods return Promises.
  const worker = await createSampler({ worker: true });
  const yw = await worker.resize(x, { sizes: [1, 1, 4, 4], mode: 'linear' });
  worker.dispose();

  // The bytes PIL.Image.resize gives, for a model trained on images Pillow resized: the
  // compat modes live in a second module (osw-compat.wasm), which loadCompat() fetches.
  await sampler.loadCompat();
  const pil = sampler.resize({ type: 'uint8', dims: [1, h, w, 4], data: new Uint8Array(px.buffer) },
    { sizes: [4, 8], axes: [1, 2], compat: 'pillow', mode: 'lanczos' });

  const result = {
    dims: y.dims, data: Array.from(y.data), image: [big.width, big.height], worker: { threads: worker.threads, data: Array.from(yw.data) },
    pillow: { dims: pil.dims, data: Array.from(pil.data) },
  };
  out.textContent = `resize 2x2 -> 4x4 (linear):\n${[0, 1, 2, 3].map((r) => Array.from(y.data.slice(4 * r, 4 * r + 4)).join('  ')).join('\n')}\n` +
    `resizeImage 16x8 -> ${big.width}x${big.height} (cubic)\n` +
    `in a worker (${worker.threads} thread${worker.threads === 1 ? '' : 's'}): ${yw.data.join(' ') === y.data.join(' ') ? 'the same values' : 'different values!'}\n` +
    `as Pillow (LANCZOS) 16x8 -> ${pil.dims[2]}x${pil.dims[1]}: ${pil.data.slice(0, 8).join(' ')} ...`;
  document.body.dataset.result = JSON.stringify(result);
  document.body.dataset.status = 'ok';
}

main().catch((e) => {
  out.textContent = `error: ${e.message}`;
  document.body.dataset.error = String(e && e.stack || e);
  document.body.dataset.status = 'error';
});
