// check-test-tags.mjs: every Catch2 case in tests/cpp carries a module tag and a layer tag
// of that module (tests/README.md, "Catch2 tags"), so that one layer's cases can be run
// alone: node --no-experimental-fetch build/osw-tests.js "[resize][plan]".
//
//   node scripts/check-test-tags.mjs    exits 1 naming each case (file:line) whose tags do
//                                       not follow the scheme, 0 otherwise
//
// Cases whose only tags are hidden ones ("[.digest]": not part of a normal run) are exempt.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// module tag -> its layer tags
const SCHEME = {
  resize: ['params', 'coordinates', 'plan', 'workspace', 'kernels', 'exact', 'exec'],
  gridsample: ['params', 'coordinates', 'plan', 'workspace', 'kernels', 'exact', 'exec'],
  affinegrid: ['params', 'coordinates', 'exec'],
  core: ['types', 'convert'],
  threads: ['pool', 'parallel'],
  imaging: ['gather', 'pillow', 'opencv'],
};
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'tests', 'cpp');
const problems = [];
let cases = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpp')).sort()) {
  const lines = readFileSync(join(dir, file), 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!/^\s*TEST_CASE\s*\(/.test(line)) return;
    const at = `tests/cpp/${file}:${i + 1}`;
    const m = /^\s*TEST_CASE\s*\(\s*"((?:[^"\\]|\\.)*)"\s*(?:,\s*"([^"]*)")?\s*\)/.exec(line);
    if (!m) { problems.push(`${at}: a TEST_CASE this check cannot read (name and tags on one line, as string literals)`); return; }
    const tags = [...(m[2] || '').matchAll(/\[([^\]]+)\]/g)].map((t) => t[1]);
    if (tags.length && tags.every((t) => t.startsWith('.'))) return;
    cases++;
    const mods = tags.filter((t) => t in SCHEME);
    if (mods.length !== 1) {
      problems.push(`${at}: "${m[1]}" has ${mods.length ? `module tags ${mods.join(', ')}` : 'no module tag'}: give it one of ${Object.keys(SCHEME).map((k) => `[${k}]`).join(' ')}`);
      return;
    }
    const layers = SCHEME[mods[0]];
    if (!tags.some((t) => layers.includes(t))) problems.push(`${at}: "${m[1]}" has no layer tag of [${mods[0]}]: one of ${layers.map((l) => `[${l}]`).join(' ')}`);
  });
}
if (problems.length) {
  console.error(`check-test-tags: ${problems.length} Catch2 case(s) off the tag scheme:`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`check-test-tags: ${cases} Catch2 cases, each with a module and a layer tag`);
