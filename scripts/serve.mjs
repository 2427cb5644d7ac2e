// serve.mjs: serves the demo page (web/) and the built package (dist/ as /dist/) over
// HTTP on localhost, with no CDN and nothing but Node's own http module. Every response
// carries Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy:
// require-corp, so the page is cross-origin isolated (crossOriginIsolated === true) and a
// sampler may use threads where the build has them; everything the demo loads is
// same-origin, which require-corp allows without CORP headers.
//   PORT=8080 node scripts/serve.mjs      (the default port is 8080; the next free one is used)
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mountsFor = (dist) => [['/dist/', dist], ['/', join(root, 'web')]];
const MOUNTS = mountsFor(join(root, 'dist'));
// What makes a page cross-origin isolated (SharedArrayBuffer, so wasm threads).
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml', '.ts': 'text/plain',
};

// Maps a URL path to a file inside one of the mounts, or null (never outside them).
export function resolvePath(urlPath, mounts = MOUNTS) {
  let p;
  try { p = decodeURIComponent(urlPath.split('?')[0]); } catch { return null; }
  for (const [prefix, dir] of mounts) {
    if (!p.startsWith(prefix)) continue;
    let file = normalize(join(dir, p.slice(prefix.length)));
    if (file !== dir && !file.startsWith(dir + sep)) return null;
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    return existsSync(file) ? file : null;
  }
  return null;
}

// dist: the folder served as /dist/ (default: the repository's dist/; tests give the
// package under test).
export function startServer(port = Number(process.env.PORT) || 8080, host = '127.0.0.1', { dist } = {}) {
  const mounts = dist ? mountsFor(dist) : MOUNTS;
  const server = createServer((req, res) => {
    const file = resolvePath(req.url || '/', mounts);
    if (!file) {
      res.writeHead(404, { ...ISOLATION_HEADERS, 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { ...ISOLATION_HEADERS, 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-cache' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    const tryListen = (p, left) => {
      server.once('error', (e) => (e.code === 'EADDRINUSE' && left > 0 ? tryListen(p + 1, left - 1) : reject(e)));
      server.listen(p, host, () => resolve({ server, url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${server.address().port}/` }));
    };
    tryListen(port, 20);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const { url } = await startServer();
  console.log(`demo: serving web/ and dist/ at ${url}  (Ctrl+C to stop)`);
}
