// readme-types.test.mjs: every js / ts code block of README.md (and the module script of its
// html block) compiles under `tsc --strict`, against the declarations of the installed
// package (OSW_PACKAGE, resolved through its package.json as a user's project would) and
// onnxruntime-web's own types, with the repository's TypeScript (5.x) and with the oldest
// one the README promises (4.9, the devDependency typescript-min). Each block is its own ES
// module; the names a fragment uses without defining (a sampler, an image, ...) are declared
// before it, only where the block does not define them itself. Also: README.md's links are
// absolute (the npm page has no docs/ beside it) and name no SEMANTICS.md.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packageDir = process.env.OSW_PACKAGE ? resolve(process.env.OSW_PACKAGE) : repoRoot;
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
// The other pages whose js / ts blocks must compile too.
const DOC_FILES = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

// The README's code blocks: [language, code, line].
function codeBlocks(text) {
  const blocks = [];
  const re = /^```(\w*)\n([\s\S]*?)^```$/gm;
  let m;
  while ((m = re.exec(text))) blocks.push([m[1], m[2], text.slice(0, m.index).split('\n').length]);
  return blocks;
}

// What a fragment may use without defining it.
const CONTEXT = {
  sampler: "const sampler = await (await import('onnx-sampling-wasm')).createSampler();",
  x: "const x = { type: 'float32', dims: [1, 3, 64, 64], data: new Float32Array(3 * 64 * 64) };",
  X: "const X = { type: 'float32', dims: [1, 3, 64, 64], data: new Float32Array(3 * 64 * 64) };",
  scales: "const scales = { type: 'float32', dims: [4], data: new Float32Array([1, 1, 2, 2]) };",
  imageData: 'declare const imageData: ImageData;',
  pixels: 'declare const pixels: Float32Array;',
  use: 'declare function use(data: Float32Array): void;',
};
function defines(code, name) {
  return new RegExp(`\\b(const|let|var|function)\\s+${name}\\b|\\b(const|let|var)\\s+[[{][^=]*\\b${name}\\b[^=]*[\\]}]\\s*=|import\\s*{[^}]*\\b${name}\\b`).test(code);
}
function uses(code, name) {
  return new RegExp(`(^|[^.\\w'])${name}\\b`, 'm').test(code.replace(/\/\/.*$/gm, ''));
}

const sources = [];
for (const [file, lang, code, line] of DOC_FILES.flatMap((f) => codeBlocks(readFileSync(join(repoRoot, f), 'utf8')).map((b) => [f, ...b]))) {
  let body = code;
  if (lang === 'html') {
    const m = code.match(/<script type="module">([\s\S]*?)<\/script>/);
    if (!m) continue;
    body = m[1];
  } else if (!['js', 'ts', 'javascript', 'typescript'].includes(lang)) {
    continue;
  }
  const prelude = Object.keys(CONTEXT).filter((n) => uses(body, n) && !defines(body, n)).map((n) => CONTEXT[n]);
  sources.push({ name: `${file.replace(/\W/g, '_')}-line-${line}.mts`, file, line, lang, text: `${prelude.join('\n')}\n${body}\nexport {};\n`, usesOrt: /onnxruntime-web/.test(body), usesNode: /from 'node:/.test(body) });
}

test('README.md and docs/ have the code blocks this test compiles', () => {
  assert.ok(sources.filter((s) => s.file === 'README.md').length >= 9, `${sources.length} blocks`);
  assert.ok(sources.some((s) => s.file === 'docs/api.md'), 'docs/api.md blocks are compiled');
  assert.ok(sources.some((s) => s.lang === 'ts' && s.usesOrt), 'a TypeScript block with onnxruntime-web');
  assert.ok(sources.some((s) => s.lang === 'html'), 'the html block\'s module script');
});

test('README.md: links are absolute or in-page, and the semantics file has its real name', () => {
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  assert.ok(links.length > 5);
  assert.deepEqual(links.filter((l) => !/^(https:\/\/|#)/.test(l)), []);
  assert.doesNotMatch(readme, /SEMANTICS\.md/);
  for (const l of links.filter((x) => x.startsWith('#'))) {
    const anchors = [...readme.matchAll(/^#+ (.*)$/gm)].map((m) => m[1].toLowerCase().replace(/[^\w\s-]/g, '').trim().replace(/\s/g, '-'));
    assert.ok(anchors.includes(l.slice(1)), `anchor ${l} exists`);
  }
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  for (const l of links.filter((x) => x.startsWith('https://github.com/') || x.startsWith('https://raw.githubusercontent.com/'))) {
    const repoUrl = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    const m = l.match(/^https:\/\/(?:github\.com\/([^/]+\/[^/]+)(?:\/(?:blob|tree)\/main\/(.*))?|raw\.githubusercontent\.com\/([^/]+\/[^/]+)\/main\/(.*))$/);
    assert.ok(m, l);
    assert.equal(`https://github.com/${m[1] || m[3]}`, repoUrl, `${l} points into package.json's repository`);
    const path = m[2] || m[4];
    if (path) assert.ok(existsSync(join(repoRoot, path.replace(/#.*$/, ''))), `${path} exists in the repository`);
  }
});

// Every name dist/index.d.ts exports (its own and those it re-exports from image.d.ts) is
// documented in docs/api.md, as `Name` in backquotes.
export function undocumentedExports(dts, api) {
  const names = new Set([...dts.matchAll(/^export (?:declare )?(?:type|interface|function|const|class) (\w+)/gm)].map((m) => m[1]));
  for (const m of dts.matchAll(/^export type \{([^}]*)\} from/gm)) for (const n of m[1].match(/\w+/g)) names.add(n);
  return [...names].filter((n) => !api.includes('`' + n + '`'));
}

test('every export of dist/index.d.ts is documented in docs/api.md', () => {
  const dts = readFileSync(join(packageDir, 'dist', 'index.d.ts'), 'utf8');
  const api = readFileSync(join(repoRoot, 'docs', 'api.md'), 'utf8');
  assert.ok(/export function createSampler/.test(dts));
  assert.deepEqual(undocumentedExports(dts, api), []);
  assert.deepEqual(undocumentedExports(dts + '\nexport interface NotDocumentedAnywhere {}\n', api), ['NotDocumentedAnywhere'], 'the check is live');
});

function compileAll(tscJs, label, files, types = []) {
  const dir = mkdtempSync(join(tmpdir(), 'osw-readme-ts-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(packageDir, join(dir, 'node_modules', 'onnx-sampling-wasm'), 'dir');
    mkdirSync(join(dir, 'node_modules', '@types'));
    for (const dep of ['onnxruntime-web', 'onnxruntime-common', '@types/node'])
      symlinkSync(join(repoRoot, 'node_modules', dep), join(dir, 'node_modules', dep), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-blocks', private: true, type: 'module' }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext',
        lib: ['es2022', 'dom'], types, skipLibCheck: false, allowJs: false,
      },
      files: files.map((f) => f.name),
    }));
    for (const f of files) writeFileSync(join(dir, f.name), f.text);
    const r = spawnSync(process.execPath, [tscJs, '-p', dir, '--pretty', 'false'], { encoding: 'utf8' });
    const out = (r.stdout + r.stderr).replaceAll(dir + '/', '');
    assert.equal(r.status, 0, `${label}:\n${out}`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TSC = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const TSC_MIN = join(repoRoot, 'node_modules', 'typescript-min', 'bin', 'tsc');
const version = (dir) => JSON.parse(readFileSync(join(repoRoot, 'node_modules', dir, 'package.json'), 'utf8')).version;

test(`every README block compiles under tsc --strict (TypeScript ${version('typescript')})`, () => {
  compileAll(TSC, 'typescript', sources, ['node']);   // a Node project has @types/node
});

test(`every README block compiles under tsc --strict with the oldest TypeScript promised (${version('typescript-min')})`, () => {
  assert.match(readme, new RegExp(`TypeScript ${version('typescript-min').split('.').slice(0, 2).join('\\.')} or\\s+later`));
  // The declarations of onnxruntime-web 1.30 and of the current @types/node need a newer
  // TypeScript than ours: the blocks that import them are left to the test above.
  const blocks = sources.filter((s) => !s.usesOrt && !s.usesNode);
  for (const f of DOC_FILES) assert.ok(sources.filter((s) => s.file === f && (s.usesOrt || s.usesNode)).length <= 2, `${f}: at most 2 blocks left out`);
  compileAll(TSC_MIN, 'typescript-min', blocks);
});

test('the README check fails on code that does not compile (the harness is live)', () => {
  assert.throws(() => compileAll(TSC, 'typescript', [{ name: 'bad.mts',
    text: "import { createSampler } from 'onnx-sampling-wasm';\nconst s = await createSampler();\ns.resize({ type: 'float32', dims: [1], data: new Float32Array(1) }, { sizes: [2], mode: 'bilinear' });\nexport {};\n" }]),
  // (the mode union: printed by its alias or by its members, compat filters included)
  /'"bilinear"' is not assignable to type '(ResizeMode \| CompatResizeMode|[^']*"lanczos"[^']*) \| undefined'. Did you mean '"linear"'/);
});

test('tests/ts (the whole typed API, with its must-not-compile lines) also compiles with the oldest TypeScript promised', () => {
  const r = spawnSync(process.execPath, [TSC_MIN, '-p', join(repoRoot, 'tests', 'ts'), '--pretty', 'false'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
