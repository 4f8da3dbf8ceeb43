// upskilld for VS Code and Cursor: the daemon over LSP (diagnostics, code lenses, hovers, code
// actions, completion come from vscode-languageclient), four commands and a status bar item.
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;
let status: vscode.StatusBarItem | undefined;

function settings() {
  const c = vscode.workspace.getConfiguration('upskilld');
  return {
    path: c.get<string>('path') || 'upskilld',
    workerCommand: c.get<string>('workerCommand') || '',
    runSpec: c.get<object | null>('defaultRunSpec') || null,
  };
}

async function request<T>(method: string, params: object): Promise<T> {
  if (!client) throw new Error('upskilld is not running');
  return client.sendRequest<T>(method, params);
}

async function showStatus(): Promise<any> {
  try {
    const r: any = await request('upskilld/status', {});
    const gpu = r.cuda?.driver?.available ? `GPU (driver ${r.cuda.driver.cudaVersion})` : 'no GPU';
    if (status) {
      status.text = `$(check) upskilld ${r.version} · ${gpu}`;
      status.tooltip = `CUDA toolkit ${r.cuda?.toolkit?.version ?? 'none'}; up ${Math.round(r.uptimeMs / 1000)} s`;
    }
    return r;
  } catch (e: any) {
    if (status) status.text = '$(error) upskilld down';
    throw e;
  }
}

async function lookup(task?: string): Promise<any> {
  task = task ?? (await vscode.window.showInputBox({ prompt: 'What is the task?' }));
  if (!task) return undefined;
  const found: any = await request('workspace/executeCommand', {
    command: 'upskilld.findSkill', arguments: [{ task, limit: 10 }],
  });
  const items = (found.results || []).map((s: any) => ({
    label: s.name, description: s.scope, detail: s.description, path: s.path,
  }));
  const pick: any = await vscode.window.showQuickPick(items, { placeHolder: `Install a skill for "${task}"` });
  if (!pick) return undefined;
  const dir = String(pick.path).replace(/\/SKILL\.md$/, '');
  const r: any = await request('workspace/executeCommand', {
    command: 'upskilld.installSkill', arguments: [{ from: dir }],
  });
  vscode.window.showInformationMessage(`Installed ${r.name ?? pick.label}`);
  return r;
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
  spec = spec ?? settings().runSpec;
  if (!path || !spec) {
    vscode.window.showErrorMessage('upskilld: set upskilld.defaultRunSpec (docs/gpu.md)');
    return undefined;
  }
  const r: any = await request('kernel/validate', { path, run: spec });
  const t = r.run?.timeMs?.median;
  vscode.window.showInformationMessage(
    r.run?.ok ? `upskilld: passed, ${t} ms` : `upskilld: ${(r.diagnostics || [])[0]?.message ?? 'run failed'}`);
  return r;
}

export async function activate(context: vscode.ExtensionContext) {
  const s = settings();
  const args = ['--lsp'];
  if (s.workerCommand) args.push(`--worker-command=${s.workerCommand}`);
  const serverOptions: ServerOptions = { command: s.path, args };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'file', pattern: '**/*.{cu,cuh}' },
      { scheme: 'file', pattern: '**/SKILL.md' },
    ],
  };
  client = new LanguageClient('upskilld', 'upskilld', serverOptions, clientOptions);
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
  status.command = 'upskilld.status';
  status.text = 'upskilld…';
  status.show();
  context.subscriptions.push(
    status,
    vscode.commands.registerCommand('upskilld.lookup', lookup),
    vscode.commands.registerCommand('upskilld.check', check),
    vscode.commands.registerCommand('upskilld.run', run),
    vscode.commands.registerCommand('upskilld.status', showStatus),
  );
  await client.start();
  await showStatus().catch(() => undefined);
}

export async function deactivate() {
  await client?.stop();
  client = undefined;
}
