// bench/models: see run.sh. One daemon, one scripted server; both runs use the same daemon.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Daemon, daemonEnv, sandbox } from '../../tests/models/daemon.mjs';

const calls = Number(process.env.CALLS || 60);
const concurrency = Number(process.env.CONCURRENCY || 8);
const delayMs = Number(process.env.DELAY_MS || 200);
process.env.UPSKILLD = process.argv[2] || process.env.UPSKILLD;

// The server runs in its own process, so that its work never delays this client's reads.
const serverJs = fileURLToPath(new URL('../../tests/models/server.mjs', import.meta.url));
const server = spawn(process.execPath, [serverJs, '--delay', String(delayMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
const srv = { url: await new Promise((ok) => server.stdout.once('data', (d) => ok(String(d).trim()))) };
const box = sandbox();
const d = new Daemon({
  env: daemonEnv(box, { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: srv.url, OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: srv.url + '/v1' }),
  cwd: box.project,
});
await d.init();

// 3 cases x 5 runs x 2 models x (baseline, with skill).
const work = [];
for (const model of ['anthropic.bench-teacher', 'openai.bench-student'])
  for (let c = 0; c < 3; c++)
    for (let r = 0; r < 5; r++)
      for (const skill of [false, true])
        work.push({ model, system: skill ? 'SKILL.md: use __launch_bounds__' : undefined, prompt: `case ${c} run ${r}` });
work.length = Math.min(work.length, calls);
while (work.length < calls) work.push({ ...work[work.length % 60] });

async function run(width) {
  const queue = work.slice();
  const t0 = performance.now();
  let failed = 0;
  const worker = async () => {
    for (let w; (w = queue.shift());) {
      const r = await d.request('models/complete', w);
      if (r.error) failed++;
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return { ms: performance.now() - t0, failed };
}

async function pingsDuring(promise) {
  const lat = [];
  let done = false;
  promise.then(() => { done = true; });
  while (!done) {
    const t = performance.now();
    await d.request('ping', {});
    lat.push(performance.now() - t);
    await new Promise((ok) => setTimeout(ok, 10));
  }
  lat.sort((a, b) => a - b);
  return { n: lat.length, median: lat[lat.length >> 1] ?? 0, max: lat.at(-1) ?? 0 };
}

await run(concurrency); // warm: connections open
const parallelRun = run(concurrency);
const ping = await pingsDuring(parallelRun);
const par = await parallelRun;
const seq = await run(1);
await d.close();
server.kill('SIGTERM');
box.remove();

const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(`model calls: ${calls} x ${delayMs} ms scripted answers (tests/models/server.mjs), one daemon`);
console.log(`  concurrency ${String(concurrency).padEnd(3)} ${f(par.ms).padStart(9)}   (target <= 2 s)   failed ${par.failed}`);
console.log(`  one at a time   ${f(seq.ms).padStart(9)}   (as upskill's benchmark)   failed ${seq.failed}`);
console.log(`  ratio           ${(seq.ms / par.ms).toFixed(1).padStart(7)}x`);
console.log(`  ping during the concurrent run: median ${ping.median.toFixed(2)} ms, max ${ping.max.toFixed(2)} ms over ${ping.n} pings (target <= 5 ms)`);
process.exit(par.ms <= 2000 && !par.failed && !seq.failed ? 0 : 1);
