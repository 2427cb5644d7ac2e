// opencv.mjs: @techstark/opencv-js (OpenCV 4.12 compiled to wasm; its build information
// lists no SIMD baseline and no parallel framework: scalar code, one thread).
//
// Jobs:
//   float NCHW Resize   - cv.resize on each channel plane (CV_32FC1): INTER_LINEAR,
//                         INTER_NEAREST, INTER_CUBIC (a = -0.75), INTER_AREA for antialias
//   uint8 RGBA (NHWC)   - cv.resize on one CV_8UC4 Mat: INTER_LINEAR, INTER_AREA
//   GridSample          - cv.remap of each channel plane with one CV_32FC2 map (the grid
//                         un-normalised to pixels): INTER_LINEAR + BORDER_CONSTANT 0 for
//                         zeros padding, INTER_CUBIC + BORDER_REPLICATE for border padding
// Tiers:
//   array  - Mats made from the JS arrays (copy in), the call, the result copied out to a new
//            array, Mats deleted; for remap also the grid -> pixel map conversion
//   memory - source and destination Mats (and the map) allocated and filled before timing:
//            the cv.resize / cv.remap calls only

import { gridToPixelMap, packageVersion, require } from './common.mjs';

export const id = 'opencv';

let cv;

export async function create() {
  let m = require('@techstark/opencv-js');
  if (m instanceof Promise) m = await m;
  else if (!m.Mat) await new Promise((resolve) => { m.onRuntimeInitialized = resolve; });
  cv = m;
  return new OpenCv();
}

class OpenCv {
  constructor() {
    this.id = id;
    this.name = 'opencv-js';
    this.version = packageVersion('@techstark/opencv-js');
    const info = cv.getBuildInformation();
    const baseline = (/Baseline:[ \t]*(.*)/.exec(info) || [])[1] || '';
    this.note = `OpenCV ${(/Version control:\s*(\S+)/.exec(info) || [])[1]}, SIMD baseline: ${baseline.trim() || 'none'}, single thread`;
  }

  async prepare(spec, data) {
    if (spec.op === 'resize') {
      if (spec.type === 'float32' && spec.layout === 'NCHW') return this.resizePlanes(spec, data);
      if (spec.type === 'uint8' && spec.layout === 'NHWC' && spec.in[3] === 4) return this.resizeRGBA(spec, data);
      return [];
    }
    if (spec.op === 'grid') return this.remapPlanes(spec, data);
    return [];
  }

  // How ONNX Resize maps to an OpenCV interpolation flag, and how equal the jobs are.
  resizeFlag(spec) {
    if (spec.antialias) {
      if (spec.mode !== 'linear') return null;
      return { flag: cv.INTER_AREA, name: 'INTER_AREA', job: 'similar',
        note: 'INTER_AREA is a box (area-average) filter; ONNX antialias linear is a triangle filter stretched by 1/scale' };
    }
    if (spec.mode === 'linear')
      return { flag: cv.INTER_LINEAR, name: 'INTER_LINEAR', job: 'same',
        note: spec.type === 'uint8' ? 'half-pixel centres; 8-bit path uses 11-bit fixed-point weights (rounding may differ by 1)' : 'half-pixel centres, edge clamp' };
    if (spec.mode === 'nearest')
      return { flag: cv.INTER_NEAREST, name: 'INTER_NEAREST', job: 'same',
        note: 'OpenCV picks floor(x/s); equal to ONNX half_pixel round_prefer_floor at integer upscale factors' };
    if (spec.mode === 'cubic' && spec.cubicA === -0.75)
      return { flag: cv.INTER_CUBIC, name: 'INTER_CUBIC', job: 'same', note: 'a = -0.75, half-pixel centres, edge clamp' };
    return null;
  }

  resizePlanes(spec, data) {
    const f = this.resizeFlag(spec);
    if (!f) return [];
    const [n, c, h, w] = spec.in;
    const [, , ho, wo] = spec.out;
    const planes = n * c, inPlane = h * w, outPlane = ho * wo;
    const dsize = new cv.Size(wo, ho);
    const srcs = [], dsts = [];
    for (let p = 0; p < planes; p++) {
      const m = new cv.Mat(h, w, cv.CV_32FC1);
      m.data32F.set(data.x.subarray(p * inPlane, (p + 1) * inPlane));
      srcs.push(m);
      dsts.push(new cv.Mat(ho, wo, cv.CV_32FC1));
    }
    const arrayRun = () => {
      const out = new Float32Array(planes * outPlane);
      for (let p = 0; p < planes; p++) {
        const src = new cv.Mat(h, w, cv.CV_32FC1);
        src.data32F.set(data.x.subarray(p * inPlane, (p + 1) * inPlane));
        const dst = new cv.Mat();
        cv.resize(src, dst, dsize, 0, 0, f.flag);
        out.set(dst.data32F, p * outPlane);
        src.delete();
        dst.delete();
      }
      return out;
    };
    const memoryRun = () => {
      for (let p = 0; p < planes; p++) cv.resize(srcs[p], dsts[p], dsize, 0, 0, f.flag);
    };
    const gather = () => {
      const out = new Float32Array(planes * outPlane);
      for (let p = 0; p < planes; p++) out.set(dsts[p].data32F, p * outPlane);
      return out;
    };
    const job = { job: f.job, note: `${f.note}; one cv.resize per channel plane (CV_32FC1)` };
    return [
      {
        label: `cv.resize ${f.name} x${planes} planes (Mats from arrays)`, tier: 'array', ...job,
        includes: 'per plane: new Mat + copy in, cv.resize into a new Mat, copy out into one array, delete',
        run: arrayRun,
        output: async () => arrayRun(),
      },
      {
        label: `cv.resize ${f.name} x${planes} planes (Mats made)`, tier: 'memory', ...job,
        includes: 'cv.resize per plane on source/destination Mats allocated and filled before timing',
        run: memoryRun,
        output: async () => { memoryRun(); return gather(); },
        dispose: () => { for (const m of [...srcs, ...dsts]) m.delete(); },
      },
    ];
  }

  resizeRGBA(spec, data) {
    const f = this.resizeFlag(spec);
    if (!f) return [];
    const [, h, w] = spec.in;
    const [, ho, wo] = spec.out;
    const dsize = new cv.Size(wo, ho);
    const src = new cv.Mat(h, w, cv.CV_8UC4);
    src.data.set(data.x);
    const dst = new cv.Mat(ho, wo, cv.CV_8UC4);
    const arrayRun = () => {
      const s = new cv.Mat(h, w, cv.CV_8UC4);
      s.data.set(data.x);
      const d = new cv.Mat();
      cv.resize(s, d, dsize, 0, 0, f.flag);
      const out = d.data.slice();
      s.delete();
      d.delete();
      return out;
    };
    const memoryRun = () => cv.resize(src, dst, dsize, 0, 0, f.flag);
    const job = { job: f.job, note: `${f.note}; one CV_8UC4 Mat` };
    return [
      {
        label: `cv.resize ${f.name} CV_8UC4 (Mat from array)`, tier: 'array', ...job,
        includes: 'new Mat + copy in, cv.resize into a new Mat, copy out (slice), delete',
        run: arrayRun,
        output: async () => arrayRun(),
      },
      {
        label: `cv.resize ${f.name} CV_8UC4 (Mats made)`, tier: 'memory', ...job,
        includes: 'cv.resize on source/destination Mats allocated and filled before timing',
        run: memoryRun,
        output: async () => { memoryRun(); return dst.data.slice(); },
        dispose: () => { src.delete(); dst.delete(); },
      },
    ];
  }

  remapPlanes(spec, data) {
    const [n, c, h, w] = spec.x;
    const [, ho, wo] = spec.grid;
    if (n !== 1 || spec.x.length !== 4) return [];
    let flag, border, name, job;
    if (spec.mode === 'linear' && spec.padding === 'zeros') {
      flag = cv.INTER_LINEAR; border = cv.BORDER_CONSTANT; name = 'INTER_LINEAR BORDER_CONSTANT 0';
      job = { job: 'similar', note: 'remap quantises sample positions to 1/32 px (INTER_TAB_SIZE); otherwise the same per-tap zero padding' };
    } else if (spec.mode === 'cubic' && spec.padding === 'border') {
      flag = cv.INTER_CUBIC; border = cv.BORDER_REPLICATE; name = 'INTER_CUBIC BORDER_REPLICATE';
      job = { job: 'similar', note: 'remap quantises positions to 1/32 px; ONNX border padding clamps the coordinate to [-0.5, W-0.5] before the 4x4 taps, OpenCV only clamps taps (differs outside the image)' };
    } else return [];
    const inPlane = h * w, outPlane = ho * wo;
    const zero = new cv.Scalar(0, 0, 0, 0);
    const map = new cv.Mat(ho, wo, cv.CV_32FC2);
    gridToPixelMap(data.grid, h, w, spec.alignCorners, map.data32F);
    const empty = new cv.Mat();
    const srcs = [], dsts = [];
    for (let p = 0; p < c; p++) {
      const m = new cv.Mat(h, w, cv.CV_32FC1);
      m.data32F.set(data.x.subarray(p * inPlane, (p + 1) * inPlane));
      srcs.push(m);
      dsts.push(new cv.Mat(ho, wo, cv.CV_32FC1));
    }
    const arrayRun = () => {
      const out = new Float32Array(c * outPlane);
      const m = new cv.Mat(ho, wo, cv.CV_32FC2);
      gridToPixelMap(data.grid, h, w, spec.alignCorners, m.data32F);
      for (let p = 0; p < c; p++) {
        const src = new cv.Mat(h, w, cv.CV_32FC1);
        src.data32F.set(data.x.subarray(p * inPlane, (p + 1) * inPlane));
        const dst = new cv.Mat();
        cv.remap(src, dst, m, empty, flag, border, zero);
        out.set(dst.data32F, p * outPlane);
        src.delete();
        dst.delete();
      }
      m.delete();
      return out;
    };
    const memoryRun = () => {
      for (let p = 0; p < c; p++) cv.remap(srcs[p], dsts[p], map, empty, flag, border, zero);
    };
    const gather = () => {
      const out = new Float32Array(c * outPlane);
      for (let p = 0; p < c; p++) out.set(dsts[p].data32F, p * outPlane);
      return out;
    };
    job.note += `; one cv.remap per channel (${c}), CV_32FC2 map`;
    return [
      {
        label: `cv.remap ${name} x${c} (Mats from arrays)`, tier: 'array', ...job,
        includes: 'grid -> pixel map into a new Mat; per plane: new Mat + copy in, cv.remap, copy out, delete',
        run: arrayRun,
        output: async () => arrayRun(),
      },
      {
        label: `cv.remap ${name} x${c} (Mats made)`, tier: 'memory', ...job,
        includes: 'cv.remap per plane on Mats and pixel map made before timing',
        run: memoryRun,
        output: async () => { memoryRun(); return gather(); },
        dispose: () => { for (const m of [...srcs, ...dsts, map, empty]) m.delete(); },
      },
    ];
  }
}
