// The reference for bench/mcp/skills.mjs: the official TypeScript SDK's own Skills extension
// server (@modelcontextprotocol/server 2.4.0: loadSkills over a folder, McpServer on stdio),
// serving the same skill folder. Its stdio transport speaks the legacy era only.
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = join(process.env.UPK_NPM_CACHE || join(root, '.cache/npm'),
  'node_modules/@modelcontextprotocol/server/dist');
const load = (p) => import(pathToFileURL(join(pkg, p)).href);
const { McpServer } = await load('index.mjs');
const { StdioServerTransport } = await load('stdio.mjs');
const { loadSkills } = await load('ext/skills/node.mjs');

const mcp = new McpServer({ name: 'sdk-skills', version: '2.4.0' });
(await loadSkills(process.argv[2], { onWarning: () => {} })).attach(mcp);
await mcp.connect(new StdioServerTransport());
