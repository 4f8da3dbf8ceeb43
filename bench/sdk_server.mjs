// The reference point for bench/run.sh: a minimal MCP stdio server built with the official
// TypeScript SDK (@modelcontextprotocol/sdk@1.32.2, from tests/conformance/setup-npm.sh's cache).
// One trivial tool; the SDK answers `ping` itself.
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sdk = join(process.env.UPK_NPM_CACHE || join(root, '.cache/npm'),
  'node_modules/@modelcontextprotocol/sdk/dist/esm');
const load = (p) => import(pathToFileURL(join(sdk, p)).href);
const { McpServer } = await load('server/mcp.js');
const { StdioServerTransport } = await load('server/stdio.js');

const server = new McpServer({ name: 'sdk-bench', version: '1.0.0' });
server.registerTool('hello', { description: 'Say hello.' },
  async () => ({ content: [{ type: 'text', text: 'hello' }] }));
await server.connect(new StdioServerTransport());
