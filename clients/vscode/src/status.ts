// The status bar item: starting, up (version, GPU or not), not found (with the way to the
// setting), down (with the reason). A click shows the status, or opens the setting.
import * as vscode from 'vscode';

let item: vscode.StatusBarItem | undefined;

const OPEN_PATH_SETTING: vscode.Command = {
  title: 'Set upskilld.path', command: 'workbench.action.openSettings', arguments: ['upskilld.path'],
};

export function createStatusItem(): vscode.StatusBarItem {
  item = vscode.window.createStatusBarItem('upskilld.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'upskilld';
  starting();
  item.show();
  return item;
}

function set(text: string, tooltip: string, command: string | vscode.Command, error = false) {
  if (!item) return;
  item.text = text;
  item.tooltip = tooltip;
  item.command = command;
  item.backgroundColor = error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
}

export function starting(): void {
  set('$(sync~spin) upskilld', 'upskilld is starting', 'upskilld.status');
}

/** The daemon answered upskilld/status. */
export function up(r: any): string {
  const gpu = r.cuda?.driver?.available ? `GPU (driver ${r.cuda.driver.cudaVersion})` : 'no GPU';
  set(`$(check) upskilld ${r.version} · ${gpu}`,
    `CUDA toolkit ${r.cuda?.toolkit?.version ?? 'none'}; up ${Math.round(r.uptimeMs / 1000)} s. Click for details.`,
    'upskilld.status');
  return gpu;
}

export function notFound(path: string): void {
  set('$(error) upskilld not found — set upskilld.path',
    `No executable "${path}" (upskilld.path). Click to open the setting.`, OPEN_PATH_SETTING, true);
}

export function down(reason: string): void {
  set('$(error) upskilld down', `${reason}. Click to retry.`, 'upskilld.status', true);
}
