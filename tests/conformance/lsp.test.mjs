// upskilld over LSP framing, driven by vscode-jsonrpc@10.0.0 (the library VS Code uses).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { daemon, exited, requireFromCache, within } from './common.mjs';

const rpc = requireFromCache('vscode-jsonrpc')('vscode-jsonrpc/node');
const { createMessageConnection, StreamMessageReader, StreamMessageWriter,
  CancellationTokenSource, ProgressType, ResponseError } = rpc;

function start(args = ['--lsp', '--test-methods']) {
  const child = spawn(daemon, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin));
  conn.onNotification('window/logMessage', () => {});
  conn.listen();
  return { child, conn };
}

async function rejectsWith(promise, code) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof ResponseError, `expected ResponseError, got ${e}`);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

describe('lsp: before initialize', () => {
  test('a request before initialize is answered -32002 (ServerNotInitialized)', async () => {
    const { child, conn } = start();
    await rejectsWith(within(5000, conn.sendRequest('upskilld/status', {}), 'status'), -32002);
    conn.dispose();
    child.stdin.end();
    assert.equal(await within(5000, exited(child), 'exit'), 0);
  });
});

describe('lsp: a session', () => {
  let child, conn;
  before(() => ({ child, conn } = start()));
  after(() => { conn.dispose(); if (child.exitCode === null) child.kill(); });

  test('initialize', async () => {
    const r = await within(5000, conn.sendRequest('initialize',
      { processId: process.pid, rootUri: null, capabilities: {} }), 'initialize');
    assert.equal(r.serverInfo.name, 'upskilld');
    assert.ok(r.capabilities.experimental.upskilld.methods.includes('upskilld/status'));
    await conn.sendNotification('initialized', {});
  });

  test('custom request upskilld/status', async () => {
    const r = await within(10000, conn.sendRequest('upskilld/status', {}), 'status');
    assert.equal(r.name, 'upskilld');
    assert.equal(r.protocol, 'lsp');
    assert.equal(r.pid, child.pid);
  });

  test('cancelling through the CancellationToken rejects with -32800', async () => {
    const cts = new CancellationTokenSource();
    const t0 = Date.now();
    const p = conn.sendRequest('upskilld/sleep', { ms: 20000 }, cts.token);
    setTimeout(() => cts.cancel(), 100);
    await rejectsWith(within(5000, p, 'cancelled sleep'), -32800);
    assert.ok(Date.now() - t0 < 5000);
    // the daemon still answers afterwards
    assert.equal((await conn.sendRequest('upskilld/status', {})).name, 'upskilld');
  });

  test('progress on the workDoneToken: begin, report, end', async () => {
    const seen = [];
    const token = 'sleep-progress-1';
    const sub = conn.onProgress(new ProgressType(), token, (v) => seen.push(v));
    const r = await within(10000,
      conn.sendRequest('upskilld/sleep', { ms: 200, steps: 4, workDoneToken: token }), 'sleep');
    sub.dispose();
    assert.ok(r !== undefined);
    const kinds = seen.map((v) => v.kind);
    assert.equal(kinds[0], 'begin', JSON.stringify(seen));
    assert.ok(kinds.includes('report'), JSON.stringify(seen));
    assert.equal(kinds.at(-1), 'end', JSON.stringify(seen));
    assert.equal(typeof seen[0].title, 'string');
    for (const v of seen.filter((v) => v.kind === 'report' && v.percentage !== undefined))
      assert.ok(v.percentage >= 0 && v.percentage <= 100, JSON.stringify(v));
  });

  test('progress reports arrive as they happen, not with the result', async () => {
    const t0 = Date.now(), at = [];
    const token = 'sleep-progress-2';
    const sub = conn.onProgress(new ProgressType(), token, (v) => at.push([v.kind, v.percentage, Date.now() - t0]));
    await within(10000, conn.sendRequest('upskilld/sleep', { ms: 1000, steps: 2, workDoneToken: token }), 'sleep');
    const done = Date.now() - t0, half = at.find(([k, pct]) => k === 'report' && pct > 0);
    sub.dispose();
    assert.ok(half, JSON.stringify(at));
    assert.ok(done - half[2] >= 250, `the 50% report (due at 500 ms) came at ${half[2]} ms, ` +
      `the result at ${done} ms`);
  });

  test('a failing request rejects with a ResponseError', async () => {
    await assert.rejects(conn.sendRequest('upskilld/sleep', { ms: 1, fail: 'boom' }),
      (e) => e instanceof ResponseError && /boom/.test(e.message));
  });

  test('unknown method is -32601', async () => {
    await rejectsWith(conn.sendRequest('upskilld/no-such-method', {}), -32601);
  });

  test('shutdown, then exit: the process exits with 0', async () => {
    assert.equal(await within(5000, conn.sendRequest('shutdown'), 'shutdown'), null);
    const code = exited(child);
    await conn.sendNotification('exit');
    assert.equal(await within(5000, code, 'exit'), 0);
  });
});

describe('lsp: framing detected from the first byte (no --lsp)', () => {
  test('exit without shutdown: exit code 1', async () => {
    const { child, conn } = start(['--test-methods']);
    await conn.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
    const code = exited(child);
    await conn.sendNotification('exit');
    assert.equal(await within(5000, code, 'exit'), 1);
    conn.dispose();
  });
});
