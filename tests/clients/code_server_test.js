// Real VS Code (code-server) with the packaged extension, driven as a user would with Debian's
// Chromium through puppeteer-core: the folder opened untrusted (Restricted Mode), a squiggle on
// the right line, lenses, a lens click showing the kernel table, the quick fix, an untrusted
// project's host compiler refused (nothing runs), lenses kept
// (stale) through a typo, and the status bar when upskilld.path is wrong. Prints TAP.
// Usage: node code_server_test.js URL FOLDER SETTINGS_JSON BAD_PATH [SHOTS_DIR]
// (SETTINGS_JSON: the user settings file, read back when a check fails)
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

const [url, folder, settingsFile, badPath, shots] = process.argv.slice(2);
let n = 0, failed = 0;
function check(name, ok, detail) {
  n++;
  console.log(`${ok ? 'ok' : 'not ok'} ${n} - ${name}`);
  if (!ok) {
    failed++;
    for (const l of String(detail ?? '').split('\n').slice(0, 15)) console.log(`# ${l}`);
  }
  return ok;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(fn, ms = 30000) {
  let v;
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(200)) {
    v = await fn().catch(() => undefined);
    if (v) return v;
  }
  return undefined;
}

async function shot(page, name) {
  if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

// The texts of everything matching `sel`, in document order.
const texts = (page, sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent.trim()));

async function statusText(page) {
  const all = await texts(page, '.statusbar-item');
  return all.find((t) => /upskilld/.test(t));
}

async function key(page, combo) {
  const keys = combo.split('+');
  for (const k of keys) await page.keyboard.down(k);
  for (const k of keys.reverse()) await page.keyboard.up(k);
}

// Quick Open the file by name; resolves when its editor tab is active.
async function openFile(page, name) {
  await key(page, 'Control+p');
  await page.waitForSelector('.quick-input-widget input', { visible: true });
  await page.keyboard.type(name);
  await until(async () => (await texts(page, '.quick-input-list .monaco-list-row')).some((t) => t.includes(name)));
  await page.keyboard.press('Enter');
  return until(async () => (await texts(page, '.tab.active .label-name')).includes(name));
}

async function goToLine(page, where) {
  await key(page, 'Control+g');
  await page.waitForSelector('.quick-input-widget input', { visible: true });
  await page.keyboard.type(where);
  await page.keyboard.press('Enter');
  await sleep(300);
}

// The editor line (its text) on which each squiggle of the active editor sits.
function squiggleLines(page) {
  return page.evaluate(() => {
    const ed = document.querySelector('.editor-group-container.active .monaco-editor');
    if (!ed) return [];
    const lineAt = new Map([...ed.querySelectorAll('.view-lines .view-line')].map((l) => [l.style.top, l.textContent]));
    return [...ed.querySelectorAll('.view-overlays [class*="squiggly-"]')].map((s) => ({
      kind: [...s.classList].find((c) => c.startsWith('squiggly-')),
      line: lineAt.get(s.parentElement.style.top),
    }));
  });
}

const lenses = (page) => texts(page, '.editor-group-container.active .codelens-decoration');

async function main() {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1400,900'],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    const up = await until(async () => {
      const t = await statusText(page);
      return t && /upskilld \S+ · (no GPU|GPU)/.test(t) ? t : undefined;
    }, 90000);
    const restricted = (await texts(page, '.statusbar-item')).some((t) => /Restricted Mode/.test(t));
    check('untrusted folder (Restricted Mode): the extension starts the daemon; the status bar says it is up',
      up && restricted, `${await statusText(page)}; restricted ${restricted}`);

    await openFile(page, 'warp.cu');
    const sq = await until(async () => {
      const s = await squiggleLines(page);
      return s.length ? s : undefined;
    }, 60000);
    // (the H100 lint's warning, and NVRTC's error: CUDA 13 no longer declares __shfl_down)
    check('squiggles under the deprecated __shfl_down on line 3, nowhere else', sq &&
      sq.every((q) => /s \+= __shfl_down\(s, 1\);/.test(String(q.line).replace(/\u00a0/g, ' '))), JSON.stringify(sq));
    await shot(page, 'vscode-squiggle');

    await goToLine(page, '3:10');
    await key(page, 'Control+.');
    const actions = await until(async () => {
      const a = await texts(page, '.action-widget .monaco-list-row');
      return a.length ? a : undefined;
    });
    check('Ctrl+. offers the mechanical fix and "Find a skill for this"',
      actions && actions.some((t) => /__shfl_down_sync/.test(t)) && actions.some((t) => /Find a skill for this/.test(t)),
      JSON.stringify(actions));
    await shot(page, 'vscode-quickfix');
    const rows = await page.$$('.action-widget .monaco-list-row');
    for (const r of rows) {
      if (/Find a skill for this/.test(await r.evaluate((e) => e.textContent))) {
        await r.click();
        break;
      }
    }
    const picks = await until(async () => {
      const ph = await page.$eval('.quick-input-widget input', (e) => e.getAttribute('placeholder') || '');
      const items = await texts(page, '.quick-input-list .monaco-list-row');
      return /Install a skill for/.test(ph) && items.length ? items : undefined;
    }, 60000);
    check('the quick fix shows a pick list of skills', picks && picks.length >= 1, JSON.stringify(picks));
    await page.keyboard.press('Enter');
    const toast = await until(async () => (await texts(page, '.notification-list-item-message')).find((t) => /^Installed /.test(t)));
    check('picking one installs it (a notification says so)', toast, JSON.stringify(await texts(page, '.notification-list-item-message')));
    const name = toast && toast.split(' ')[1];
    const left = ['.agents/skills', '.claude/skills'].flatMap((d) =>
      fs.existsSync(path.join(folder, d)) ? fs.readdirSync(path.join(folder, d)).map((e) => `${d}/${e}`) : [])
      .filter((e) => e !== '.claude/skills/demo'); // the SKILL.md case below
    check('the install left only the skill in the workspace (no lock files for git status to show)',
      name && left.length === 2 && left.every((e) => e.endsWith(`/${name}`)), JSON.stringify(left));

    await openFile(page, 'heavy.cu');
    const lens = await until(async () => (await lenses(page)).find((t) => /^heavy: \d+ regs/.test(t)), 60000);
    check('a lens above the kernel: registers, spills, occupancy', lens && /occupancy \d+%/.test(lens), JSON.stringify(await lenses(page)));
    await shot(page, 'vscode-lens');

    const link = await page.$('.editor-group-container.active .codelens-decoration a');
    if (link) await link.click();
    const tab = await until(async () => (await texts(page, '.tab .label-name')).find((t) => t === 'heavy — upskilld'));
    const table = await until(async () => {
      for (const f of page.frames()) {
        const t = await f.evaluate(() => document.body?.innerText || '').catch(() => '');
        if (/Binding limit/.test(t) && /1024/.test(t)) return t;
      }
      return undefined;
    });
    check('clicking the lens opens the kernel\'s table beside the editor', tab && table, `${tab}; ${table}`);
    await shot(page, 'vscode-kernel-table');

    await openFile(page, 'heavy.cu');
    await goToLine(page, '3');
    await page.keyboard.press('End');
    await page.keyboard.type(' oops');
    const stale = await until(async () => (await lenses(page)).find((t) => /^\(stale\) heavy: \d+ regs/.test(t)), 60000);
    check('a typo: the lens stays, its figures marked (stale)', stale, JSON.stringify(await lenses(page)));
    await shot(page, 'vscode-stale-lens');
    await key(page, 'Control+z');
    const fresh = await until(async () => (await lenses(page)).find((t) => /^heavy: \d+ regs/.test(t)), 60000);
    check('the typo undone: the figures are current again', fresh, JSON.stringify(await lenses(page)));

    // An untrusted kernel-builder project whose build.toml names a host compiler it ships
    // (code_server.sh plants it): opening its .cu runs nothing, and the Problems panel says why.
    await openFile(page, 'evil_k.cu');
    await key(page, 'Control+Shift+m');
    const refused = await until(async () => {
      const rows = await texts(page, '.markers-panel .monaco-list-row');
      return rows.find((r) => r.includes('-ccbin') && r.includes('upskillctl trust'));
    }, 90000);
    check('an untrusted project\'s build.toml -ccbin: refused in Problems (naming the rule and upskillctl trust), nothing ran',
      refused && /trust\/run/.test(refused) && !fs.existsSync(process.env.UPK_MARKER),
      JSON.stringify({ refused, rows: await texts(page, '.markers-panel .monaco-list-row').catch((e) => String(e)),
        ran: fs.existsSync(process.env.UPK_MARKER) }));
    await shot(page, 'vscode-untrusted-project');
    await key(page, 'Control+Shift+m');

    // SKILL.md: VS Code checks its frontmatter itself (language `skill`); the extension leaves
    // what it reports to it and adds only what it does not check (here: a description over
    // the specification's 1024 characters).
    await openFile(page, 'SKILL.md');
    await key(page, 'Control+Shift+m');
    const problems = await until(async () => {
      const rows = await texts(page, '.markers-panel .monaco-list-row');
      return rows.some((r) => /upskilld-skill/.test(r)) && rows.some((r) => /lowercase/i.test(r)) ? rows : undefined;
    }, 60000);
    const ours = (problems || []).filter((r) => /upskilld-skill/.test(r));
    const language = await texts(page, '.statusbar-item.statusbar-entry[id*="editor.status.mode"], #status\\.editor\\.mode');
    check('SKILL.md: VS Code\'s own findings once, upskilld adds only what it lacks (the description\'s length)',
      problems && ours.every((r) => !/lowercase|folder/i.test(r)) && ours.some((r) => /1024/.test(r)),
      JSON.stringify({ problems, language }));
    await shot(page, 'vscode-skill-problems');
    await key(page, 'Control+Shift+m');

    // The user sets a wrong path in the Settings editor; the extension restarts on the change.
    // (VS Code 1.139 shows Settings as a modal over the workbench.)
    await key(page, 'Control+,');
    await page.waitForSelector('.settings-editor .suggest-input-container', { visible: true });
    await page.click('.settings-editor .suggest-input-container');
    await page.keyboard.type('upskilld.path');
    const item = await until(async () => {
      const items = await page.$$('.settings-editor .setting-item-contents');
      const label = items.length === 1 && await items[0].evaluate((e) => e.textContent);
      return label && /Upskilld: Path/.test(label) ? items[0] : undefined;
    });
    const input = item && await item.$('input');
    if (input) {
      await input.click({ count: 3 });
      await page.keyboard.type(badPath);
      await page.keyboard.press('Tab');
    }
    // The editor writes the setting after a pause; the modal closes once it has.
    await until(async () => fs.readFileSync(settingsFile, 'utf8').includes(badPath), 10000);
    await page.keyboard.press('Escape');
    const gone = await until(async () => {
      const t = await statusText(page);
      return t && /upskilld not found — set upskilld\.path/.test(t) ? t : undefined;
    }, 30000);
    check('upskilld.path set wrong: the status bar says "upskilld not found — set upskilld.path"', gone,
      `${await statusText(page)}; settings: ${fs.readFileSync(settingsFile, 'utf8')}`);
    await openFile(page, 'heavy.cu');
    await shot(page, 'vscode-not-found');
    for (const it of await page.$$('.statusbar-item')) {
      if (/upskilld not found/.test(await it.evaluate((e) => e.textContent))) {
        await (await it.$('a'))?.click();
        break;
      }
    }
    const opened = await until(async () => {
      const query = await texts(page, '.settings-editor .settings-header .view-lines');
      return query.some((q) => q.includes('upskilld.path')) ? query : undefined;
    });
    await shot(page, 'vscode-not-found-setting');
    check('clicking it opens Settings at upskilld.path', opened,
      JSON.stringify(await texts(page, '.settings-editor .settings-header .view-lines')));
  } finally {
    await browser.close();
  }
}

main().catch((e) => check('the test ran to the end', false, e.stack)).finally(() => {
  console.log(`1..${n}`);
  process.exit(failed ? 1 : 0);
});
