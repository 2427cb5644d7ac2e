// check-lint.mjs: eslint over the repository's JavaScript, as eslint.config.mjs sets it up
// (the library's modules, scripts, tests, bench, the demo and the examples).
//
//   node scripts/check-lint.mjs    exits 1 with eslint's report when a file breaks a rule,
//                                  0 with the number of files checked otherwise
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });
const results = await eslint.lintFiles(['.']);
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
if (!results.length) {
  console.error('check-lint: eslint found no files to check');
  process.exit(1);
}
if (problems) {
  const formatter = await eslint.loadFormatter('stylish');
  console.error(await formatter.format(results));
  console.error(`check-lint: ${problems} problems in ${results.filter((r) => r.errorCount + r.warningCount).length} of ${results.length} files`);
  process.exit(1);
}
console.log(`check-lint: ${results.length} files, no problems`);
