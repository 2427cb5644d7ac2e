// native-tests.mjs: the C++ core built natively under sanitizers (tests/native), run.
//
//   1. configure (once) and build tests/native into build-native/ with clang++-14;
//      incremental: later runs rebuild only what changed;
//   2. osw-tests-asan: the Catch2 suite of tests/cpp with ASan + UBSan (+ LeakSanitizer),
//      the SIMD kernels through SIMDe and a real thread pool (-pthread, OSW_THREADS=1); fails
//      on any test failure or sanitizer report;
//      osw-tests-tsan: the "[threads]" tests (tests/cpp/test_threads.cpp) under
//      ThreadSanitizer with SIMDe and threads; fails on any test failure or TSAN report;
//      osw-tests-scalar: the same suite in the scalar configuration (OSW_HAVE_SIMD 0, -O2,
//      -Werror); then the SIMD-vs-scalar digest: both print the hashes of a fixed list of
//      cases ("[.digest]", tests/cpp/test_digest.cpp), which must be equal line for line
//      (and equal to the wasm build's, build/osw-tests.js, when it exists);
//   3. osw-fuzz: first each hand-made regression input tests/fuzz/corpus/regress-* alone
//      (a known bug: printed as a C++ snippet of the decoded case when it fails), then
//      libFuzzer for a bounded time over a COPY of the rest of tests/fuzz/corpus in a temp
//      folder (the repository stays clean); fails on any crash, leak, timeout, OOM or failed
//      check. A failing input is kept in build-native/fuzz-artifacts/ and replayed with
//      OSW_FUZZ_VERBOSE=1, which prints the decoded case as a C++ snippet.
// The last line is `native: N passed, M failed` (N, M count Catch2 test cases of both
// builds, one for the digest comparison, regression inputs and one for the fuzz run; a step that cannot run, e.g. a failed build, counts as
// failed).
//
// Options:
//   --fuzz-seconds=N   fuzz for N seconds (default 60; 0 skips fuzzing)
//   --merge            merge the inputs the run found interesting into tests/fuzz/corpus
//                      (libFuzzer -merge=1: only inputs that add coverage), keeping the
//                      committed corpus within budget (<= 200 files, <= 1 MB); hand-made
//                      regress-* inputs are always kept
//   --merge-from=DIR   only merge DIR's inputs (e.g. a longer local fuzzing session's
//                      corpus) into tests/fuzz/corpus, within budget, and exit
//   --no-build         use the binaries already in build-native/
import { spawnSync } from 'node:child_process';
import {
  copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync,
} from 'node:fs';
import os from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = process.env.OSW_NATIVE_BUILD_DIR || join(root, 'build-native');  // another dir for a parallel job
const corpusDir = join(root, 'tests', 'fuzz', 'corpus');
const args = process.argv.slice(2);

function flagValue(name) {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a === undefined ? undefined : a.slice(name.length + 3);
}
for (const a of args) {
  if (!/^--(fuzz-seconds=\d+|merge|merge-from=.+|no-build)$/.test(a)) {
    console.error(`native-tests: unknown argument '${a}' (use --fuzz-seconds=N, --merge, --merge-from=DIR, --no-build)`);
    process.exit(2);
  }
}
const fuzzSeconds = Number(flagValue('fuzz-seconds') ?? 60);
const merge = args.includes('--merge');
const mergeFrom = flagValue('merge-from');
const noBuild = args.includes('--no-build');

const CORPUS_MAX_FILES = 200;
const CORPUS_MAX_BYTES = 1 << 20;
const MAX_LEN = 1024; // bytes per fuzz input: keeps corpus files small

// Sanitizer settings for every native run: stop at the first report, with a stack trace.
const sanEnv = {
  ...process.env,
  ASAN_OPTIONS: [
    'detect_leaks=1', 'halt_on_error=1', 'abort_on_error=0', 'strict_string_checks=1',
    'detect_stack_use_after_return=1', 'check_initialization_order=1', 'strict_init_order=1',
    'allocator_may_return_null=1', process.env.ASAN_OPTIONS,
  ].filter(Boolean).join(':'),
  UBSAN_OPTIONS: ['print_stacktrace=1', 'halt_on_error=1', process.env.UBSAN_OPTIONS].filter(Boolean).join(':'),
};
// Any of these in a program's output is a failure, whatever its exit status.
const SANITIZER_REPORT = /ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: (AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer|ThreadSanitizer)|WARNING: ThreadSanitizer/;
// ThreadSanitizer: the first report (a data race, a lock misuse) ends the run with exit code 66.
const tsanEnv = {
  ...process.env,
  TSAN_OPTIONS: ['halt_on_error=1', 'exitcode=66', 'second_deadlock_stack=1', process.env.TSAN_OPTIONS].filter(Boolean).join(':'),
};

let passed = 0;
let failed = 0;
const summary = [];

function secs(t) {
  return `${((Date.now() - t) / 1000).toFixed(1)} s`;
}

// Runs a command with its output shown live (inherit) or captured and then echoed.
// With echo: false the caller prints what it wants of r.stdout / r.stderr.
function run(cmd, cmdArgs, { capture = false, echo = true, env = process.env, cwd = root, timeout } = {}) {
  const r = spawnSync(cmd, cmdArgs, {
    cwd, env, encoding: 'utf8', maxBuffer: 512 << 20, timeout,
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  if (capture && echo) {
    process.stdout.write(r.stdout || '');
    process.stderr.write(r.stderr || '');
  }
  // A program that could not start, or was stopped after `timeout`, is a failed run.
  if (r.error && r.error.code !== 'ETIMEDOUT') throw r.error;
  if (r.error) r.status = r.status ?? 124;
  return r;
}

function finish() {
  console.log('\n=== native summary');
  for (const line of summary) console.log(line);
  console.log(`native: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

// ---------------------------------------------------------------- 1. build
if (!noBuild) {
  const t = Date.now();
  console.log('=== build tests/native (clang++-14, ASan + UBSan, TSAN, libFuzzer, scalar)');
  try {
    if (!existsSync(join(buildDir, 'CMakeCache.txt'))) {
      const c = run('cmake', ['-S', join(root, 'tests', 'native'), '-B', buildDir, '-DCMAKE_CXX_COMPILER=clang++-14']);
      if (c.status !== 0) throw new Error(`cmake configure exited with ${c.status}`);
    }
    const b = run('cmake', ['--build', buildDir, '--parallel', '2']);
    if (b.status !== 0) throw new Error(`cmake --build exited with ${b.status}`);
    summary.push(`ok    build ${secs(t)}`);
  } catch (e) {
    summary.push(`FAIL  build: ${e.message}`);
    failed += 1;
    finish();
  }
}

// ---------------------------------------------------------------- 2. Catch2 suites
// Runs one Catch2 program's whole suite and counts its test cases into passed / failed.
function runSuite(name, env, title, filter = []) {
  const t = Date.now();
  console.log(`\n=== ${title} (${name})`);
  const exe = join(buildDir, name);
  if (!existsSync(exe)) {
    summary.push(`FAIL  ${name}: ${exe} is missing (build first)`);
    failed += 1;
    return;
  }
  const r = run(exe, [...filter, '--use-colour', 'no'], { capture: true, env, timeout: 30 * 60 * 1000 });
  const out = `${r.stdout || ''}\n${r.stderr || ''}`;
  const allOk = out.match(/All tests passed \((\d+) assertions? in (\d+) test cases?\)/);
  const mixed = out.match(/test cases?:\s+(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/);
  let note = '';
  if (allOk) { passed += Number(allOk[2]); note = `${allOk[2]} test cases, ${allOk[1]} assertions`; }
  else if (mixed) { passed += Number(mixed[2]); failed += Number(mixed[3]); note = `${mixed[2]} passed, ${mixed[3]} failed`; }
  const report = SANITIZER_REPORT.test(out);
  if (r.status !== 0 || report || !(allOk || mixed)) {
    if (!mixed || Number(mixed[3]) === 0) failed += 1; // a sanitizer abort or a crash
    const why = report ? 'sanitizer report' : r.signal ? `killed by ${r.signal}` : `exit status ${r.status}`;
    summary.push(`FAIL  ${name}: ${why}${note ? ` (${note})` : ''} ${secs(t)}`);
  } else {
    summary.push(`ok    ${name} (${note}) ${secs(t)}`);
  }
}

// The digest lines ("resize ..." / "gridsample ...") a Catch2 program prints for "[.digest]".
function digest(name, env) {
  const exe = join(buildDir, name);
  if (!existsSync(exe)) throw new Error(`${exe} is missing (build first)`);
  const r = run(exe, ['[.digest]', '--use-colour', 'no'], { capture: true, echo: false, env, timeout: 10 * 60 * 1000 });
  if (r.status !== 0) throw new Error(`${name} "[.digest]" exited with ${r.status}: ${(r.stderr || '').slice(0, 2000)}`);
  return (r.stdout || '').split('\n').filter((l) => /^(resize|gridsample) /.test(l));
}

if (!mergeFrom) {
  try {
    runSuite('osw-tests-asan', sanEnv, 'Catch2 suite, native, ASan + UBSan + SIMDe');
  } catch (e) {
    failed += 1;
    summary.push(`FAIL  osw-tests-asan: ${e.message}`);
  }
  try {
    runSuite('osw-tests-tsan', tsanEnv, 'the threads tests, native, ThreadSanitizer + SIMDe + threads', ['[threads]']);
  } catch (e) {
    failed += 1;
    summary.push(`FAIL  osw-tests-tsan: ${e.message}`);
  }
  try {
    runSuite('osw-tests-scalar', process.env, 'Catch2 suite, native, scalar kernels only (OSW_HAVE_SIMD 0)');
  } catch (e) {
    failed += 1;
    summary.push(`FAIL  osw-tests-scalar: ${e.message}`);
  }
  // SIMD against scalar, bit for bit: the same cases' output hashes from both builds.
  try {
    const t = Date.now();
    console.log('\n=== SIMD (SIMDe) build vs scalar build (and the wasm build, when built): digests of the fixed case list');
    const simd = digest('osw-tests-asan', sanEnv);
    const scalar = digest('osw-tests-scalar', process.env);
    // The wasm build's Catch2 program too, when npm test (scripts/test.mjs) has built it.
    const wasmTests = join(process.env.OSW_BUILD_DIR || join(root, 'build'), 'osw-tests.js');
    let wasm = null;
    if (existsSync(wasmTests)) {
      const r = run('node', ['--no-experimental-fetch', wasmTests, '[.digest]', '--use-colour', 'no'], { capture: true, echo: false });
      wasm = r.status === 0 ? (r.stdout || '').split('\n').filter((l) => /^(resize|gridsample) /.test(l)) : [];
    }
    const differ = [];
    for (let i = 0; i < Math.max(simd.length, scalar.length, wasm ? wasm.length : 0); ++i) {
      if (simd[i] !== scalar[i] || (wasm && wasm[i] !== simd[i])) {
        differ.push(`  simd:   ${simd[i] ?? '(none)'}\n  scalar: ${scalar[i] ?? '(none)'}${wasm ? `\n  wasm:   ${wasm[i] ?? '(none)'}` : ''}`);
      }
    }
    const builds = wasm ? 'SIMDe, scalar and wasm builds' : 'SIMDe and scalar builds';
    if (simd.length === 0 || differ.length > 0) {
      failed += 1;
      console.log(differ.slice(0, 20).join('\n'));
      summary.push(`FAIL  digests of the ${builds}: ${differ.length} of ${simd.length} cases differ ${secs(t)}`);
    } else {
      passed += 1;
      console.log(`${simd.length} cases, the same bytes in the ${builds}`);
      summary.push(`ok    digests of the ${builds} (${simd.length} cases, bit for bit) ${secs(t)}`);
    }
  } catch (e) {
    failed += 1;
    summary.push(`FAIL  SIMD vs scalar digests: ${e.message}`);
  }
}

// ---------------------------------------------------------------- 3. fuzzing
function listCorpus(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => !f.startsWith('.')).map((f) => ({ f, size: statSync(join(dir, f)).size }));
}

// Files named regress-* are hand-made inputs for bugs found before (each reproduces one
// in the core; see the report that added it): never dropped when the corpus is trimmed.
const isRegression = (f) => f.startsWith('regress-');

// Keeps the committed corpus within budget. libFuzzer's -merge adds inputs in order of size
// as long as they add a feature, which keeps far more than 200 inputs; so when over budget
// this asks it what each input adds (-merge_control_file: the features an input adds to
// those of the inputs before it) and picks greedily the inputs that add the most new
// coverage edges (a feature is an edge and a hit-count bucket: edge = feature >> 3), then
// the most new features, until the budget is full.
function keepCorpusInBudget(fuzzer) {
  const files = listCorpus(corpusDir);
  const bytes = files.reduce((s, x) => s + x.size, 0);
  if (files.length <= CORPUS_MAX_FILES && bytes <= CORPUS_MAX_BYTES) return;
  console.log(`corpus over budget (${files.length} files, ${bytes} bytes): choosing the inputs that cover most`);
  const keep = files.filter(({ f }) => isRegression(f));
  const candidates = files.filter(({ f }) => !isRegression(f));
  const tmp = mkdtempSync(join(os.tmpdir(), 'osw-corpus-min-'));
  const all = join(tmp, 'all'), out = join(tmp, 'out'), control = join(tmp, 'control');
  mkdirSync(all);
  mkdirSync(out);
  try {
    for (const { f } of candidates) copyFileSync(join(corpusDir, f), join(all, f));
    const m = run(fuzzer, ['-merge=1', `-merge_control_file=${control}`, `-max_len=${MAX_LEN}`, '-rss_limit_mb=2048', '-timeout=10', out, all],
      { capture: true, echo: false, env: sanEnv });
    if (m.status !== 0 || !existsSync(control)) throw new Error(`libFuzzer -merge exited with ${m.status}`);
    // Control file: the number of inputs, the number of them already in the output corpus,
    // their paths, then for each input run "STARTED i size", "FT i features...", ...
    const lines = readFileSync(control, 'utf8').split('\n');
    const n = Number(lines[0]);
    const paths = lines.slice(2, 2 + n);
    const feats = new Map();
    for (const line of lines.slice(2 + n)) {
      if (!line.startsWith('FT ')) continue;
      const [, idx, ...fs] = line.trim().split(' ');
      feats.set(Number(idx), fs.map(Number));
    }
    const sizes = paths.map((q) => statSync(q).size);
    let room = CORPUS_MAX_FILES - keep.length;
    let budget = CORPUS_MAX_BYTES - keep.reduce((s, x) => s + x.size, 0);
    const chosen = new Set();
    // Lazy greedy: a file's gain only shrinks as others are chosen, so a stale gain is an
    // upper bound; re-evaluate the top one until it stays on top.
    const pick = (key) => {
      const seen = new Set();
      for (const i of chosen) for (const f of feats.get(i)) seen.add(key(f));
      const keys = new Map([...feats].filter(([i]) => !chosen.has(i)).map(([i, fs]) => [i, [...new Set(fs.map(key))]]));
      const gainOf = (i) => keys.get(i).reduce((g, k) => g + (seen.has(k) ? 0 : 1), 0);
      let heap = [...keys.keys()].map((i) => [gainOf(i), i]).sort((a, b) => b[0] - a[0] || sizes[a[1]] - sizes[b[1]]);
      while (room > 0 && heap.length) {
        const [, i] = heap.shift();
        const g = gainOf(i);
        if (g === 0) break;
        if (heap.length && g < heap[0][0]) { // stale: put it back where it now belongs
          let k = heap.findIndex(([h]) => h <= g);
          if (k < 0) k = heap.length;
          heap.splice(k, 0, [g, i]);
          continue;
        }
        if (sizes[i] > budget) continue;
        chosen.add(i);
        room -= 1;
        budget -= sizes[i];
        for (const k of keys.get(i)) seen.add(k);
      }
    };
    pick((f) => f >> 3); // edges first
    pick((f) => f); // then edges with new hit counts
    for (const { f } of candidates) unlinkSync(join(corpusDir, f));
    for (const i of chosen) copyFileSync(paths[i], join(corpusDir, basename(paths[i])));
    console.log(`kept ${chosen.size} of ${candidates.length} inputs (and ${keep.length} regress-* inputs)`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (mergeFrom) {
  const fuzzer = join(buildDir, 'osw-fuzz');
  mkdirSync(corpusDir, { recursive: true });
  const before = listCorpus(corpusDir).length;
  const m = run(fuzzer, ['-merge=1', `-max_len=${MAX_LEN}`, '-rss_limit_mb=2048', '-timeout=10', corpusDir, mergeFrom], { capture: true, echo: false, env: sanEnv });
  if (m.status !== 0) {
    console.error(`${m.stdout}\n${m.stderr}`);
    process.exit(1);
  }
  keepCorpusInBudget(fuzzer);
  const after = listCorpus(corpusDir);
  console.log(`tests/fuzz/corpus: ${before} -> ${after.length} files, ${after.reduce((s, x) => s + x.size, 0)} bytes`);
  process.exit(0);
}

if (fuzzSeconds > 0) {
  const t = Date.now();
  console.log(`\n=== libFuzzer (osw-fuzz), ${fuzzSeconds} s over a copy of tests/fuzz/corpus`);
  const fuzzer = join(buildDir, 'osw-fuzz');
  if (!existsSync(fuzzer)) {
    summary.push(`FAIL  osw-fuzz: ${fuzzer} is missing (build first)`);
    failed += 1;
    finish();
  }
  // The hand-made regress-* inputs first, one run each, so that every known bug still
  // open is reported (and counted) by name; the ones that fail are then left out of the
  // fuzzing run, which would otherwise stop at the first of them.
  const failing = new Set();
  // (replaying a crashing input makes libFuzzer write it out again: into a temp folder)
  const replayDir = mkdtempSync(join(os.tmpdir(), 'osw-fuzz-replay-'));
  process.on('exit', () => rmSync(replayDir, { recursive: true, force: true }));
  for (const { f } of listCorpus(corpusDir).filter(({ f }) => isRegression(f))) {
    const r = run(fuzzer, [`-artifact_prefix=${replayDir}/`, join(corpusDir, f)], { capture: true, echo: false, env: { ...sanEnv, OSW_FUZZ_VERBOSE: '1' }, timeout: 120000 });
    const out = `${r.stdout || ''}\n${r.stderr || ''}`;
    if (r.status !== 0 || SANITIZER_REPORT.test(out) || /CHECK FAILED/.test(out)) {
      failing.add(f);
      failed += 1;
      console.log(`\n--- regression input ${f} fails:`);
      process.stdout.write(out.split('\n').filter((l) => !/^INFO:|^\s+#\d+ 0x/.test(l)).join('\n'));
      summary.push(`FAIL  osw-fuzz regression input ${f}`);
    } else {
      passed += 1;
    }
  }
  const tmp = mkdtempSync(join(os.tmpdir(), 'osw-fuzz-'));
  const work = join(tmp, 'corpus');
  const artifacts = join(tmp, 'artifacts');
  mkdirSync(work);
  mkdirSync(artifacts);
  try {
    const seeds = listCorpus(corpusDir).filter(({ f }) => !failing.has(f));
    for (const { f } of seeds) copyFileSync(join(corpusDir, f), join(work, f));
    const r = run(fuzzer, [
      `-max_total_time=${fuzzSeconds}`, '-timeout=10', '-rss_limit_mb=2048', `-max_len=${MAX_LEN}`,
      '-print_final_stats=1', `-artifact_prefix=${artifacts}/`, work,
    ], { capture: true, echo: false, env: sanEnv, timeout: (fuzzSeconds + 300) * 1000 });
    const out = `${r.stdout || ''}\n${r.stderr || ''}`;
    // libFuzzer's progress lines (#N NEW/REDUCE/pulse, NEW_FUNC) are noise on success.
    const quiet = (text) => text.split('\n').filter((l) => !/^(#\d+\s|\s+NEW_FUNC)/.test(l)).join('\n');
    const runs = (out.match(/stat::number_of_executed_units:\s*(\d+)/) || [])[1];
    const found = listCorpus(artifacts);
    const bad = r.status !== 0 || found.length > 0 || SANITIZER_REPORT.test(out);
    process.stdout.write(bad ? out : `${quiet(out).trim()}\n`);
    if (bad) {
      failed += 1;
      const keep = join(buildDir, 'fuzz-artifacts');
      mkdirSync(keep, { recursive: true });
      for (const { f } of found) {
        copyFileSync(join(artifacts, f), join(keep, f));
        console.log(`\n--- failing input kept as ${join(keep, f)}; replaying it with OSW_FUZZ_VERBOSE=1:`);
        run(fuzzer, [`-artifact_prefix=${replayDir}/`, join(keep, f)], { capture: true, env: { ...sanEnv, OSW_FUZZ_VERBOSE: '1' } });
      }
      const kinds = found.map(({ f }) => f.split('-')[0]).join(', ') || `exit status ${r.status}`;
      summary.push(`FAIL  osw-fuzz: ${kinds} (inputs in build-native/fuzz-artifacts/) ${secs(t)}`);
    } else {
      passed += 1;
      const grown = listCorpus(work).length - seeds.length;
      summary.push(`ok    osw-fuzz (${runs ?? '?'} runs, ${seeds.length} seeds, ${grown} new inputs) ${secs(t)}`);
      if (merge) {
        mkdirSync(corpusDir, { recursive: true });
        for (const { f } of listCorpus(work)) if (isRegression(f)) unlinkSync(join(work, f));
        const before = listCorpus(corpusDir).length;
        const m = run(fuzzer, ['-merge=1', `-max_len=${MAX_LEN}`, '-rss_limit_mb=2048', '-timeout=10', corpusDir, work], { capture: true, echo: false, env: sanEnv });
        process.stdout.write(`${(`${m.stdout || ''}\n${m.stderr || ''}`).split('\n').filter((l) => /MERGE-OUTER|ERROR|SUMMARY/.test(l)).join('\n')}\n`);
        if (m.status !== 0) {
          failed += 1;
          summary.push(`FAIL  merge into tests/fuzz/corpus: exit status ${m.status}`);
        } else {
          keepCorpusInBudget(fuzzer);
          const after = listCorpus(corpusDir);
          const bytes = after.reduce((s, x) => s + x.size, 0);
          summary.push(`ok    merged into tests/fuzz/corpus: ${before} -> ${after.length} files, ${bytes} bytes`);
        }
      }
    }
  } catch (e) {
    failed += 1;
    summary.push(`FAIL  osw-fuzz: ${e.message}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
} else {
  summary.push('skip  osw-fuzz (--fuzz-seconds=0)');
}

finish();
