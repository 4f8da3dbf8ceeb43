// A minimal MCP-lines client for the real daemon ($UPSKILLD), shared by the model tests and
// bench/models: spawn, call methods, collect notifications, check stderr for sanitizer reports.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Looked up when a daemon starts, so that a caller may set UPSKILLD first.
export const daemonPath = () => resolve(process.env.UPSKILLD || join(root, 'build/daemon/upskilld'));

// A private HOME / XDG_CONFIG_HOME / project dir; `config` and `project` are YAML texts.
export function sandbox({ config, project } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'upk-models-'));
  mkdirSync(join(dir, 'home/.config/upskilld'), { recursive: true });
  mkdirSync(join(dir, 'project'));
  if (config) writeFileSync(join(dir, 'home/.config/upskilld/config.yaml'), config);
  if (project) writeFileSync(join(dir, 'project/upskill.config.yaml'), project);
  return { dir, home: join(dir, 'home'), project: join(dir, 'project'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// Environment for the daemon: no proxies, no provider variables but those given.
export function daemonEnv(box, vars) {
  const env = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(ANTHROPIC|OPENAI|GENERIC)_|proxy$|^XDG_/i.test(k)) env[k] = v;
  return { ...env, HOME: box.home, XDG_CONFIG_HOME: join(box.home, '.config'), XDG_CACHE_HOME: join(box.home, '.cache'), ...vars };
}

export class Daemon {
  constructor({ env, cwd, args = ['--mcp'], wrapper = [] }) {
    const argv = [...wrapper, daemonPath(), ...args];
    this.child = spawn(argv[0], argv.slice(1), { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.nextId = 1;
    this.pending = new Map();
    this.notes = [];
    this.order = []; // ids in the order their responses arrived
    this.stdout = '';
    this.stderr = '';
    this.exit = new Promise((ok) => this.child.on('exit', (code, sig) => ok(code ?? sig)));
    let buf = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (d) => {
      this.stdout += d;
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) this.onMessage(JSON.parse(line));
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (d) => { this.stderr += d; });
    this.child.stdin.on('error', () => {});
  }

  onMessage(msg) {
    if (msg.id !== undefined && (msg.result !== undefined || msg.error !== undefined)) {
      this.order.push(msg.id);
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (p) p.resolve({ ...msg, at: performance.now() });
    } else {
      this.notes.push(msg);
    }
  }

  send(obj) { this.child.stdin.write(JSON.stringify(obj) + '\n'); }

  // The whole response (result or error), with `at` = arrival time.
  request(method, params) {
    const id = this.nextId++;
    const p = new Promise((resolve) => this.pending.set(id, { resolve }));
    p.id = id;
    this.send({ jsonrpc: '2.0', id, method, params });
    return p;
  }

  async init() {
    const r = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'models-test', version: '1' } });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r;
  }

  cancel(id) { this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }); }

  // Close stdin and wait for the exit status.
  async close() {
    this.child.stdin.end();
    return this.exit;
  }

  sanitizerReport() {
    return /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|UndefinedBehaviorSanitizer/.test(this.stderr) ? this.stderr : null;
  }
}
