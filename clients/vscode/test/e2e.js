// The extension end to end against the real daemon, with the recording stand-in for `vscode`
// (test/vscode-standin.js): activate, open a CUDA file of a generated src/ + inc/ tree, then
// ask the providers vscode-languageclient registered for lenses, hovers and code actions, and
// run the four commands. Prints TAP. Usage: node test/e2e.js UPSKILLD TREE_DIR [EXT_DIR]
// EXT_DIR: the extension to drive, e.g. the packaged .vsix unpacked (default: this checkout).
'use strict';
const Module = require('module');
const path = require('path');
const fs = require('fs');
const os = require('os');

const standin = path.join(__dirname, 'vscode-standin.js');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? standin : resolve.call(this, request, ...rest);
};
const vscode = require('vscode');

const [daemon, tree, extDir = path.join(__dirname, '..')] = process.argv.slice(2);
let n = 0, failed = 0;
function check(name, ok, detail) {
  n++;
  if (ok) console.log(`ok ${n} - ${name}`);
  else {
    failed++;
    console.log(`not ok ${n} - ${name}`);
    for (const l of String(detail ?? '').split('\n').slice(0, 20)) console.log(`# ${l}`);
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(fn, ms = 60000) {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(100)) {
    const v = await fn();
    if (v) return v;
  }
  return undefined;
}
const token = new vscode.CancellationTokenSource().token;

async function main() {
  const manifest = JSON.parse(fs.readFileSync(path.join(extDir, 'package.json'), 'utf8'));
  check('manifest: activation on CUDA files and SKILL.md',
    manifest.activationEvents.includes('onLanguage:cuda-cpp') &&
    manifest.activationEvents.includes('workspaceContains:**/SKILL.md'), manifest.activationEvents);
  const cmds = manifest.contributes.commands.map((c) => c.command).sort().join(' ');
  check('manifest: the four commands and three settings',
    cmds === 'upskilld.check upskilld.lookup upskilld.run upskilld.status' &&
    Object.keys(manifest.contributes.configuration.properties).length === 3, cmds);

  const trust = manifest.capabilities?.untrustedWorkspaces;
  check('manifest: limited support in untrusted folders, the daemon path from user settings only',
    trust?.supported === 'limited' && trust.restrictedConfigurations.includes('upskilld.path') &&
    trust.restrictedConfigurations.includes('upskilld.workerCommand'), JSON.stringify(trust));

  vscode.configuration['upskilld.path'] = daemon;
  vscode.configuration['upskilld.defaultRunSpec'] = {
    grid: [1], block: [256], args: [{ name: 'y', dtype: 'f32', count: 320, role: 'inout' }],
  };
  process.chdir(path.join(tree, 'proj'));
  const ext = require(path.resolve(extDir, 'out', 'extension.js'));
  const context = { subscriptions: [] };
  await ext.activate(context);
  check('activate starts the daemon; the status bar says up and whether there is a GPU',
    vscode.status[0] && /upskilld .* · (no GPU|GPU \(driver)/.test(vscode.status[0].text), vscode.status[0]?.text);

  const file = path.join(tree, 'proj', 'src', 'heavy.cu');
  const doc = vscode.openDocument(file, 'cuda-cpp', fs.readFileSync(file, 'utf8'));
  const lensProvider = (vscode.providers.CodeLensProvider || vscode.providers.codeLens || [])[0];
  check('vscode-languageclient registered a code lens provider', !!lensProvider,
    Object.keys(vscode.providers).join(' '));
  const lenses = lensProvider && await until(async () => {
    const l = await lensProvider.provideCodeLenses(doc, token);
    return l && l.length ? l : undefined;
  });
  const lens = (lenses || [])[0];
  check('a lens above the kernel: registers and occupancy',
    lens && lens.range.start.line === 1 && /heavy: \d+ regs .* occupancy/.test(lens.command.title),
    JSON.stringify(lenses));

  await vscode.commands.executeCommand(lens?.command.command, ...(lens?.command.arguments || []));
  const panel = vscode.panels[vscode.panels.length - 1];
  check('a lens click shows the kernel\'s table in a panel beside the editor',
    panel && panel.title === 'heavy — upskilld' && /Binding limit/.test(panel.webview.html) &&
    /\| 1024 \|/.test(panel.webview.html), JSON.stringify(panel && { title: panel.title, html: panel.webview.html.slice(0, 400) }));

  const hoverProvider = (vscode.providers.HoverProvider || vscode.providers.hover || [])[0];
  const hover = hoverProvider && await hoverProvider.provideHover(doc, new vscode.Position(1, 18), token);
  const md = hover ? [].concat(hover.contents).map((c) => c.value ?? c).join('\n') : '';
  check('hover on the kernel name: the table and the binding limit',
    /\*\*heavy\*\*/.test(md) && /\| 1024 \|/.test(md) && /Binding limit/.test(md), md);

  // A file with the deprecated warp intrinsic: its diagnostic and the quickfix for it.
  const wfile = path.join(tree, 'proj', 'src', 'warp.cu');
  const wdoc = vscode.openDocument(wfile, 'cuda-cpp', fs.readFileSync(wfile, 'utf8'));
  const lint = await until(() => {
    for (const c of vscode.diagnosticCollections) {
      const d = (c.get(wdoc.uri) || []).find((x) => String(x.code?.value ?? x.code) === 'h100/deprecated-warp-intrinsic');
      if (d) return d;
    }
    return undefined;
  });
  check('diagnostics arrive on the right line', lint && lint.range.start.line === 2, JSON.stringify(lint));
  const actionProvider = (vscode.providers.CodeActionsProvider || vscode.providers.codeAction || [])[0];
  const actions = actionProvider && lint && await actionProvider.provideCodeActions(wdoc, lint.range,
    { diagnostics: [lint], triggerKind: 1, only: undefined }, token);
  const titles = (actions || []).map((a) => a.title);
  const fix = (actions || []).find((a) => /^Use __shfl_down_sync/.test(a.title));
  check('code actions: the mechanical fix (an edit) and "Find a skill for this"',
    fix && fix.edit && fix.edit.size === 2 && titles.some((t) => /^Find a skill for this/.test(t)),
    JSON.stringify(titles));

  const find = (actions || []).find((a) => /^Find a skill for this/.test(a.title));
  const picks = vscode.calls.filter((c) => c.name === 'window.showQuickPick').length;
  const found = find && await vscode.commands.executeCommand(find.command.command, ...find.command.arguments);
  const pl = vscode.calls.filter((c) => c.name === 'window.showQuickPick');
  check('the "Find a skill for this" quick fix shows the skills found and installs the one picked',
    pl.length === picks + 1 && pl[pl.length - 1].args[0].length >= 1 && found && Array.isArray(found.targets),
    JSON.stringify(found));

  vscode.window.activeTextEditor = { document: doc }; // back to heavy.cu
  const st = await vscode.commands.executeCommand('upskilld.status');
  const said = vscode.calls.filter((c) => c.name === 'window.showInformationMessage').map((c) => c.args[0]);
  check('Upskill: Status answers and says so: version, toolkit, GPU, models',
    st && st.name === 'upskilld' && said.some((m) => /^upskilld \S+, up \d+ s.*CUDA toolkit.*Models:/.test(m)),
    JSON.stringify(said));
  const ck = await vscode.commands.executeCommand('upskilld.check');
  check('Upskill: Check validates the file (its ../inc include allowed)',
    ck && ck.ok === true && ck.kernels.length === 1, JSON.stringify(ck && ck.diagnostics));
  const inst = await vscode.commands.executeCommand('upskilld.lookup', 'write a fast CUDA kernel for H100');
  const picked = vscode.calls.find((c) => c.name === 'window.showQuickPick');
  check('Upskill: Find a skill offers a pick list and installs the choice',
    picked && picked.args[0].length >= 1 && inst && Array.isArray(inst.targets), JSON.stringify(inst));
  const rn = await vscode.commands.executeCommand('upskilld.run');
  const runDiag = (rn?.diagnostics || []).some((d) => String(d.code).startsWith('run/'));
  check('Upskill: Run runs the default spec (timed on a GPU, a run/ diagnostic without one)',
    rn && (rn.run?.ok || runDiag), JSON.stringify(rn?.diagnostics));
  const spec = vscode.configuration['upskilld.defaultRunSpec'];
  vscode.configuration['upskilld.defaultRunSpec'] = null;
  await vscode.commands.executeCommand('upskilld.run');
  const errs = vscode.calls.filter((c) => c.name === 'window.showErrorMessage');
  const last = errs[errs.length - 1]?.args || [];
  check('Upskill: Run without a spec says what is missing and offers the spec\'s help and the setting',
    /needs a run spec/.test(last[0]) && last.includes('What goes in it') && last.includes('Open the setting'),
    JSON.stringify(last));
  vscode.configuration['upskilld.defaultRunSpec'] = spec;
  await ext.deactivate();

  // The daemon path wrong: the status bar says so and leads to the setting.
  vscode.configuration['upskilld.path'] = path.join(tree, 'no-such-upskilld');
  await ext.activate({ subscriptions: [] });
  const bar = vscode.status[vscode.status.length - 1];
  check('a wrong upskilld.path: the status bar says "not found — set upskilld.path" and opens it',
    /upskilld not found — set upskilld\.path/.test(bar.text) &&
    bar.command?.command === 'workbench.action.openSettings' && bar.command.arguments[0] === 'upskilld.path',
    JSON.stringify(bar));
  const notFound = vscode.calls.filter((c) => c.name === 'window.showErrorMessage').pop()?.args || [];
  check('a daemon not found: the message says how to install it (the package, or meson install)',
    /sudo apt install \.\/upskilld_\*\.deb/.test(notFound[0]) && /sudo meson install/.test(notFound[0]),
    JSON.stringify(notFound));
  await ext.deactivate();

  // The default setting: the daemon found on PATH, as an installed one is.
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'upk-path-'));
  fs.symlinkSync(path.resolve(daemon), path.join(bin, 'upskilld'));
  const oldPath = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${oldPath}`;
  vscode.configuration['upskilld.path'] = '';
  await ext.activate({ subscriptions: [] });
  const onPath = await vscode.commands.executeCommand('upskilld.status');
  check('the default upskilld.path: the daemon on PATH starts and answers its status',
    onPath && onPath.name === 'upskilld', JSON.stringify(onPath));
  await ext.deactivate();
  process.env.PATH = oldPath;
  fs.rmSync(bin, { recursive: true, force: true });
}

main().catch((e) => check('the test ran to the end', false, e.stack)).finally(() => {
  console.log(`1..${n}`);
  process.exit(failed ? 1 : 0);
});
