// make-sample-image.mjs: draws the demo's sample image, web/sample.png (384 x 256 RGBA), from
// plain arithmetic, and writes it with a small PNG encoder on node:zlib. The picture is made
// to show what resampling does: a colour wheel and colour ramps (sRGB vs linear light), a
// zone plate and a starburst (aliasing, ringing), one-pixel lines, a checkerboard, and a
// transparent window holding opaque and half-transparent shapes (premultiplied alpha).
// Every shape is supersampled 4 x 4, so edges are smooth. Deterministic: same bytes each run.
//
//   node scripts/make-sample-image.mjs [out.png]
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const W = 384;
const H = 256;
const SS = 4; // supersampling per axis

// ------------------------------------------------------------------ colour helpers

function hsv(h, s, v) {
  const i = Math.floor(h * 6), f = h * 6 - i;
  const p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
  switch (((i % 6) + 6) % 6) {
    case 0: return [v, t, p];
    case 1: return [q, v, p];
    case 2: return [p, v, t];
    case 3: return [p, q, v];
    case 4: return [t, p, v];
    default: return [v, p, q];
  }
}

// Source-over of premultiplied (r, g, b, a) colours: top over bottom.
function over(top, bottom) {
  const k = 1 - top[3];
  return [top[0] + bottom[0] * k, top[1] + bottom[1] * k, top[2] + bottom[2] * k, top[3] + bottom[3] * k];
}
const solid = (rgb, a = 1) => [rgb[0] * a, rgb[1] * a, rgb[2] * a, a];

// ------------------------------------------------------------------ the three panels

// Panel A (x < 128): colour wheel over a vertical gradient; R, G, B, grey ramps below.
function panelA(x, y) {
  if (y >= 140) {
    const band = Math.min(3, Math.floor((y - 140) / 29));
    const t = Math.min(1, Math.max(0, (x - 4) / 119));
    const v = y - 140 - band * 29 >= 26 ? 0 : t; // thin dark gap between bands
    const rgb = [[v, 0, 0], [0, v, 0], [0, 0, v], [v, v, v]][band];
    return solid(rgb);
  }
  const bg = solid([0.08 + 0.25 * (y / 140), 0.1, 0.25 - 0.12 * (y / 140)]);
  const dx = x - 64, dy = y - 70, r = Math.hypot(dx, dy);
  if (r <= 58) {
    const h = (Math.atan2(dy, dx) / (2 * Math.PI) + 1) % 1;
    return solid(hsv(h, Math.min(1, r / 58), 1));
  }
  return bg;
}

// Panel B (128 <= x < 256): zone plate on top, starburst and a 1-px grid below.
function panelB(x, y) {
  if (y < 128) {
    const dx = x - 192, dy = y - 64, r2 = dx * dx + dy * dy;
    const v = 0.5 + 0.5 * Math.cos(0.024 * r2);
    return solid([0.15 + 0.8 * v, 0.2 + 0.75 * v, 0.35 + 0.65 * v]);
  }
  const dx = x - 192, dy = y - 192, r = Math.hypot(dx, dy);
  if (r <= 58) {
    const sector = Math.floor(((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI)) * 48) % 2;
    return sector ? solid([0.95, 0.95, 0.92]) : solid(hsv(r / 58 * 0.8, 0.9, 0.55));
  }
  const line = (Math.floor(x) % 4 === 0) || (Math.floor(y) % 4 === 0);
  return line ? solid([0.9, 0.9, 0.9]) : solid([0.12, 0.12, 0.14]);
}

// Panel C (x >= 256): checkerboard, a transparent window with shapes, diagonal hairlines.
function panelC(x, y) {
  const check = (Math.floor(x / 16) + Math.floor(y / 16)) % 2 ? [0.82, 0.84, 0.9] : [0.25, 0.3, 0.45];
  let c = solid(check);
  if (y >= 190) {
    // one-pixel diagonal lines in two colours, then fine vertical stripes
    const d = Math.floor(x + y) % 6;
    if (x < 330) c = d === 0 ? solid([1, 0.85, 0.1]) : d === 3 ? solid([0.1, 0.8, 1]) : solid([0.1, 0.1, 0.12]);
    else c = Math.floor(x) % 2 ? solid([0.95, 0.2, 0.3]) : solid([0.1, 0.1, 0.12]);
    return c;
  }
  // The window: fully transparent inside a rounded rectangle, with a soft top edge.
  const wx0 = 268, wx1 = 372, wy0 = 16, wy1 = 176, rad = 14;
  const qx = Math.max(wx0 + rad - x, 0, x - (wx1 - rad)), qy = Math.max(wy0 + rad - y, 0, y - (wy1 - rad));
  if (Math.hypot(qx, qy) <= rad) {
    // alpha ramps 0 -> 1 over the window's top 22 rows
    const fade = Math.min(1, Math.max(0, (wy0 + 22 - y) / 22));
    c = solid(check, fade);
    // opaque yellow disc, half-transparent magenta disc, opaque cyan triangle
    if (Math.hypot(x - 304, y - 80) <= 22) c = over(solid([1, 0.9, 0.1]), c);
    if (Math.hypot(x - 336, y - 104) <= 24) c = over(solid([0.9, 0.1, 0.8], 0.5), c);
    const tx = x - 320, ty = y - 150;
    if (ty <= 18 && ty >= -18 && Math.abs(tx) <= (ty + 18) * 0.8) c = over(solid([0.1, 0.9, 0.9]), c);
    return c;
  }
  return c;
}

function shade(x, y) {
  if (x < 128) return panelA(x, y);
  if (x < 256) return panelB(x, y);
  return panelC(x, y);
}

// ------------------------------------------------------------------ render

const rgba = new Uint8Array(W * H * 4);
for (let y = 0; y < H; y++) {
  for (let x = 0; x < W; x++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = shade(x + (sx + 0.5) / SS, y + (sy + 0.5) / SS);
        r += c[0]; g += c[1]; b += c[2]; a += c[3];
      }
    }
    const n = SS * SS, i = 4 * (y * W + x);
    const A = a / n;
    // stored un-premultiplied, as PNG wants; fully transparent pixels are (0, 0, 0, 0)
    const k = A > 0 ? 1 / (A * n) : 0;
    rgba[i] = Math.round(255 * Math.min(1, r * k));
    rgba[i + 1] = Math.round(255 * Math.min(1, g * k));
    rgba[i + 2] = Math.round(255 * Math.min(1, b * k));
    rgba[i + 3] = Math.round(255 * A);
    if (rgba[i + 3] === 0) rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
  }
}

// ------------------------------------------------------------------ PNG encoder

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

// Each row gets the PNG filter (0-4) that minimises the sum of absolute differences.
function filterRows(px, w, h) {
  const stride = w * 4, out = Buffer.alloc((stride + 1) * h);
  const paeth = (a, b, c) => {
    const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
  };
  const cand = Array.from({ length: 5 }, () => Buffer.alloc(stride));
  for (let y = 0; y < h; y++) {
    const row = px.subarray(y * stride, (y + 1) * stride);
    const up = y ? px.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    let best = 0, bestCost = Infinity;
    for (let f = 0; f < 5; f++) {
      const o = cand[f];
      let cost = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= 4 ? row[i - 4] : 0, b = up[i], c = i >= 4 ? up[i - 4] : 0;
        const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
        const v = (row[i] - pred) & 0xff;
        o[i] = v;
        cost += v < 128 ? v : 256 - v;
      }
      if (cost < bestCost) { bestCost = cost; best = f; }
    }
    out[y * (stride + 1)] = best;
    cand[best].copy(out, y * (stride + 1) + 1);
  }
  return out;
}

function encodePng(px, w, h) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('sRGB', Buffer.from([0])), // perceptual: the values are sRGB
    chunk('IDAT', deflateSync(filterRows(px, w, h), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] || join(root, 'web', 'sample.png');
const png = encodePng(rgba, W, H);
writeFileSync(out, png);
console.log(`wrote ${out}: ${W} x ${H} RGBA, ${(png.length / 1024).toFixed(1)} KiB`);
