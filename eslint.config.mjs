// eslint.config.mjs: the JavaScript lint rules (eslint's recommended set) and, per folder,
// the globals of the host its files run in. `node scripts/check-lint.mjs` (a step of
// `npm test`) runs it; `npx eslint <file>` checks one file.
import js from '@eslint/js';
import globals from 'globals';

// Float16Array (ES2025) is newer than the globals package's builtin list; code tests for it.
const ES2025 = { Float16Array: 'readonly' };

// Globals of the library's own modules (bindings/): they run in browsers, workers, Node,
// Deno, Bun and workerd and test for each host's objects before use.
const anyHost = { ...globals.browser, ...globals.worker, ...globals.node, Deno: 'readonly', Bun: 'readonly' };

export default [
  {
    ignores: ['dist/**', 'build/**', 'build-*/**', 'node_modules/**', '.cache/**', '**/node_modules/**',
      'examples/**/dist/**', 'tests/conformance/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: { ...globals.node, ...ES2025 } },
    rules: {
      // `catch {}` and `catch (e) {}` that deliberately ignore are common in the host probes;
      // an unused catch binding is not a mistake.
      'no-unused-vars': ['error', { caughtErrors: 'none', argsIgnorePattern: '^_' }],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  { files: ['bindings/**/*.js'], languageOptions: { globals: anyHost } },
  // Pages, the demo and the browser bundles' examples; the browser tests pass functions
  // into pages, so their files see both Node's and the browser's globals.
  { files: ['web/**/*.js', 'examples/vite-app/**/*.js', 'examples/bundlers/main.js'], languageOptions: { globals: globals.browser } },
  { files: ['tests/browser/**/*.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  { files: ['tests/runtimes/fixtures/deno/**'], languageOptions: { globals: { ...globals.browser, Deno: 'readonly' } } },
  { files: ['tests/runtimes/fixtures/bun/**'], languageOptions: { globals: { ...globals.node, Bun: 'readonly' } } },
  { files: ['tests/runtimes/fixtures/workerd/**'], languageOptions: { globals: globals.serviceworker } },
];
