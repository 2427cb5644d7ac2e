// check-commits.mjs: the commit messages since the convention began follow it: a subject of
// at most 72 characters, then, if there is a body, one blank line before it
// (CONTRIBUTING.md, "Commits").
//
//   node scripts/check-commits.mjs    exits 1 naming each commit that does not, 0 otherwise
//
// BASE is the last commit before the convention; the ones after it are checked. In a
// shallow clone that lacks BASE the commits that are there are checked, and the output
// says so; outside a git checkout there is nothing to check, and the output says that too.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BASE = '9090c94ed58feab4068daad5a668baa478427aeb';
const MAX_SUBJECT = 72;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });

const inside = git('rev-parse', '--is-inside-work-tree');
if (inside.status !== 0 || inside.stdout.trim() !== 'true') {
  console.log('check-commits: not a git checkout: no commit to check');
  process.exit(0);
}
const hasBase = git('cat-file', '-e', `${BASE}^{commit}`).status === 0;
const range = hasBase ? [`${BASE}..HEAD`] : ['HEAD'];
// NUL-separated records: hash, then the raw message.
const log = git('log', '--format=%H%x00%B%x00', ...range);
if (log.status !== 0) {
  console.error(`check-commits: git log failed: ${log.stderr.trim()}`);
  process.exit(1);
}
const fields = log.stdout.split('\0');
const problems = [];
let count = 0;
for (let i = 0; i + 1 < fields.length; i += 2) {
  const hash = fields[i].trim();
  if (!hash) continue;
  count++;
  const lines = fields[i + 1].replace(/^\n+/, '').split('\n');
  const subject = lines[0];
  const short = hash.slice(0, 10);
  if (subject.length > MAX_SUBJECT) problems.push(`${short}: subject of ${subject.length} characters (at most ${MAX_SUBJECT}): "${subject.slice(0, 60)}..."`);
  if (!subject.trim()) problems.push(`${short}: empty subject`);
  if (lines.length > 1 && lines[1].trim() !== '' ) problems.push(`${short}: no blank line between the subject and the body`);
}
const scope = hasBase ? `since ${BASE.slice(0, 10)}` : `in this shallow history (${BASE.slice(0, 10)} is not in it)`;
if (problems.length) {
  console.error(`check-commits: ${problems.length} problem(s) in ${count} commit(s) ${scope}:`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`check-commits: ${count} commit(s) ${scope}, each with a subject of at most ${MAX_SUBJECT} characters`);
