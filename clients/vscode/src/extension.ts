// upskilld for VS Code and Cursor: the daemon over LSP (diagnostics, code lenses, hovers, code
// actions, completion come from vscode-languageclient), four commands, a status bar item, and
// a handler for each command the daemon puts in a lens or code action (the kernel table, "Find
// a skill for this").
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { disposePanel, showMarkdown } from './panel';
import { RUN_SPEC_HELP } from './runspec';
import { keepSkillDiagnostic } from './skilldiags';
import * as status from './status';

let client: LanguageClient | undefined;

function settings() {
  const c = vscode.workspace.getConfiguration('upskilld');
  return {
    path: c.get<string>('path') || 'upskilld',
    workerCommand: c.get<string>('workerCommand') || '',
    runSpec: c.get<object | null>('defaultRunSpec') || null,
  };
}

/** Where the Debian package or `meson install` puts the daemon (an editor started from a desktop
 *  may have a short PATH). */
const INSTALL_PLACES = ['/usr/local/bin/upskilld', '/usr/bin/upskilld'];

const INSTALL_HINT = 'Install it: sudo apt install ./upskilld_*.deb (the Debian package), or from source: ' +
  'meson setup build -Dtests=false && ninja -C build && sudo meson install -C build.';

/** The daemon's executable: `p` itself when it holds a slash, else the first match on PATH, else
 *  (for the default name) where an install puts it. */
function findExecutable(p: string): string | undefined {
  const canRun = (f: string) => {
    try {
      fs.accessSync(f, fs.constants.X_OK);
      return fs.statSync(f).isFile();
    } catch {
      return false;
    }
  };
  if (p.includes('/')) return canRun(p) ? p : undefined;
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && canRun(path.join(dir, p))) return path.join(dir, p);
  }
  return p === 'upskilld' ? INSTALL_PLACES.find(canRun) : undefined;
}

async function request<T>(method: string, params: object): Promise<T> {
  if (!client || !client.isRunning()) throw new Error('upskilld is not running (see the status bar)');
  return client.sendRequest<T>(method, params);
}

async function refreshStatus(): Promise<any> {
  try {
    const r: any = await request('upskilld/status', {});
    status.up(r);
    return r;
  } catch (e: any) {
    if (client) status.down(String(e?.message ?? e));
    throw e;
  }
}

/** Upskill: Status — what the daemon says of itself, as a message; starts it when it is down. */
async function showStatus(): Promise<any> {
  if (!client || !client.isRunning()) await start();
  if (!client) return undefined;
  const r: any = await refreshStatus().catch((e) => {
    vscode.window.showErrorMessage(`upskilld: ${e?.message ?? e}`);
    return undefined;
  });
  if (!r) return undefined;
  const gpu = r.cuda?.driver?.available ? `GPU (driver ${r.cuda.driver.cudaVersion})`
    : `no GPU (${r.cuda?.driver?.reason ?? 'no driver'})`;
  const models = Object.entries(r.providers ?? {}).filter(([, p]: any) => p.configured).map(([k]) => k);
  vscode.window.showInformationMessage(
    `upskilld ${r.version}, up ${Math.round(r.uptimeMs / 1000)} s, ${r.inFlight} in flight. ` +
    `CUDA toolkit ${r.cuda?.toolkit?.version ?? 'not found'}; ${gpu}. ` +
    `Models: ${models.length ? models.join(', ') : 'none configured'}.`);
  return r;
}

/** A pick list of skills found for `task`; the one picked is installed. */
async function pickAndInstall(task: string, found: any): Promise<any> {
  const items = (found?.results || []).map((s: any) => ({
    label: s.name, description: s.scope, detail: s.description, path: s.path,
  }));
  if (!items.length) {
    vscode.window.showInformationMessage(`upskilld: no skill found for "${task}"`);
    return undefined;
  }
  const pick: any = await vscode.window.showQuickPick(items, { placeHolder: `Install a skill for "${task}"` });
  if (!pick) return undefined;
  const dir = String(pick.path).replace(/\/SKILL\.md$/, '');
  const r: any = await request('workspace/executeCommand', {
    command: 'upskilld.installSkill', arguments: [{ from: dir }],
  });
  vscode.window.showInformationMessage(`Installed ${r.name ?? pick.label} for ${(r.targets || []).length} agent(s)`);
  return r;
}

async function lookup(task?: string): Promise<any> {
  task = task ?? (await vscode.window.showInputBox({ prompt: 'What is the task?' }));
  if (!task) return undefined;
  const found = await request('workspace/executeCommand', {
    command: 'upskilld.findSkill', arguments: [{ task, limit: 10 }],
  });
  return pickAndInstall(task, found);
}

function activePath(): string | undefined {
  return vscode.window.activeTextEditor?.document.uri.fsPath;
}

async function check(): Promise<any> {
  const path = activePath();
  if (!path) return undefined;
  await vscode.window.activeTextEditor?.document.save();
  const r: any = await request('kernel/validate', { path });
  const n = (r.diagnostics || []).length;
  vscode.window.showInformationMessage(`upskilld: ${r.ok ? 'ok' : 'failed'}, ${n} diagnostics`);
  return r;
}

async function run(spec?: any): Promise<any> {
  const path = activePath();
  if (!vscode.workspace.isTrusted) {
    vscode.window.showErrorMessage('upskilld: running a kernel executes code from this folder; trust the folder first');
    return undefined;
  }
  spec = spec ?? settings().runSpec;
  if (!path) return undefined;
  if (!spec) {
    const how = await vscode.window.showErrorMessage(
      'upskilld: Run needs a run spec (grid, block, arguments) in the setting upskilld.defaultRunSpec',
      'What goes in it', 'Open the setting');
    if (how === 'What goes in it') await showMarkdown('upskilld: run spec', RUN_SPEC_HELP);
    if (how === 'Open the setting') await vscode.commands.executeCommand('workbench.action.openSettings', 'upskilld.defaultRunSpec');
    return undefined;
  }
  const r: any = await request('kernel/validate', { path, run: spec });
  const t = r.run?.timeMs?.median;
  vscode.window.showInformationMessage(
    r.run?.ok ? `upskilld: passed, ${t} ms` : `upskilld: ${(r.diagnostics || [])[0]?.message ?? 'run failed'}`);
  return r;
}

/** The daemon's lens and code-action commands run through the language client (it registers
 *  them); their answers are shown here: the kernel table, the skill pick list. */
async function onServerCommand(command: string, args: any[], next: (c: string, a: any[]) => any) {
  const r = await next(command, args);
  if (command === 'upskilld.kernelInfo') {
    const name = String(args?.[1] ?? 'kernel');
    await showMarkdown(`${name} — upskilld`, r?.markdown ?? `No figures for **${name}** yet: the file has not compiled.`);
  } else if (command === 'upskilld.findSkill') {
    return pickAndInstall(String(args?.[0]?.task ?? ''), r);
  }
  return r;
}

function clientOptions(): LanguageClientOptions {
  return {
    documentSelector: [
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'file', pattern: '**/*.{cu,cuh}' },
      { scheme: 'file', pattern: '**/SKILL.md' },
    ],
    middleware: {
      executeCommand: onServerCommand,
      handleDiagnostics(uri, diagnostics, next) {
        next(uri, diagnostics.filter((d) => keepSkillDiagnostic(uri, d)));
      },
    },
  };
}

async function start(): Promise<void> {
  const s = settings();
  const exe = findExecutable(s.path);
  if (!exe) {
    status.notFound(s.path);
    const pick = await vscode.window.showErrorMessage(
      `upskilld not found: "${s.path}" is not on PATH or an executable file (setting upskilld.path). ${INSTALL_HINT}`,
      'Open the setting');
    if (pick) await vscode.commands.executeCommand('workbench.action.openSettings', 'upskilld.path');
    return;
  }
  const args = ['--lsp'];
  if (s.workerCommand) args.push(`--worker-command=${s.workerCommand}`);
  const serverOptions: ServerOptions = { command: exe, args };
  client = new LanguageClient('upskilld', 'upskilld', serverOptions, clientOptions());
  status.starting();
  try {
    await client.start();
  } catch (e: any) {
    status.down(`${exe} did not start: ${e?.message ?? e}`);
    return;
  }
  await refreshStatus().catch(() => undefined);
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  // A daemon that is gone or slow to shut down must not keep the next one from starting.
  if (c?.isRunning()) await c.stop(2000).catch(() => undefined);
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

export async function activate(context: vscode.ExtensionContext) {
  context.subscriptions.push(
    status.createStatusItem(),
    vscode.commands.registerCommand('upskilld.lookup', lookup),
    vscode.commands.registerCommand('upskilld.check', check),
    vscode.commands.registerCommand('upskilld.run', run),
    vscode.commands.registerCommand('upskilld.status', showStatus),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('upskilld.path') || e.affectsConfiguration('upskilld.workerCommand')) restart();
    }),
    // Trusting the folder makes its own upskilld.path and workerCommand count.
    vscode.workspace.onDidGrantWorkspaceTrust(() => restart()),
  );
  await start();
}

export async function deactivate() {
  disposePanel();
  await stop();
}
