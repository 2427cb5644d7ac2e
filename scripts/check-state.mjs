// check-state.mjs: finds mutable state in src/ that no object owns (issue 15): variables at
// namespace scope that are not const/constexpr, `static` variables (in functions or
// classes) that are not const/constexpr, thread_local variables and `mutable` members.
// Constant tables (`constexpr`, `const`), static functions, static_cast and static_assert
// are fine. State belongs in a plan (immutable), a workspace (one owner) or the caller.
//
//   node scripts/check-state.mjs [dir]    prints each finding as file:line: text; exit 1 if any
//
// tests/js/no-global-state.test.mjs runs it on src/ (and on snippets, so it cannot pass by
// finding nothing). A small scanner, not a C++ parser: comments, string and character
// literals and preprocessor lines are blanked first; then the text is walked brace by brace,
// knowing whether each brace is a namespace's (or extern "C"'s) or anything else's.
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// The source with comments, literals and preprocessor lines replaced by spaces (newlines
// kept, so offsets give line numbers).
function blank(src) {
  let out = '';
  let i = 0;
  const n = src.length;
  let lineStart = true;
  while (i < n) {
    const c = src[i];
    if (lineStart && /[ \t]/.test(c)) { out += c; i++; continue; }
    if (lineStart && c === '#') {  // a preprocessor line, with its continuations
      while (i < n && src[i] !== '\n') {
        if (src[i] === '\\' && src[i + 1] === '\n') { out += ' \n'; i += 2; continue; }
        out += ' '; i++;
      }
      continue;
    }
    lineStart = false;
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') { out += ' '; i++; }
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    if (c === 'R' && src[i + 1] === '"') {  // raw string R"d(...)d"
      const open = src.indexOf('(', i + 2);
      const delim = `)${src.slice(i + 2, open)}"`;
      const end = src.indexOf(delim, open);
      const stop = end < 0 ? n : end + delim.length;
      out += '""' + src.slice(i + 2, stop).replace(/[^\n]/g, ' ').slice(2);
      i = stop;
      continue;
    }
    if (c === '"' || (c === "'" && !/[0-9a-fA-F]/.test(src[i - 1] ?? ''))) {  // not 1'000
      let j = i + 1;
      while (j < n && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out += c + ' '.repeat(Math.max(0, j - i - 1)) + c;
      i = j + 1;
      continue;
    }
    if (c === '\n') lineStart = true;
    out += c;
    i++;
  }
  return out;
}

const lineOf = (text, at) => text.slice(0, at).split('\n').length;
const squash = (s) => s.replace(/\s+/g, ' ').trim();
const isConst = (decl) => /\b(constexpr|const|consteval)\b/.test(decl);

// A statement at namespace scope declares a variable that can be written: not a function,
// type, alias or template, and not const/constexpr.
function mutableVariable(stmt) {
  const d = squash(stmt);
  if (d === '') return false;
  if (/^(using|typedef|friend|static_assert|namespace|template|extern\s+template)\b/.test(d)) return false;
  // A type (a definition, its body blanked to {}, or a forward declaration): a variable
  // only when a name follows the body.
  const type = /^(struct|class|union|enum)\b[^{=(]*(\{\})?\s*(.*)$/.exec(d);
  if (type) return type[3] !== '' && !/^[*&]*\s*$/.test(type[3]);
  const head = d.split('=')[0];
  if (isConst(head)) return false;
  if (head.includes('(')) return false;  // a function's declaration
  return true;
}

// Findings in one file's text: [{ line, text, why }].
export function scanSource(src) {
  const text = blank(src);
  const found = [];
  // 1. static / thread_local / mutable variables, at any depth.
  for (const m of text.matchAll(/\b(static|thread_local|mutable)\b/g)) {
    // The declaration: up to the first ; { or = at this level (a function's ( comes first).
    const rest = text.slice(m.index);
    const end = rest.search(/[;{=]/);
    const decl = rest.slice(0, end < 0 ? rest.length : end);
    if (m[1] === 'mutable') {
      if (/\)\s*$/.test(text.slice(0, m.index))) continue;  // a mutable lambda: [..](..) mutable
      found.push({ line: lineOf(text, m.index), text: squash(decl), why: 'mutable member' });
      continue;
    }
    if (isConst(decl)) continue;
    if (decl.includes('(')) continue;  // a static function
    found.push({ line: lineOf(text, m.index), text: squash(decl), why: `${m[1]} variable` });
  }
  // 2. Variables at namespace scope (which need no `static`).
  const stack = [];  // per open brace: { ns: bool, saved: the statement before it, keep: bool }
  let stmt = '';
  let stmtAt = 0;
  const atNamespace = () => stack.every((b) => b.ns);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      const opener = squash(stmt);
      const ns = /(^|\s)(inline\s+)?namespace\b[^()]*$/.test(opener) || /^extern\s*"\s*"$/.test(opener);
      // A brace that a declaration goes on after: an initializer or a class body.
      const keep = !ns && (/=/.test(opener) || /^(template\s*<.*>\s*)?(struct|class|union|enum)\b[^(]*$/.test(opener) || opener === '');
      stack.push({ ns, saved: stmt, savedAt: stmtAt, keep });
      stmt = '';
      stmtAt = i + 1;
      continue;
    }
    if (c === '}') {
      const b = stack.pop() ?? { ns: true, saved: '', savedAt: i, keep: false };
      if (b.keep) {
        stmt = `${b.saved}{}`;
        stmtAt = b.savedAt;
      } else {
        stmt = '';
        stmtAt = i + 1;
      }
      continue;
    }
    if (c === ';') {
      if (atNamespace() && mutableVariable(stmt) && !/\bstatic\b/.test(stmt)) {
        const skip = stmt.search(/\S/);
        const at = stmtAt + (skip < 0 ? 0 : skip);
        found.push({ line: lineOf(text, at), text: squash(stmt), why: 'namespace-scope variable' });
      }
      stmt = '';
      stmtAt = i + 1;
      continue;
    }
    stmt += c;
  }
  return found.sort((a, b) => a.line - b.line);
}

// Findings in every .h/.cpp file of dir: [{ file, line, text, why }].
export function scanDir(dir) {
  const out = [];
  for (const f of readdirSync(dir).filter((x) => /\.(h|hpp|cpp|cc)$/.test(x)).sort())
    for (const r of scanSource(readFileSync(join(dir, f), 'utf8'))) out.push({ file: f, ...r });
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const dir = process.argv[2] ?? join(root, 'src');
  const found = scanDir(dir);
  for (const r of found) console.log(`${join(dir, r.file)}:${r.line}: ${r.why}: ${r.text}`);
  console.log(`check-state: ${found.length} finding(s) in ${dir}`);
  process.exit(found.length ? 1 : 0);
}
