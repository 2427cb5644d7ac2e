// bench/matrix.mjs runs (a smoke test, not a timing: nothing here reads a time against a
// limit): one job, one round, and its JSON has our median and, for every native peer, either
// a time or the reason it is missing; with --no-native no Python is started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'osw-matrix-'));

function runMatrix(extra) {
  const out = join(dir, `m${extra.length}.json`);
  const stdout = execFileSync(process.execPath, [join(root, 'bench', 'matrix.mjs'), '--runs', '1', '--only', 'f32 NCHW C=1 linear up 2x', '--out', out, ...extra],
    { encoding: 'utf8', timeout: 120_000 });
  return { stdout, json: JSON.parse(readFileSync(out, 'utf8')) };
}

test('bench/matrix.mjs: one job, with the native peers that are installed or their reasons', () => {
  const { stdout, json } = runMatrix([]);
  assert.equal(json.rows.length, 1);
  const row = json.rows[0];
  assert.equal(row.job.name, 'f32 NCHW C=1 linear up 2x');
  assert.ok(row.ours.ms > 0 && row.ours.runs === 1);
  const libs = new Set([...row.peers.map((p) => p.lib), ...row.skipped.map(([lib]) => lib)]);
  // PyTorch and OpenCV each either ran this job or say why not (Pillow takes only images).
  for (const lib of ['torch', 'opencv'])
    assert.ok(libs.has(lib) || Object.keys(json.native.missing || {}).includes('all'), `${lib}: neither a time nor a reason (${stdout})`);
  for (const p of row.peers) assert.ok(p.ms > 0 && ['same', 'similar'].includes(p.job), JSON.stringify(p));
  assert.match(stdout, /f32 NCHW C=1 linear up 2x/);
});

test('bench/matrix.mjs --no-native: ours alone', () => {
  const { json } = runMatrix(['--no-native']);
  assert.equal(json.rows[0].peers.length, 0);
  assert.ok(json.rows[0].ours.ms > 0);
});
