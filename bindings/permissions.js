// permissions.js: a runtime's refusal to read a file or to start a worker, as the flag that
// grants it (host-node.js, loader-mt.js, worker-client.js's Node port).
import { OSW_FIX, oswLoadError } from './loader.js';

// A runtime's refusal to read a file or start a worker, as the flag that grants it, or ''.
// Node's permission model: ERR_ACCESS_DENIED; Deno: NotCapable (PermissionDenied before 2).
export function oswPermissionHint(e, what) {
  if (!e) return '';
  if (e.code === 'ERR_ACCESS_DENIED') return what === 'worker' ? "Node's permission model: run with --allow-worker" : "Node's permission model: run with --allow-fs-read";
  const name = e.name || (e.constructor && e.constructor.name);
  if (name === 'NotCapable' || name === 'PermissionDenied' || (typeof Deno === 'object' && /Requires \w+ access/.test(String(e.message))))
    return what === 'worker' ? 'Deno: run with --allow-read (its workers read their scripts), or use threads: 1' : 'Deno: run with --allow-read';
  return '';
}

// A failed read of a file (Node, Deno, Bun): its Error, by cause.
export function oswReadError(file, e, fix = OSW_FIX) {
  if (e && e.code === 'ENOENT') return oswLoadError(file, 'no such file', e, fix);
  const hint = oswPermissionHint(e, 'read');
  if (hint) return oswLoadError(file, `reading it is not permitted (${hint})`, e, fix, 'permission');
  return oswLoadError(file, `it cannot be read (${e && e.message})`, e, fix, 'read');
}
