// Type checks of createSampler({ worker: true }) (the WorkerSampler of index.d.ts), as a
// user's strict project sees them: the operators return Promises of the sync API's results.
import { createSampler } from 'onnx-sampling-wasm';
import type { OutputTensor, Sampler, WorkerSampler } from 'onnx-sampling-wasm';

export async function workerUsage(): Promise<void> {
  const ws: WorkerSampler = await createSampler({ worker: true, transfer: true, maxBytes: 1 << 30 });
  const sync: Sampler = await createSampler({ worker: false });
  const threads: number = ws.threads;
  const x = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array(4) } as const;
  const y: OutputTensor<'float32', Float32Array> = await ws.resize(x, { scales: [1, 1, 2, 2], mode: 'linear' });
  const z: OutputTensor<'float32', Float32Array> = sync.resize(x, { scales: [1, 1, 2, 2] });
  const g = await ws.gridSample(x, { type: 'float32', dims: [1, 1, 1, 2], data: new Float32Array(2) }, { paddingMode: 'border' });
  const out = { type: 'float32' as const, dims: [1, 1, 4, 4], data: new Float32Array(16) };
  const same: typeof out = await ws.resizeInto(x, out, { sizes: [1, 1, 4, 4] });
  const [r] = await ws.run({ opType: 'Resize', opset: 19 }, [x, null, null, null]);
  const grid = await ws.affineGrid({ type: 'float32', dims: [1, 2, 3], data: new Float32Array(6) }, [1, 1, 2, 2]);
  const t8: OutputTensor<'uint8', Uint8Array> = await ws.imageToTensor({ width: 1, height: 1, data: new Uint8ClampedArray(4) }, { layout: 'nhwc' });
  const img = await ws.resizeImage({ width: 1, height: 1, data: new Uint8ClampedArray(4) }, { width: 2 });
  // @ts-expect-error the worker sampler has no zero-copy tier
  ws.tensor('float32', [2]);
  // @ts-expect-error results are Promises, not tensors
  const notATensor: OutputTensor = ws.resize(x, { scales: [1, 1, 2, 2] });
  // @ts-expect-error transfer only with worker: true
  await createSampler({ transfer: true });
  ws.dispose();
  void [threads, y, z, g, same, r, grid, t8, img, notATensor];
}
