// glue-node.js: the threaded build's glue for Node, Deno and Bun (#glue/osw-mt-node.mjs, a
// function of the Node modules it requires: scripts/glue.mjs), given those modules.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as perfHooks from 'node:perf_hooks';
import * as workerThreads from 'node:worker_threads';
import oswMtNodeGlue from '#glue/osw-mt-node.mjs';

const NODE_MODULES = { fs, path, perf_hooks: perfHooks, worker_threads: workerThreads };

// The glue's factory (createOswMtModule). post: how a pool worker answers the main thread
// (the glue's postMessage, which only a pool worker calls).
export function oswNodeMtFactory(post) {
  return oswMtNodeGlue((name) => NODE_MODULES[name], post);
}
