// helpers.mjs: what the browser tests share: where the package under test is, a static
// HTTP server on 127.0.0.1 with mount points, the browsers (Chromium through playwright-core,
// Firefox through puppeteer-core over WebDriver BiDi, WebKitGTK through selenium-webdriver
// over W3C WebDriver), a page error collector, and PNG pixel reading done by the browser.
//
// Two ways to drive a browser:
//   launchBrowser() + collectErrors(page)   Chromium only, the Playwright API (demo, Vite,
//                                           bundler tests use Playwright's page methods)
//   openBrowser() -> newPage()              any engine through one small interface: goto,
//                                           evaluate, waitFor, errors, close (the tests that
//                                           run in every engine)
//
// Env:
//   OSW_PACKAGE      the installed package folder (scripts/test.mjs sets it); unset: the repo
//                    itself (its dist/ must be built)
//   OSW_TARBALL      the packed .tgz; unset: packed from OSW_PACKAGE into a temp dir
//   OSW_BROWSER      the engine of openBrowser(): chromium (default), firefox or webkit
//   OSW_CHROMIUM     the Chromium binary; default /usr/bin/chromium
//   OSW_FIREFOX      the Firefox binary; default /usr/bin/firefox-esr
//   OSW_CONFORMANCE  the conformance data; default tests/conformance (tests/js/onnx-cases.mjs)
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CONFORMANCE_DIR } from '../js/onnx-cases.mjs';

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

/** The conformance data: $OSW_CONFORMANCE, or the repository's tests/conformance. */
export function conformanceDir() {
  return CONFORMANCE_DIR;
}

// ------------------------------------------------------------------ static server

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json',
  '.png': 'image/png', '.svg': 'image/svg+xml',
};

export const BLANK_PAGE = '/__blank.html';

// The response headers that make a page cross-origin isolated (crossOriginIsolated, shared
// memory: what createSampler({ threads }) needs in a browser); pass as startStaticServer's headers.
export const ISOLATION_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
export const ERROR_HOOK = '/__osw-errors.js';

// The page side of the error collector for engines whose driver reports no console or page
// errors (WebKit over classic WebDriver): the first script of every HTML page when the server
// runs with { errorHook: true }. An external script, so a strict CSP allows it. It records into
// window.__oswErrors, in the formats of collectErrors().
const ERROR_HOOK_SOURCE = `(() => {
  const errors = (window.__oswErrors = []);
  addEventListener('error', (e) => {
    const el = e.target;
    if (el && el !== window && el.tagName) errors.push('request failed: ' + (el.src || el.href || el.tagName));
    else errors.push('pageerror: ' + (e.error && e.error.message || e.message));
  }, true);
  addEventListener('unhandledrejection', (e) => errors.push('pageerror: ' + (e.reason && e.reason.message || e.reason)));
  addEventListener('securitypolicyviolation', (e) => errors.push('CSP violation: ' + e.violatedDirective + ' blocked ' + e.blockedURI));
  const error = console.error;
  console.error = function (...args) { errors.push('console.error: ' + args.join(' ')); return error.apply(this, args); };
})();
`;

/**
 * Serves each [urlPrefix, dir] mount (first match wins; prefixes end with '/') on
 * 127.0.0.1 at a free port, plus an empty page at BLANK_PAGE. Returns { url, close,
 * requests } where requests lists [status, url path with query] of every request.
 *
 * Options: headers (added to every response, e.g. a Content-Security-Policy); errorHook
 * (true: every HTML page, BLANK_PAGE too, starts with <script src=ERROR_HOOK>, which
 * openBrowser('webkit') pages need for errors()).
 */
export function startStaticServer(mounts, { headers = {}, errorHook = false } = {}) {
  const requests = [];
  const hookTag = errorHook ? `<script src="${ERROR_HOOK}"></script>` : '';
  const server = createServer((req, res) => {
    const raw = req.url || '/';
    let path;
    try { path = decodeURIComponent(raw.split('?')[0]); } catch { path = ''; }
    const send = (status, type, body) => {
      requests.push([status, raw]);
      res.writeHead(status, { ...headers, 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (path === BLANK_PAGE) return send(200, TYPES['.html'], `<!doctype html><meta charset="utf-8">${hookTag}<link rel="icon" href="data:,"><title>blank</title>`);
    if (errorHook && path === ERROR_HOOK) return send(200, TYPES['.js'], ERROR_HOOK_SOURCE);
    for (const [prefix, dir] of mounts) {
      if (!path.startsWith(prefix)) continue;
      let file = normalize(join(dir, path.slice(prefix.length)));
      if (file !== dir && !file.startsWith(dir + sep)) break;
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
      if (!existsSync(file)) break;
      if (errorHook && extname(file) === '.html') {
        // the hook goes first: right after <head>, or at the very start
        const html = readFileSync(file, 'utf8');
        const at = html.search(/<head[^>]*>/i);
        const cut = at < 0 ? 0 : at + html.slice(at).indexOf('>') + 1;
        return send(200, TYPES['.html'], html.slice(0, cut) + hookTag + html.slice(cut));
      }
      requests.push([200, raw]);
      res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
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

// ------------------------------------------------------------------ every engine

export const ENGINES = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };

/** The engine the tests of this process run in: $OSW_BROWSER, default chromium. */
export function currentEngine() {
  const e = (process.env.OSW_BROWSER || 'chromium').toLowerCase();
  if (!Object.hasOwn(ENGINES, e)) throw new Error(`OSW_BROWSER=${process.env.OSW_BROWSER}: expected one of ${Object.keys(ENGINES).join(', ')}`);
  return e;
}

/**
 * Starts a browser of one engine (default: currentEngine()) and returns
 *   { engine, label, version, newPage({ width, height }), close() }
 * where a page is
 *   { goto(url), evaluate(fn, arg), waitFor(fn, arg, timeoutMs), errors(), close(), raw }.
 * evaluate runs fn(arg) in the page (fn may be async; arg and the result go through JSON,
 * so undefined properties vanish); errors() resolves to the page errors, console errors and
 * failed or >= 400 requests seen so far, as collectErrors() words them. WebKit pages report
 * errors through the page's own hook (the server needs { errorHook: true }) and must be
 * opened one at a time (each is a WebDriver session of its own).
 */
export async function openBrowser(engine = currentEngine()) {
  if (engine === 'chromium') return openChromium();
  if (engine === 'firefox') return openFirefox();
  if (engine === 'webkit') return openWebKit();
  throw new Error(`unknown engine ${engine}`);
}

// The function source and its argument as one expression, for drivers that take script text.
const callSource = (fn) => `(${fn.toString()})`;

async function openChromium() {
  const browser = await launchBrowser();
  return {
    engine: 'chromium', label: ENGINES.chromium, version: browser.version(),
    async newPage({ width = 1280, height = 800 } = {}) {
      const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
      const errors = collectErrors(page);
      return {
        raw: page,
        goto: async (url) => { await page.goto(url); },
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        waitFor: (fn, arg, timeout = 30_000) => page.waitForFunction(fn, arg, { timeout }).then((h) => h.jsonValue()),
        errors: async () => errors.slice(),
        close: () => page.close(),
      };
    },
    close: () => browser.close(),
  };
}

async function openFirefox() {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: process.env.OSW_FIREFOX || '/usr/bin/firefox-esr', headless: true, timeout: 60_000,
  });
  return {
    engine: 'firefox', label: ENGINES.firefox, version: (await browser.version()).replace(/^firefox\//, ''),
    async newPage({ width = 1280, height = 800 } = {}) {
      const page = await browser.newPage();
      await page.setViewport({ width, height, deviceScaleFactor: 1 });
      const errors = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
      page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
      page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
      return {
        raw: page,
        goto: async (url) => { await page.goto(url, { waitUntil: 'load', timeout: 60_000 }); },
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        waitFor: (fn, arg, timeout = 30_000) => page.waitForFunction(fn, { timeout, polling: 50 }, arg).then((h) => h.jsonValue()),
        errors: async () => errors.slice(),
        close: () => page.close(),
      };
    },
    close: () => browser.close(),
  };
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createNetServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => res(port)); });
  });
}

// WebKitGTK: WebKitWebDriver (Debian webkit2gtk-driver) starts MiniBrowser in automation
// mode for each session; MiniBrowser has no headless mode, so the driver runs under Xvfb.
// selenium-webdriver speaks W3C WebDriver to it as to any remote end.
async function openWebKit() {
  const { Builder, Capabilities } = await import('selenium-webdriver');
  const port = await freePort();
  const xvfb = spawn('xvfb-run', ['-a', '-s', '-screen 0 1400x1000x24', 'WebKitWebDriver', `--port=${port}`, '--host=127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'pipe'], detached: true,
  });
  let stderr = '';
  xvfb.stderr.on('data', (d) => { stderr += d; });
  const killAll = () => { try { process.kill(-xvfb.pid, 'SIGTERM'); } catch { /* gone */ } };
  process.once('exit', killAll);
  const base = `http://127.0.0.1:${port}`;
  for (let t0 = Date.now(); ;) {
    try { if ((await fetch(`${base}/status`)).ok) break; } catch { /* not up yet */ }
    if (xvfb.exitCode !== null || Date.now() - t0 > 30_000) {
      killAll();
      throw new Error(`WebKitWebDriver did not start on port ${port}: ${stderr.trim() || `exit ${xvfb.exitCode}`}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const caps = () => new Capabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { args: ['--automation'] } });
  let version = '';
  const newPage = async ({ width = 1280, height = 800 } = {}) => {
    const driver = await new Builder().usingServer(base).withCapabilities(caps()).build();
    version ||= (await driver.getCapabilities()).get('browserVersion');
    await driver.manage().setTimeouts({ script: 600_000, pageLoad: 60_000 });
    await driver.manage().window().setRect({ x: 0, y: 0, width, height });
    // executeAsyncScript: the driver compiles the script itself (no eval in the page, so a
    // page's CSP does not apply); the last argument is the callback.
    const evaluate = async (fn, arg) => {
      const r = await driver.executeAsyncScript(`const done = arguments[arguments.length - 1];
        Promise.resolve().then(() => ${callSource(fn)}(arguments[0]))
          .then((value) => done({ value }), (e) => done({ error: String(e && e.stack ? e.name + ': ' + e.message + '\\n' + e.stack : e) }));`,
      arg === undefined ? null : arg);
      if (r && r.error !== undefined) throw new Error(`evaluate in WebKit: ${r.error}`);
      return r ? r.value : undefined;
    };
    return {
      raw: driver,
      goto: (url) => driver.get(url),
      evaluate,
      async waitFor(fn, arg, timeout = 30_000) {
        for (const t0 = Date.now(); ;) {
          const v = await evaluate(fn, arg);
          if (v) return v;
          if (Date.now() - t0 > timeout) throw new Error(`waitFor: ${fn} stayed false for ${timeout} ms`);
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      async errors() {
        const list = await driver.executeScript('return window.__oswErrors === undefined ? null : window.__oswErrors.slice()');
        if (list === null) throw new Error('errors(): the page has no error hook (serve it with startStaticServer(mounts, { errorHook: true }))');
        return list;
      },
      close: () => driver.quit(),
    };
  };
  return {
    engine: 'webkit', label: ENGINES.webkit,
    get version() { return version || 'WebKitGTK'; },
    newPage,
    async close() {
      killAll();
      process.removeListener('exit', killAll);
    },
  };
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

// Tensors between Node and a page: { type, dims, array (the TypedArray's name), bytes
// (base64) }. wire() makes one in Node; installPageWire, run in the page
// (page.evaluate(installPageWire), after each goto), gives the page
// globalThis.__oswWire = { fromWire, toWire, runCases } for the other direction and back.
export const wire = (t) => (t === null ? null : { type: t.type, dims: t.dims, array: t.data.constructor.name, bytes: b64.encode(t.data) });

export function installPageWire() {
  const fromWire = (w) => {
    if (w === null) return null;
    const bin = atob(w.bytes);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return { type: w.type, dims: w.dims, data: new globalThis[w.array](bytes.buffer) };
  };
  const toWire = (t) => {
    const u8 = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    let s = '';
    for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000));
    return { type: t.type, dims: Array.from(t.dims, Number), array: t.data.constructor.name, bytes: btoa(s) };
  };
  // ONNX cases ({ op, opset, attributes, inputs: wire[] }) through sampler.run(): for each,
  // { output: wire } or { error: 'Name: message' }.
  const runCases = (sampler, cases) => cases.map((c) => {
    try {
      const out = sampler.run({ opType: c.op, opset: c.opset, attributes: c.attributes }, c.inputs.map(fromWire));
      if (!Array.isArray(out) || out.length !== 1) return { error: `run() returned ${Array.isArray(out) ? out.length + ' outputs' : typeof out}` };
      return { output: toWire(out[0]) };
    } catch (e) {
      return { error: `${e.name}: ${e.message}` };
    }
  });
  globalThis.__oswWire = { fromWire, toWire, runCases };
}

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
