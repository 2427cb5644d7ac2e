// setup.mjs: installs what the build and the tests need, and nothing when all is there.
//
// - Debian packages (emscripten, catch2, the three browsers, ...): installed with apt-get when run as
//   root; otherwise the script stops with the exact command to run.
// - npm devDependencies: `npm ci` when node_modules is missing or older than
//   package-lock.json (a stamp file records the lock's hash).
//
// Flags: --quiet (print only what it does).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');

// What must exist -> the Debian package that provides it.
const NEEDS = [
  { what: 'emcc (Emscripten)', ok: () => onPath('emcc') && onPath('emcmake'), pkg: 'emscripten' },
  { what: 'cmake', ok: () => onPath('cmake'), pkg: 'cmake' },
  { what: 'Catch2 v2 headers', ok: () => existsSync('/usr/include/catch2/catch.hpp'), pkg: 'catch2' },
  { what: 'acorn for emcc', ok: () => existsSync('/usr/share/nodejs/acorn'), pkg: 'node-acorn' },
  { what: 'Chromium (browser tests)', ok: () => existsSync('/usr/bin/chromium'), pkg: 'chromium' },
  { what: 'Firefox ESR (browser tests)', ok: () => existsSync('/usr/bin/firefox-esr'), pkg: 'firefox-esr' },
  { what: 'WebKitGTK WebDriver and MiniBrowser (browser tests)', ok: () => onPath('WebKitWebDriver'), pkg: 'webkit2gtk-driver' },
  { what: 'Xvfb (WebKit has no headless mode)', ok: () => onPath('xvfb-run') && onPath('Xvfb'), pkg: 'xvfb' },
  { what: 'xauth (for xvfb-run)', ok: () => onPath('xauth'), pkg: 'xauth' },
  { what: 'clang-format 14 (scripts/check-format.mjs)', ok: () => onPath('clang-format-14'), pkg: 'clang-format-14' },
  { what: 'SIMDe headers (native sanitizer build)', ok: () => existsSync('/usr/include/simde/wasm/simd128.h'), pkg: 'libsimde-dev' },
  { what: 'clang 14 sanitizer/fuzzer runtime', ok: () => existsSync('/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a'), pkg: 'libclang-rt-14-dev' },
  // Debian's torch for /usr/bin/python3 (a file check: importing torch takes seconds)
  { what: 'PyTorch (tests/js/affinegrid-torch.test.mjs)', ok: () => existsSync('/usr/lib/python3/dist-packages/torch/__init__.py'), pkg: 'python3-torch' },
  // The compat modes' oracles (tests/compat/oracle_*.py, tests/js/compat-libs.test.mjs)
  { what: 'Pillow (compat \'pillow\' oracle)', ok: () => existsSync('/usr/lib/python3/dist-packages/PIL/__init__.py'), pkg: 'python3-pil' },
  { what: 'OpenCV (compat \'opencv\' oracle)', ok: () => existsSync('/usr/lib/python3/dist-packages/cv2/__init__.py') || existsSync('/usr/lib/python3/dist-packages/cv2.cpython-311-x86_64-linux-gnu.so'), pkg: 'python3-opencv' },
  { what: 'NumPy (the oracles)', ok: () => existsSync('/usr/lib/python3/dist-packages/numpy/__init__.py'), pkg: 'python3-numpy' },
];

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

const missing = NEEDS.filter((n) => !n.ok());
if (missing.length) {
  const pkgs = [...new Set(missing.map((m) => m.pkg))];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`setup: missing ${missing.map((m) => m.what).join(', ')}.\n` +
      `Install them with:\n  sudo apt-get update && sudo apt-get install -y ${pkgs.join(' ')}\n` +
      'then run the command again.');
    process.exit(1);
  }
  // With their recommended packages (Chromium's fonts and Mesa among them), as verified.
  console.log(`setup: installing Debian packages: ${pkgs.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...pkgs], { stdio: 'inherit', env });
  const still = NEEDS.filter((n) => !n.ok());
  if (still.length) {
    console.error(`setup: still missing after apt-get: ${still.map((m) => m.what).join(', ')}`);
    process.exit(1);
  }
} else if (!quiet) {
  console.log('setup: Debian packages present');
}

// npm devDependencies, reinstalled only when the lock file changed.
const lock = join(root, 'package-lock.json');
const stamp = join(root, 'node_modules', '.osw-lock-hash');
const hash = createHash('sha256').update(readFileSync(lock)).digest('hex');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
  console.log('setup: installing npm devDependencies (npm ci)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, hash);
} else if (!quiet) {
  console.log('setup: npm devDependencies present');
}
