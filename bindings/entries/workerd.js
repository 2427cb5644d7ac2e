// entries/workerd.js -> dist/workerd.mjs: the package in Cloudflare Workers (workerd) and in
// Vercel / Next.js Edge functions (package.json's "workerd" and "edge-light" conditions),
// which compile no WebAssembly from bytes: their bundlers import a .wasm file as a
// WebAssembly.Module, wrangler for any .wasm path, Next.js's edge build for a path ending in
// ?module (which wrangler takes too). createSampler() needs no options there.
import compatWasm from './osw-compat.wasm?module';
import wasm from './osw.wasm?module';
import { makeApi } from '../api.js';
import { modulesHost } from '../host-modules.js';

const api = makeApi(modulesHost({ wasm, compatWasm, noWorker: 'Cloudflare Workers and edge functions have none' }));
export const createSampler = api.createSampler;
export const TENSOR_TYPES = api.TENSOR_TYPES;
export default { createSampler, TENSOR_TYPES };
