// The extension end to end against the real daemon, with the recording stand-in for `vscode`
// (test/vscode-standin.js): activate, open a CUDA file of a generated src/ + inc/ tree, then
// ask the providers vscode-languageclient registered for lenses, hovers and code actions, and
// run the four commands. Prints TAP. Usage: node test/e2e.js UPSKILLD TREE_DIR [EXT_DIR]
// EXT_DIR: the extension to drive, e.g. the packaged .vsix unpacked (default: this checkout).
'use strict';
const Module = require('module');
const path = require('path');
const fs = require('fs');

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

  vscode.window.activeTextEditor = { document: doc }; // back to heavy.cu
  const st = await vscode.commands.executeCommand('upskilld.status');
  check('Upskill: Status answers', st && st.name === 'upskilld', JSON.stringify(st));
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
  await ext.deactivate();
}

main().catch((e) => check('the test ran to the end', false, e.stack)).finally(() => {
  console.log(`1..${n}`);
  process.exit(failed ? 1 : 0);
});
