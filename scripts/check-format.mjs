// check-format.mjs: the C++ files that .clang-format covers are formatted as it says.
//
//   node scripts/check-format.mjs          checks (clang-format --dry-run --Werror); exits 1
//                                          listing the files that differ, 2 without clang-format
//   node scripts/check-format.mjs --fix    formats those files in place (clang-format -i)
//
// Covered: src/**/*.{h,cpp} and bindings/*.{h,cpp}. The tests are not (yet) formatted with it.
// clang-format is looked up as $CLANG_FORMAT, then clang-format-14, then clang-format; the
// style is that of version 14 (Debian 12: `apt-get install clang-format`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
for (const a of args) {
  if (a !== '--fix') {
    console.error(`check-format: unknown argument '${a}' (use --fix)`);
    process.exit(2);
  }
}
const fix = args.includes('--fix');

function cppFiles(dir, recursive) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (recursive) out.push(...cppFiles(p, true));
    } else if (/\.(h|cpp)$/.test(e.name)) {
      out.push(p);
    }
  }
  return out.sort();
}

const files = [...cppFiles(join(root, 'src'), true), ...cppFiles(join(root, 'bindings'), false)];

function findClangFormat() {
  for (const cmd of [process.env.CLANG_FORMAT, 'clang-format-14', 'clang-format'].filter(Boolean)) {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return { cmd, version: r.stdout.trim() };
  }
  return null;
}

const cf = findClangFormat();
if (!cf) {
  console.error('check-format: clang-format not found (set CLANG_FORMAT, or install it: '
    + 'apt-get install clang-format); the style is that of clang-format 14');
  process.exit(2);
}
if (!/version 14\./.test(cf.version)) {
  console.error(`check-format: warning: ${cf.version}; .clang-format is written for version 14, `
    + 'another version may format some lines differently');
}

const bad = [];
for (const f of files) {
  const r = spawnSync(cf.cmd, fix ? ['-i', f] : ['--dry-run', '--Werror', f], { encoding: 'utf8' });
  if (r.error || r.status !== 0) bad.push({ file: relative(root, f), out: (r.stderr || '').trim() });
}
if (bad.length > 0) {
  if (fix) {
    console.error(`check-format: clang-format failed on ${bad.length} file(s):`);
    for (const b of bad) console.error(`  ${b.file}\n${b.out}`);
  } else {
    console.error(`check-format: ${bad.length} of ${files.length} file(s) differ from .clang-format:`);
    for (const b of bad) console.error(`  ${b.file}`);
    console.error('format them with: node scripts/check-format.mjs --fix');
  }
  process.exit(1);
}
console.log(`check-format: ${files.length} files ${fix ? 'formatted' : 'formatted as .clang-format says'}`);
