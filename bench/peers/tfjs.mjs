// tfjs.mjs: @tensorflow/tfjs-core with @tensorflow/tfjs-backend-wasm (SIMD, one thread).
//
// tfjs has resizeBilinear and resizeNearestNeighbor on NHWC float tensors only: no cubic, no
// antialias, no GridSample, no uint8 dtype. It runs W1, W2 and the per-call workload; it is
// handed the same image already in NHWC (the layout change is not timed) and its output is
// turned back to NCHW for the correctness check only.
//
// Tiers:
//   array  - tf.tensor4d(X array) + op + dataSync() (copy out) + dispose
//   memory - X is a tf.Tensor created before timing (its data in the backend's wasm heap);
//            op + dispose of the result, the output is not read back.

import { nchwToNhwc, nhwcToNchw, packageVersion } from './common.mjs';

export const id = 'tfjs';

let tf;

export async function create() {
  tf = await import('@tensorflow/tfjs-core');
  await import('@tensorflow/tfjs-backend-wasm');
  // One thread, as for the other peers: the threaded build would spawn a pthread pool.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  await tf.setBackend('wasm');
  await tf.ready();
  return new Tfjs();
}

class Tfjs {
  constructor() {
    this.id = id;
    this.name = 'tfjs-backend-wasm';
    this.version = packageVersion('@tensorflow/tfjs-backend-wasm');
    this.note = `tfjs-core ${packageVersion('@tensorflow/tfjs-core')}, backend '${tf.getBackend()}', SIMD ${tf.env().getBool('WASM_HAS_SIMD_SUPPORT')}, threads off`;
  }

  async prepare(spec, data) {
    if (spec.op !== 'resize' || spec.type !== 'float32' || spec.layout !== 'NCHW' || spec.antialias) return [];
    if (spec.mode !== 'linear' && spec.mode !== 'nearest') return [];
    const [n, c, h, w] = spec.in;
    const [, , ho, wo] = spec.out;
    if (n !== 1) return [];
    const nhwc = nchwToNhwc(data.x, c, h, w);
    const shape = [1, h, w, c];
    const op = spec.mode === 'linear'
      ? (t) => tf.image.resizeBilinear(t, [ho, wo], false, true)
      : (t) => tf.image.resizeNearestNeighbor(t, [ho, wo], false, true);
    const fn = spec.mode === 'linear' ? 'resizeBilinear' : 'resizeNearestNeighbor';
    const xT = tf.tensor4d(nhwc, shape, 'float32');
    const job = spec.mode === 'linear'
      ? { job: 'same', note: 'halfPixelCenters=true; NHWC layout' }
      : { job: 'same', note: 'halfPixelCenters=true: TF picks floor((x+0.5)/s), equal to ONNX round_prefer_floor at integer factors; NHWC layout' };
    const toNchw = (a) => nhwcToNchw(a, c, ho, wo);
    return [
      {
        label: `${fn} (tensor4d from array, dataSync)`, tier: 'array', ...job,
        includes: 'tf.tensor4d(NHWC array) (copy in) + op + dataSync() (copy out) + dispose',
        run: () => {
          const t = tf.tensor4d(nhwc, shape, 'float32');
          const y = op(t);
          const out = y.dataSync();
          t.dispose();
          y.dispose();
          return out;
        },
        output: async () => {
          const t = tf.tensor4d(nhwc, shape, 'float32');
          const y = op(t);
          const out = y.dataSync().slice();
          t.dispose();
          y.dispose();
          return toNchw(out);
        },
      },
      {
        label: `${fn} (tensor made, no read-back)`, tier: 'memory', ...job,
        includes: 'op on a tf.Tensor created before timing + dispose of the result; output stays in wasm',
        run: () => { op(xT).dispose(); },
        output: async () => {
          const y = op(xT);
          const out = y.dataSync().slice();
          y.dispose();
          return toNchw(out);
        },
        dispose: () => xT.dispose(),
      },
    ];
  }
}
