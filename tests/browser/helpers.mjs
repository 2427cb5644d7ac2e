// helpers.mjs: what the browser tests share: where the package under test is, a static
// HTTP server on 127.0.0.1 with mount points, headless Chromium through playwright-core,
// a page error collector, and PNG pixel reading done by the browser itself.
//
// Env:
//   OSW_PACKAGE   the installed package folder (scripts/test.mjs sets it); unset: the repo
//                 itself (its dist/ must be built)
//   OSW_TARBALL   the packed .tgz; unset: packed from OSW_PACKAGE into a temp dir
//   OSW_CHROMIUM  the browser binary; default /usr/bin/chromium
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');

export function packageDir() {
  const dir = process.env.OSW_PACKAGE ? resolve(process.env.OSW_PACKAGE) : repoRoot;
  if (!existsSync(join(dir, 'dist', 'browser.mjs')))
    throw new Error(`${dir}/dist/browser.mjs does not exist (set OSW_PACKAGE to an installed package, or build dist/)`);
  return dir;
}

let packedTarball = null;
export function tarballPath() {
  if (process.env.OSW_TARBALL) {
    const t = resolve(process.env.OSW_TARBALL);
    if (!existsSync(t)) throw new Error(`OSW_TARBALL=${t} does not exist`);
    return t;
  }
  if (!packedTarball) {
    const dest = mkdtempSync(join(tmpdir(), 'osw-pack-'));
    execFileSync('npm', ['pack', '--pack-destination', dest], { cwd: packageDir(), stdio: 'ignore' });
    packedTarball = join(dest, readdirSync(dest).find((f) => f.endsWith('.tgz')));
  }
  return packedTarball;
}

export function conformanceDir() {
  if (process.env.OSW_CONFORMANCE) return resolve(process.env.OSW_CONFORMANCE);
  return resolve(repoRoot, '..', 'shared', 'conformance');
}

// ------------------------------------------------------------------ static server

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json',
  '.png': 'image/png', '.svg': 'image/svg+xml',
};

export const BLANK_PAGE = '/__blank.html';

/**
 * Serves each [urlPrefix, dir] mount (first match wins; prefixes end with '/') on
 * 127.0.0.1 at a free port, plus an empty page at BLANK_PAGE. Returns { url, close,
 * requests } where requests lists [status, url path with query] of every request.
 */
export function startStaticServer(mounts) {
  const requests = [];
  const server = createServer((req, res) => {
    const raw = req.url || '/';
    let path;
    try { path = decodeURIComponent(raw.split('?')[0]); } catch { path = ''; }
    const send = (status, type, body) => {
      requests.push([status, raw]);
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (path === BLANK_PAGE) return send(200, TYPES['.html'], '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>blank</title>');
    for (const [prefix, dir] of mounts) {
      if (!path.startsWith(prefix)) continue;
      let file = normalize(join(dir, path.slice(prefix.length)));
      if (file !== dir && !file.startsWith(dir + sep)) break;
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
      if (!existsSync(file)) break;
      requests.push([200, raw]);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      createReadStream(file).pipe(res);
      return undefined;
    }
    return send(404, 'text/plain', 'not found');
  });
  return new Promise((res, rej) => {
    server.once('error', rej);
    server.listen(0, '127.0.0.1', () => {
      res({
        url: `http://127.0.0.1:${server.address().port}`,
        requests,
        close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}

// ------------------------------------------------------------------ browser

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run'];

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.OSW_CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
}

/** Collects uncaught page errors, console errors and failed requests of a page. */
export function collectErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
  return errors;
}

// ------------------------------------------------------------------ PNG pixels, decoded by the page

/**
 * Decodes PNG files (Buffers) in the page with createImageBitmap and returns, per PNG,
 * { width, height, data: Uint8Array RGBA } (un-premultiplied as far as a canvas allows).
 */
export async function decodePngs(page, pngs) {
  const list = await page.evaluate(async (b64s) => {
    const out = [];
    for (const b64 of b64s) {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }),
        { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const ctx = c.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(bmp, 0, 0);
      const d = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
      let s = '';
      for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
      out.push({ width: bmp.width, height: bmp.height, data: btoa(s) });
    }
    return out;
  }, pngs.map((b) => Buffer.from(b).toString('base64')));
  return list.map((p) => ({ width: p.width, height: p.height, data: new Uint8Array(Buffer.from(p.data, 'base64')) }));
}

/**
 * Compares two decoded images: { sameSize, maxDiff, fractionWithin } where fractionWithin is
 * the share of pixels whose every channel differs by at most `tolerance`.
 */
export function compareImages(a, b, tolerance) {
  if (a.width !== b.width || a.height !== b.height) return { sameSize: false, maxDiff: 255, fractionWithin: 0 };
  let maxDiff = 0, within = 0;
  const n = a.width * a.height;
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let c = 0; c < 4; c++) m = Math.max(m, Math.abs(a.data[4 * i + c] - b.data[4 * i + c]));
    if (m <= tolerance) within++;
    if (m > maxDiff) maxDiff = m;
  }
  return { sameSize: true, maxDiff, fractionWithin: within / n };
}

export const b64 = {
  encode: (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength).toString('base64'),
};

// ------------------------------------------------------------------ PNG encoding (for docs/)

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

// Median cut over a 15-bit colour histogram: a palette of up to `n` colours for opaque RGBA
// pixels, and each pixel's index in it.
function quantize(rgba, n) {
  const count = new Uint32Array(32768), sr = new Float64Array(32768), sg = new Float64Array(32768), sb = new Float64Array(32768);
  const keyOf = (i) => ((rgba[i] >> 3) << 10) | ((rgba[i + 1] >> 3) << 5) | (rgba[i + 2] >> 3);
  for (let i = 0; i < rgba.length; i += 4) {
    const k = keyOf(i);
    count[k]++; sr[k] += rgba[i]; sg[k] += rgba[i + 1]; sb[k] += rgba[i + 2];
  }
  const keys = [];
  for (let k = 0; k < 32768; k++) if (count[k]) keys.push(k);
  const comp = (k, c) => (c === 0 ? k >> 10 : c === 1 ? (k >> 5) & 31 : k & 31);
  const boxOf = (ks) => {
    let total = 0, best = 0, axis = 0;
    for (let c = 0; c < 3; c++) {
      let lo = 31, hi = 0;
      for (const k of ks) { const v = comp(k, c); if (v < lo) lo = v; if (v > hi) hi = v; }
      if (hi - lo > best) { best = hi - lo; axis = c; }
    }
    for (const k of ks) total += count[k];
    return { ks, total, range: best, axis };
  };
  const boxes = [boxOf(keys)];
  while (boxes.length < n) {
    let bi = -1, score = 0;
    boxes.forEach((b, i) => { const s = b.range * Math.sqrt(b.total); if (b.ks.length > 1 && s > score) { score = s; bi = i; } });
    if (bi < 0) break;
    const b = boxes[bi];
    b.ks.sort((x, y) => comp(x, b.axis) - comp(y, b.axis));
    // split after the key that reaches half the pixels; both halves keep at least one key
    let acc = 0, i = 0;
    while (i < b.ks.length - 1 && (acc += count[b.ks[i]]) < b.total / 2) i++;
    const cut = Math.min(i + 1, b.ks.length - 1);
    boxes.splice(bi, 1, boxOf(b.ks.slice(0, cut)), boxOf(b.ks.slice(cut)));
  }
  let palette = boxes.map((b) => {
    let r = 0, g = 0, bl = 0;
    for (const k of b.ks) { r += sr[k]; g += sg[k]; bl += sb[k]; }
    return [r / b.total, g / b.total, bl / b.total];
  });
  // a few k-means rounds over the bins refine the median-cut palette
  const map = new Uint8Array(32768);
  for (let round = 0; round < 5; round++) {
    const acc = palette.map(() => [0, 0, 0, 0]);
    for (const k of keys) {
      const r = sr[k] / count[k], g = sg[k] / count[k], b = sb[k] / count[k];
      let best = 0, bd = Infinity;
      for (let i = 0; i < palette.length; i++) {
        const p = palette[i], d = (p[0] - r) ** 2 + (p[1] - g) ** 2 + (p[2] - b) ** 2;
        if (d < bd) { bd = d; best = i; }
      }
      map[k] = best;
      const a = acc[best];
      a[0] += sr[k]; a[1] += sg[k]; a[2] += sb[k]; a[3] += count[k];
    }
    if (round === 4) break;
    palette = palette.map((p, i) => (acc[i][3] ? [acc[i][0] / acc[i][3], acc[i][1] / acc[i][3], acc[i][2] / acc[i][3]] : p));
  }
  palette = palette.map((p) => p.map(Math.round));
  const index = new Uint8Array(rgba.length / 4);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j++) index[j] = map[keyOf(i)];
  return { palette, index };
}

/**
 * RGBA bytes -> PNG with the best filter per row: 8-bit RGB when every pixel is opaque (else
 * RGBA), or with { colors: n } (opaque images only) a palette of n colours by median cut.
 */
export async function encodePng(rgba, width, height, { colors = 0 } = {}) {
  const { deflateSync } = await import('node:zlib');
  let opaque = true;
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) { opaque = false; break; }
  const q = colors && opaque ? quantize(rgba, colors) : null;
  const bpp = q ? 1 : opaque ? 3 : 4, stride = width * bpp;
  const raw = Buffer.alloc((stride + 1) * height);
  const row = Buffer.alloc(stride), prev = Buffer.alloc(stride), cand = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    if (q) q.index.subarray(y * width, (y + 1) * width).forEach((v, x) => { row[x] = v; });
    else for (let x = 0; x < width; x++) for (let c = 0; c < bpp; c++) row[x * bpp + c] = rgba[4 * (y * width + x) + c];
    let best = -1, bestCost = Infinity, bestBytes = null;
    for (let f = 0; f < (q ? 1 : 5); f++) { // palette images compress best unfiltered
      let cost = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? row[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
        let p = 0;
        if (f === 1) p = a; else if (f === 2) p = b; else if (f === 3) p = (a + b) >> 1;
        else if (f === 4) { const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c); p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
        const v = (row[i] - p) & 0xff;
        cand[i] = v;
        cost += v < 128 ? v : 256 - v;
      }
      if (cost < bestCost) { bestCost = cost; best = f; bestBytes = Buffer.from(cand); }
    }
    raw[y * (stride + 1)] = best;
    bestBytes.copy(raw, y * (stride + 1) + 1);
    row.copy(prev);
  }
  const chunk = (type, data) => {
    const b = Buffer.alloc(12 + data.length);
    b.writeUInt32BE(data.length, 0);
    b.write(type, 4, 'ascii');
    data.copy(b, 8);
    let c = 0xffffffff;
    for (let i = 4; i < 8 + data.length; i++) c = CRC_TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
    b.writeUInt32BE((c ^ 0xffffffff) >>> 0, 8 + data.length);
    return b;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = q ? 3 : opaque ? 2 : 6;
  const plte = q ? [chunk('PLTE', Buffer.from(q.palette.flat()))] : [];
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), ...plte,
    chunk('IDAT', deflateSync(raw, { level: 9, memLevel: 9 })), chunk('IEND', Buffer.alloc(0))]);
}
