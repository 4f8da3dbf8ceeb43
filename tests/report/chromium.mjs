// Headless Chromium (Debian's `chromium`) driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: JSON messages ending in NUL on fds 3 and 4), so no npm package is
// needed: open a file, collect console errors and exceptions, evaluate, take a screenshot.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const chromiumPath = () =>
  [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));

export class Browser {
  static async launch() {
    const exe = chromiumPath();
    if (!exe) throw new Error('chromium not found');
    const b = new Browser();
    b.profile = mkdtempSync(join(tmpdir(), 'upk-chromium-'));
    b.child = spawn(exe, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage', '--hide-scrollbars', '--remote-debugging-pipe',
      `--user-data-dir=${b.profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    b.stderr = '';
    b.child.stderr.on('data', (d) => { b.stderr += d; });
    b.out = b.child.stdio[3];
    b.out.on('error', () => {}); // EPIPE after an exit: the exit handler reports it
    b.nextId = 1;
    b.pending = new Map();
    b.events = [];
    let buf = Buffer.alloc(0);
    b.child.stdio[4].on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      let nul;
      while ((nul = buf.indexOf(0)) >= 0) {
        const msg = JSON.parse(buf.subarray(0, nul).toString('utf8'));
        buf = buf.subarray(nul + 1);
        b.onMessage(msg);
      }
    });
    b.exited = new Promise((ok) => b.child.on('exit', ok));
    // A browser that dies answers nothing more: fail what waits, with what it said.
    b.child.on('exit', (code, sig) => {
      for (const p of b.pending.values()) p.reject(new Error(`chromium exited (${code ?? sig}): ${b.stderr.slice(-2000)}`));
      b.pending.clear();
    });
    b.child.on('error', (e) => { b.stderr += String(e); });
    await b.send('Browser.getVersion');
    return b;
  }

  onMessage(msg) {
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (p) msg.error ? p.reject(new Error(`${p.method}: ${msg.error.message}`)) : p.resolve(msg.result);
      return;
    }
    this.events.push(msg);
    for (const w of [...(this.waiters ?? [])]) if (w.match(msg)) { this.waiters.delete(w); w.resolve(msg); }
  }

  send(method, params = {}, sessionId) {
    const id = this.nextId++;
    const p = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, method }));
    this.out.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    return p;
  }

  waitFor(match, ms = 120000) { // generous: a loaded CI machine
    this.waiters ??= new Set();
    return new Promise((resolve, reject) => {
      // The timer is cleared on a match: a pending one keeps node (and the test) alive for `ms`.
      const timer = setTimeout(() => { if (this.waiters.delete(w)) reject(new Error('chromium: timed out waiting')); }, ms);
      const w = { match, resolve: (msg) => { clearTimeout(timer); resolve(msg); } };
      this.waiters.add(w);
    });
  }

  // Open `file` in a fresh page `width` CSS pixels wide; returns a Page.
  async open(file, width = 1000) {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new Page(this, sessionId);
    for (const d of ['Runtime.enable', 'Log.enable', 'Page.enable']) await page.send(d);
    await page.send('Emulation.setDeviceMetricsOverride', { width, height: 800, deviceScaleFactor: 1, mobile: false });
    const loaded = this.waitFor((m) => m.method === 'Page.loadEventFired' && m.sessionId === sessionId);
    await page.send('Page.navigate', { url: pathToFileURL(file).href });
    await loaded;
    return page;
  }

  async close() {
    let timer;
    const late = new Promise((ok) => { timer = setTimeout(ok, 5000); });
    try { await Promise.race([this.send('Browser.close'), late]); } catch { /* gone */ }
    clearTimeout(timer);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
    await this.exited;
    /* Chromium's helpers (crashpad, the GPU process) can still be writing to the profile for a
     * moment after the browser exits: retry, and never fail a report test over a temp dir. */
    try {
      rmSync(this.profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    } catch (e) {
      console.error(`# could not remove ${this.profile}: ${e.message}`);
    }
  }
}

class Page {
  constructor(browser, sessionId) { this.b = browser; this.sessionId = sessionId; }
  send(method, params) { return this.b.send(method, params, this.sessionId); }

  // Console errors, uncaught exceptions and error log entries (bad SVG attributes land there).
  errors() {
    return this.b.events.filter((e) => e.sessionId === this.sessionId).flatMap((e) => {
      if (e.method === 'Runtime.exceptionThrown') return [e.params.exceptionDetails.text];
      if (e.method === 'Runtime.consoleAPICalled' && ['error', 'assert'].includes(e.params.type))
        return [e.params.args.map((a) => a.value ?? a.description).join(' ')];
      if (e.method === 'Log.entryAdded' && e.params.entry.level === 'error') return [e.params.entry.text];
      return [];
    });
  }

  // The value of a JS expression evaluated in the page.
  async eval(expr) {
    const r = await this.send('Runtime.evaluate', { expression: expr, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`eval: ${r.exceptionDetails.text} ${r.exceptionDetails.exception?.description ?? ''}`);
    return r.result.value;
  }

  // A PNG of the whole page (or its first `maxHeight` pixels) into `file`.
  async screenshot(file, maxHeight = 4000) {
    const h = await this.eval('Math.ceil(document.documentElement.scrollHeight)');
    const w = await this.eval('Math.ceil(document.documentElement.scrollWidth)');
    const clip = { x: 0, y: 0, width: w, height: Math.min(h, maxHeight), scale: 1 };
    const { data } = await this.send('Page.captureScreenshot', { format: 'png', clip, captureBeyondViewport: true });
    writeFileSync(file, Buffer.from(data, 'base64'));
    return clip;
  }
}
