// common.mjs: helpers shared by the benchmark adapters (bench/peers/*.mjs) and bench/run.mjs.
//
// Nothing here is timed: data generation, layout changes used to hand a peer the same image
// in its native layout, and the conversion of an ONNX GridSample grid to pixel maps.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = join(benchDir, '..');
export const require = createRequire(join(repoRoot, 'package.json'));

/** Version of an installed package, read from its package.json (exports maps may hide it). */
export function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** Deterministic PRNG (mulberry32): the same inputs on every run and for every library. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const count = (dims) => dims.reduce((a, b) => a * b, 1);

/** float32 values in [0, 1): random noise, the hardest case for interpolation differences. */
export function makeFloat(dims, seed) {
  const r = rng(seed);
  const a = new Float32Array(count(dims));
  for (let i = 0; i < a.length; i++) a[i] = r();
  return a;
}

/**
 * uint8 RGBA, NHWC [1, H, W, 4]: random RGB, alpha 255 (an opaque image). Opaque on purpose:
 * pica premultiplies by alpha when any alpha is below 255, which ONNX Resize does not.
 */
export function makeRGBA(dims, seed) {
  const r = rng(seed);
  const a = new Uint8Array(count(dims));
  for (let i = 0; i < a.length; i++) a[i] = (i & 3) === 3 ? 255 : Math.floor(r() * 256);
  return a;
}

/**
 * An ONNX GridSample grid [1, Ho, Wo, 2] (x, y innermost, normalised to [-1, 1]) that rotates
 * the image by `deg` degrees about its centre and scales it by `zoom`. With
 * align_corners = 0 the output pixel centre j maps to u = (2j + 1) / Wo - 1.
 */
export function rotatedGrid(ho, wo, deg = 30, zoom = 1.0) {
  const g = new Float32Array(ho * wo * 2);
  const c = Math.cos((deg * Math.PI) / 180) * zoom, s = Math.sin((deg * Math.PI) / 180) * zoom;
  for (let i = 0; i < ho; i++) {
    const v = (2 * i + 1) / ho - 1;
    for (let j = 0; j < wo; j++) {
      const u = (2 * j + 1) / wo - 1;
      g[2 * (i * wo + j)] = c * u - s * v;
      g[2 * (i * wo + j) + 1] = s * u + c * v;
    }
  }
  return g;
}

/**
 * GridSample grid -> OpenCV remap map (CV_32FC2 layout: x, y interleaved, in pixels).
 * ONNX's un-normalisation: align_corners = 0: x = ((g + 1) * W - 1) / 2;
 * align_corners = 1: x = (g + 1) * (W - 1) / 2. Written into `out` (same length as grid).
 */
export function gridToPixelMap(grid, h, w, alignCorners, out = new Float32Array(grid.length)) {
  if (alignCorners) {
    const sx = (w - 1) / 2, sy = (h - 1) / 2;
    for (let i = 0; i < grid.length; i += 2) {
      out[i] = (grid[i] + 1) * sx;
      out[i + 1] = (grid[i + 1] + 1) * sy;
    }
  } else {
    for (let i = 0; i < grid.length; i += 2) {
      out[i] = ((grid[i] + 1) * w - 1) / 2;
      out[i + 1] = ((grid[i + 1] + 1) * h - 1) / 2;
    }
  }
  return out;
}

/** NCHW [1, C, H, W] -> NHWC [1, H, W, C]. */
export function nchwToNhwc(a, c, h, w) {
  const out = new a.constructor(a.length);
  for (let ch = 0; ch < c; ch++) {
    const base = ch * h * w;
    for (let p = 0; p < h * w; p++) out[p * c + ch] = a[base + p];
  }
  return out;
}

/** NHWC [1, H, W, C] -> NCHW [1, C, H, W]. */
export function nhwcToNchw(a, c, h, w) {
  const out = new a.constructor(a.length);
  for (let ch = 0; ch < c; ch++) {
    const base = ch * h * w;
    for (let p = 0; p < h * w; p++) out[base + p] = a[p * c + ch];
  }
  return out;
}
