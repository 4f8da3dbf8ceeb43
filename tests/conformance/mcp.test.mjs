// upskilld as an MCP stdio server, driven by @modelcontextprotocol/sdk@1.32.2 (the official client).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { daemon, requireFromCache, within } from './common.mjs';

const req = requireFromCache('@modelcontextprotocol/sdk');
const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = req('@modelcontextprotocol/sdk/client/stdio.js');
const { LATEST_PROTOCOL_VERSION, McpError } = req('@modelcontextprotocol/sdk/types.js');

// Forced framing, then framing auto-detected from the first byte.
for (const args of [['--mcp', '--test-methods'], ['--test-methods']]) {
  describe(`mcp: upskilld ${args.join(' ')}`, () => {
    let client, transport, negotiated;
    const errors = []; // protocol errors the SDK saw, e.g. an answer to a cancelled request
    before(() => {
      transport = new StdioClientTransport({ command: daemon, args, stderr: 'inherit' });
      transport.setProtocolVersion = (v) => { negotiated = v; };
      client = new Client({ name: 'upskilld-conformance', version: '1.0.0' });
      // Progress racing its result is SDK issue #2580, not ours: leave those out.
      client.onerror = (e) => /progress notification for an unknown token/.test(e) || errors.push(String(e));
    });
    after(() => client.close());

    test('connect: serverInfo and the negotiated revision', async () => {
      await within(5000, client.connect(transport), 'connect');
      assert.equal(client.getServerVersion().name, 'upskilld');
      assert.equal(negotiated, LATEST_PROTOCOL_VERSION);
      assert.ok(client.getServerCapabilities().tools);
    });

    test('ping', async () => {
      assert.deepEqual(await client.ping(), {});
    });

    test('listTools has status with an object inputSchema', async () => {
      const { tools } = await client.listTools();
      const status = tools.find((t) => t.name === 'status');
      assert.ok(status, JSON.stringify(tools.map((t) => t.name)));
      assert.equal(status.inputSchema.type, 'object');
      assert.ok(tools.some((t) => t.name === 'sleep'));
    });

    test('callTool status', async () => {
      const r = await within(10000, client.callTool({ name: 'status', arguments: {} }), 'status');
      assert.notEqual(r.isError, true);
      assert.equal(r.structuredContent.name, 'upskilld');
      assert.equal(r.structuredContent.protocol, 'mcp');
      assert.equal(r.structuredContent.protocolVersion, negotiated);
      assert.equal(r.content[0].type, 'text');
    });

    test('callTool sleep reports progress', async () => {
      const seen = [];
      const r = await within(10000, client.callTool({ name: 'sleep', arguments: { ms: 300, steps: 5 } },
        undefined, { onprogress: (p) => seen.push(p) }), 'sleep');
      assert.notEqual(r.isError, true, JSON.stringify(r));
      assert.ok(Array.isArray(r.content));
      // Not asserting that the last notification arrives: SDK issue #2580.
      assert.ok(seen.length >= 1, 'no progress notification');
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress);
    });

    test('progress arrives as it happens, not with the result', async () => {
      const t0 = Date.now(), at = [];
      await within(10000, client.callTool({ name: 'sleep', arguments: { ms: 1000, steps: 2 } },
        undefined, { onprogress: (p) => at.push([p.progress, Date.now() - t0]) }), 'sleep');
      const done = Date.now() - t0, mid = at.find(([p]) => p === 1);
      assert.ok(mid, `progress 1 of 2 (due at 500 ms) did not arrive before the result at ${done} ms ` +
        `(got [progress, ms]: ${JSON.stringify(at)})`);
      assert.ok(done - mid[1] >= 250, `progress 1 of 2 (due at 500 ms) came at ${mid[1]} ms, ` +
        `the result at ${done} ms`);
    });

    test('callTool with a bad argument gives isError', async () => {
      const r = await client.callTool({ name: 'sleep', arguments: { ms: 'soon' } });
      assert.equal(r.isError, true, JSON.stringify(r));
      assert.equal(r.content[0].type, 'text');
    });

    test('callTool of an unknown tool is -32602', async () => {
      await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }),
        (e) => e instanceof McpError && e.code === -32602);
    });

    test('cancellation through an AbortSignal', async () => {
      const ac = new AbortController();
      const t0 = Date.now();
      const p = client.callTool({ name: 'sleep', arguments: { ms: 20000 } }, undefined,
        { signal: ac.signal });
      setTimeout(() => ac.abort('changed my mind'), 100);
      await assert.rejects(within(5000, p, 'cancelled call'));
      assert.ok(Date.now() - t0 < 5000);
      assert.deepEqual(await within(5000, client.ping(), 'ping after cancel'), {});
      const s = await client.callTool({ name: 'status', arguments: {} });
      assert.equal(s.structuredContent.inFlight, 1); // the status call itself; the sleep is gone
      assert.deepEqual(errors, []);
    });

    test('close(): the daemon exits on end of input', async () => {
      const child = transport._process; // private, but the only handle on the child
      const t0 = Date.now();
      await client.close();
      assert.equal(child.exitCode, 0, `exit ${child.exitCode} signal ${child.signalCode}`);
      assert.ok(Date.now() - t0 < 1900, 'needed SIGTERM'); // the SDK waits 2 s before SIGTERM
    });
  });
}
