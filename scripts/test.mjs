// test.mjs: runs every test of the project, in order, and prints one summary.
//
//   0. static checks: clang-format (scripts/check-format.mjs), eslint (scripts/check-lint.mjs),
//      the include layers of src/ (scripts/check-layers.mjs), Catch2 tags
//      (scripts/check-test-tags.mjs), commit subjects (scripts/check-commits.mjs)
//   1. Catch2 suite of the C++ core, built with em++ and run under Node (build/osw-tests.js),
//      then natively under ASan/UBSan with a bounded libFuzzer run (scripts/native-tests.mjs)
//   2. npm pack, and the tarball installed into an empty app in .cache/app
//   3. tsc on tests/ts (the hand-written index.d.ts, used as a user would)
//   4. node:test files in tests/js, against the installed package (OSW_PACKAGE)
//   5. the same files under the oldest supported and the newest Node (NODE_VERSIONS, from
//      the npm registry's node-<os>-<arch> packages, installed once into .cache/node/);
//      then tests/runtimes: Deno, Bun and Cloudflare's workerd
//   6. tests/browser in Chromium, Firefox and WebKit (OSW_BROWSER): the files of
//      EVERY_ENGINE in each, the others (Playwright-only: demo, bundlers) in Chromium
// `npm test` runs scripts/setup.mjs and scripts/build.mjs first.
//
// Options: --only=<regex> runs only the node:test files whose name matches (tests/js, in
// the system Node; no other Node, no browser); --engines=chromium,webkit picks engines.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.cache');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const ENGINES = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };
const engines = (process.argv.find((a) => a.startsWith('--engines='))?.slice(10) || Object.keys(ENGINES).join(',')).split(',');
for (const e of engines) if (!ENGINES[e]) { console.error(`--engines: unknown engine ${e} (${Object.keys(ENGINES).join(', ')})`); process.exit(2); }
// The browser tests that run in every engine (through helpers.mjs openBrowser); the other
// files of tests/browser use Playwright's page API and run in Chromium only.
const EVERY_ENGINE = new Set(['compat.test.mjs', 'conformance.test.mjs', 'csp.test.mjs', 'demo-smoke.test.mjs', 'engine.test.mjs',
  'image-helpers.test.mjs', 'package.test.mjs', 'threads.test.mjs', 'worker.test.mjs']);
// Node versions besides the system one, pinned: the oldest line package.json's engines
// allows (>=18: its last release) and the newest release on the npm registry.
const NODE_VERSIONS = ['18.20.8', '26.12.1'];
const conformanceCounts = []; // 'Node 20.20.2 188/188 (AffineGrid 12/12)', 'Chromium 188/188 (AffineGrid 12/12)', ...
const env = { ...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };
const summary = [];
let failed = false;
let passedCount = 0, failedCount = 0;
const t0 = Date.now();

function step(name, fn) {
  const t = Date.now();
  console.log(`\n=== ${name}`);
  try {
    const note = fn();
    summary.push(`ok    ${name}${note ? ` (${note})` : ''} ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } catch (e) {
    failed = true;
    summary.push(`FAIL  ${name}: ${e.message.split('\n')[0]}`);
  }
}

function runLogged(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 256 << 20, ...opts });
  process.stdout.write(r.stdout || '');
  process.stderr.write(r.stderr || '');
  if (r.error) throw r.error;
  return r;
}

// 0. Static checks, cheap, first: one line per check.
const CHECKS = [
  ['format', 'scripts/check-format.mjs'],   // clang-format over src/ and bindings/*.{h,cpp}
  ['lint', 'scripts/check-lint.mjs'],       // eslint over the JavaScript (eslint.config.mjs)
  ['layers', 'scripts/check-layers.mjs'],   // includes in src/ point down the layers
  ['test tags', 'scripts/check-test-tags.mjs'], // each Catch2 case: a module and a layer tag
  ['commits', 'scripts/check-commits.mjs'], // commit subjects of at most 72 characters
];
step('static checks (format, lint, layers, test tags, commit messages)', () => {
  const bad = [];
  for (const [name, script] of CHECKS) {
    const r = runLogged('node', [script]);
    if (r.status === 0) passedCount++;
    else { failedCount++; bad.push(name); }
  }
  if (bad.length) throw new Error(`failed: ${bad.join(', ')}`);
  return `${CHECKS.length} checks: ${CHECKS.map(([n]) => n).join(', ')}`;
});

// 1. Catch2 (not with --only, which runs node:test files)
if (!only) {
  step('Catch2 (C++ core under Node, wasm SIMD)', () => {
    execFileSync('cmake', ['--build', 'build', '--parallel', '2', '--target', 'osw-tests'], { cwd: root, env, stdio: 'inherit' });
    const r = runLogged('node', ['--no-experimental-fetch', 'build/osw-tests.js', '--use-colour', 'no']);
    const out = r.stdout || '';
    const m = out.match(/All tests passed \((\d+) assertions? in (\d+) test cases?\)/);
    const f = out.match(/test cases?:\s+(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/);
    if (m) passedCount += Number(m[2]);
    if (f) { passedCount += Number(f[2]); failedCount += Number(f[3]); }
    if (r.status !== 0) throw new Error(`Catch2 exited with ${r.status}`);
    return m ? `${m[2]} test cases, ${m[1]} assertions` : '';
  });

  // 1b. The same Catch2 suite natively under ASan/UBSan, and a bounded libFuzzer run.
  step('native: sanitizers (ASan/UBSan) and bounded fuzzing', () => {
    const r = runLogged('node', ['scripts/native-tests.mjs']);
    const m = (r.stdout || '').match(/native: (\d+) passed, (\d+) failed/);
    if (m) { passedCount += Number(m[1]); failedCount += Number(m[2]); }
    if (r.status !== 0) throw new Error(`native tests exited with ${r.status}`);
    if (!m) throw new Error('native tests printed no summary');
    return `${m[1]} passed`;
  });
}

// 2. npm pack + install into an empty app
let packageDir = '';
let tarball = '';
step('npm pack and install into an empty app', () => {
  const packDir = join(cache, 'pack');
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: root, env, encoding: 'utf8' });
  const info = JSON.parse(out)[0];
  tarball = join(packDir, info.filename);
  const app = join(cache, 'app');
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'osw-test-app', private: true, version: '0.0.0' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: app, env, stdio: 'inherit' });
  packageDir = join(app, 'node_modules', 'onnx-sampling-wasm');
  return `${info.entryCount} files, ${(info.size / 1024).toFixed(1)} KiB packed`;
});

// 3. TypeScript declarations
step('tsc on tests/ts (index.d.ts)', () => {
  const r = runLogged(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tests/ts']);
  if (r.status !== 0) throw new Error('tsc reported errors');
});

// Runs the node:test files of one folder against the installed package; returns the note.
// opts: args (more node flags), env (more variables), node (the binary; default the system
// one), runtime (names the conformance count in the summary: a Node version or an engine).
function nodeTests(folder, label, files, { args = [], env: more = {}, node = 'node', runtime } = {}) {
  if (!files.length) throw new Error(`no ${label} test files`);
  const r = runLogged(node, ['--test', '--test-reporter=spec', ...args, ...files.map((f) => join('tests', folder, f))], {
    env: { ...env, OSW_PACKAGE: packageDir, OSW_TARBALL: tarball, ...more },
  });
  const out = r.stdout || '';
  const pass = Number((out.match(/ℹ pass (\d+)/) || [])[1] || 0);
  const fail = Number((out.match(/ℹ fail (\d+)/) || [])[1] || 0);
  passedCount += pass;
  failedCount += fail;
  // conformance.test.mjs's per-op lines (Node) or its one summary line (browsers); the
  // AffineGrid count is shown apart (the operator is new, its 12 cases are in the total)
  // (browsers and the other runtimes: a line per runtime, 'conformance in <name>: p/t passed (...)')
  const withAffine = (conf, text) => {
    const affine = text.match(/AffineGrid:? (\d+)\/(\d+)/);
    return conf + (affine ? ` (AffineGrid ${affine[1]}/${affine[2]})` : ' (AffineGrid not run)');
  };
  const named = [...out.matchAll(/conformance in ([^:\n]+): (\d+)\/(\d+) passed([^\n]*)/g)];
  const confs = named.map((m) => [m[1], withAffine(`${m[2]}/${m[3]}`, m[4])]);
  const ops = [...out.matchAll(/ℹ (?:Resize|Upsample|GridSample|AffineGrid): (\d+)\/(\d+) passed/g)];
  if (!named.length && ops.length && runtime)
    confs.push([runtime, withAffine(`${ops.reduce((a, m) => a + Number(m[1]), 0)}/${ops.reduce((a, m) => a + Number(m[2]), 0)}`, out)]);
  for (const [name, c] of confs) conformanceCounts.push(`${name} ${c}`);
  const conf = confs.map(([name, c]) => (confs.length > 1 ? `${name} ${c}` : c)).join(', ');
  if (r.status !== 0 || fail > 0) throw new Error(`${fail} ${label} tests failed`);
  if (pass === 0) throw new Error(`no ${label} test ran`);
  return `${pass} tests in ${files.length} files${conf ? `; conformance ${conf}` : ''}`;
}
const testFiles = (folder) => readdirSync(join(root, 'tests', folder)).filter((f) => f.endsWith('.test.mjs')).sort();

// 4. node:test files
step(`node:test (tests/js), Node ${process.versions.node}`, () => {
  let files = testFiles('js');
  if (only) files = files.filter((f) => new RegExp(only).test(f));
  return nodeTests('js', 'node', files, { runtime: `Node ${process.versions.node}` });
});

// 5. The same under other Node versions. The binaries come from the npm registry's
// node-<platform>-<arch> packages (the official builds, as the `node` package installs
// them), once, into .cache/node/<version>.
function nodeBinary(version) {
  const pkg = `node-${process.platform}-${process.arch}`;
  const dir = join(cache, 'node', version);
  const bin = join(dir, 'node_modules', pkg, 'bin', 'node');
  if (!existsSync(bin)) {
    console.log(`installing ${pkg}@${version} into ${dir}`);
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', dir, `${pkg}@${version}`],
      { cwd: root, env, stdio: 'inherit' });
  }
  const got = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (got !== `v${version}`) throw new Error(`${bin} is ${got}, expected v${version}`);
  return bin;
}
if (!only) {
  for (const version of NODE_VERSIONS) {
    step(`node:test (tests/js), Node ${version}`, () => {
      const bin = nodeBinary(version);
      return nodeTests('js', `Node ${version}`, testFiles('js'), { node: bin, runtime: `Node ${version}` });
    });
  }
}

// 5b. The other JavaScript runtimes (tests/runtimes): Deno and Bun (their binaries come in
// the npm packages deno and @oven/bun-linux-x64, devDependencies), and Cloudflare's workerd
// through wrangler (a devDependency; it needs Node 22 or later: the newest Node above).
if (!only && existsSync(join(root, 'tests', 'runtimes'))) {
  for (const file of testFiles('runtimes')) {
    const name = file.replace(/\.test\.mjs$/, '');
    step(`runtimes: ${name} (tests/runtimes/${file})`, () => nodeTests('runtimes', name, [file],
      { env: { OSW_NODE22: nodeBinary(NODE_VERSIONS[NODE_VERSIONS.length - 1]) } }));
  }
}

// 6. Browsers: the packed package, the conformance suite, CSP and the demo in each engine.
if (existsSync(join(root, 'tests', 'browser')) && !only) {
  for (const engine of engines) {
    const files = testFiles('browser').filter((f) => engine === 'chromium' || EVERY_ENGINE.has(f));
    const how = { chromium: 'Playwright', firefox: 'puppeteer, WebDriver BiDi', webkit: 'WebDriver, Xvfb' }[engine];
    step(`browser tests, ${ENGINES[engine]} (${how})`, () => nodeTests('browser', `${ENGINES[engine]}`, files,
      { args: ['--test-concurrency=1'], env: { OSW_BROWSER: engine }, runtime: ENGINES[engine] }));
  }
}

console.log('\n=== summary');
for (const line of summary) console.log(line);
if (conformanceCounts.length) console.log(`conformance (Resize, Upsample, GridSample, AffineGrid): ${conformanceCounts.join(', ')}`);
console.log(`total time ${((Date.now() - t0) / 1000).toFixed(1)} s`);
if (failed && failedCount === 0) failedCount = 1;
console.log(`${passedCount} passed, ${failedCount} failed`);
process.exit(failed ? 1 : 0);
