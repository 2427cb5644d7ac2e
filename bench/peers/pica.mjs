// pica.mjs: pica's resizeBuffer (RGBA Uint8Array in, RGBA Uint8Array out; its wasm
// convolver, no web workers: features ['js', 'wasm']; resizeBuffer never tiles).
//
// pica resizes only RGBA bytes with separable windowed filters ('box', 'hamming',
// 'lanczos2', 'lanczos3', 'mks2013' = default) on half-pixel centres, 14-bit fixed-point
// weights, taps outside the image dropped and the rest renormalised. None of them is ONNX's
// linear (triangle) filter, so every pica row is a "similar job, differs by design".
// Opaque images only here: with alpha < 255 pica premultiplies, ONNX Resize does not.
//
// Tier: array only (pica copies into its own wasm memory on every call; its `dest` option
// only saves the output allocation).

import { makeRGBA, packageVersion, require } from './common.mjs';

export const id = 'pica';

export async function create() {
  const Pica = require('pica');
  const p = new Pica({ features: ['js', 'wasm'] });
  await p.init();
  return new PicaPeer(p);
}

class PicaPeer {
  constructor(p) {
    this.p = p;
    this.id = id;
    this.name = 'pica';
    this.version = packageVersion('pica');
    const f = p.features ? Object.entries(p.features).filter(([, v]) => v).map(([k]) => k).join(', ') : 'js, wasm';
    this.note = `resizeBuffer, features [${f}], no workers`;
  }

  async prepare(spec, data) {
    const p = this.p;
    if (spec.perCall) {
      // pica's smallest call: RGBA 4x4 -> 8x8 (a different job: 4 channels, its filter).
      const src = makeRGBA([1, 4, 4, 4], 7);
      const opts = { src, width: 4, height: 4, toWidth: 8, toHeight: 8 };
      return [{
        label: 'resizeBuffer RGBA 4x4 -> 8x8 (default filter)', tier: 'array', job: 'overhead',
        note: 'smallest pica call: RGBA 4x4 -> 8x8 with mks2013; not the same job, call overhead only',
        includes: 'resizeBuffer (promise) from a 4x4 RGBA array to a new array',
        run: () => p.resizeBuffer(opts),
      }];
    }
    if (spec.op !== 'resize' || spec.type !== 'uint8' || spec.layout !== 'NHWC' || spec.in[3] !== 4) return [];
    const [, h, w] = spec.in;
    const [, ho, wo] = spec.out;
    const filters = spec.antialias
      ? [['mks2013', 'default filter mks2013: a sharpening cubic-like kernel, window 2.5 x 1/scale'],
        ['box', 'box filter: area average, like OpenCV INTER_AREA at integer factors']]
      : [['mks2013', 'default filter mks2013: a sharpening cubic-like kernel'],
        ['hamming', 'hamming-windowed sinc, window 1 px: the closest pica filter to linear']];
    return filters.map(([filter, note]) => {
      const opts = { src: data.x, width: w, height: h, toWidth: wo, toHeight: ho, filter };
      return {
        label: `resizeBuffer filter '${filter}'${filter === 'mks2013' ? ' (default)' : ''}`, tier: 'array',
        variant: filter, job: 'similar', note: `${note}; not the triangle filter of ONNX ${spec.antialias ? 'antialias ' : ''}linear`,
        includes: 'resizeBuffer (promise): copy into pica wasm memory, filter, copy out to a new array',
        run: () => p.resizeBuffer(opts),
        output: () => p.resizeBuffer(opts),
      };
    });
  }
}
