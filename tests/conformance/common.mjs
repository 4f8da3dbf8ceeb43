// Shared by the conformance tests: find the daemon and the pinned npm clients.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const cache = process.env.UPK_NPM_CACHE || join(root, '.cache/npm');
export const daemon = process.env.UPSKILLD || join(root, 'build/daemon/upskilld');

const pinned = {
  'vscode-jsonrpc': '10.0.0', '@modelcontextprotocol/sdk': '1.32.2', ajv: '8.17.1',
  '@modelcontextprotocol/client': '2.4.0',
};

// require() bound to the cache folder; throws a clear error when a package is missing.
export function requireFromCache(name) {
  const pj = join(cache, 'node_modules', name, 'package.json');
  const req = createRequire(join(cache, 'package.json'));
  const version = existsSync(pj) ? req(pj).version : null;
  if (version !== pinned[name])
    throw new Error(`${name}@${pinned[name]} is not installed in ${cache} ` +
      `(found ${version ?? 'nothing'}): run tests/conformance/setup-npm.sh first`);
  return req;
}

if (!existsSync(daemon))
  throw new Error(`daemon not found at ${daemon}: build it (ninja -C build) or set UPSKILLD`);

// Resolves with the exit code (or signal name) of a child process.
export function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.exitCode ?? child.signalCode);
  return new Promise((ok) => child.once('exit', (code, sig) => ok(code ?? sig)));
}

// Rejects when the promise takes longer than ms.
export function within(ms, promise, what) {
  let t;
  const timeout = new Promise((_, no) => { t = setTimeout(() => no(new Error(`${what}: no answer in ${ms} ms`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(t));
}
