// A node:test reporter that writes flat TAP (one "ok"/"not ok" line per test case, no
// indented subtests or YAML), which meson's TAP parser and scripts/tap_totals.py count.
export default async function* tapFlat(source) {
  const path = [];
  let n = 0;
  const comment = (text) => String(text).trimEnd().split('\n').map((l) => `# ${l}\n`).join('');
  yield 'TAP version 13\n';
  for await (const { type, data } of source) {
    if (type === 'test:start') {
      path[data.nesting] = data.name;
    } else if (type === 'test:pass' || type === 'test:fail') {
      const suite = data.details?.type === 'suite';
      if (suite && (type === 'test:pass' || data.details.error?.failureType === 'subtestsFailed'))
        continue; // suites count only when they fail by themselves (e.g. in a hook)
      const name = [...path.slice(0, data.nesting), data.name].join(' > ');
      const skip = data.skip !== undefined ? ` # SKIP ${data.skip || ''}` : data.todo !== undefined ? ` # TODO` : '';
      n++;
      yield `${type === 'test:pass' ? 'ok' : 'not ok'} ${n} - ${name}${skip}\n`;
      if (type === 'test:fail') {
        const err = data.details?.error;
        yield comment(err?.cause?.stack ?? err?.cause ?? err?.stack ?? err);
      }
    } else if (type === 'test:diagnostic' || type === 'test:stderr' || type === 'test:stdout') {
      yield comment(data.message);
    }
  }
  yield `1..${n}\n`;
}
