// One webview beside the editor that shows Markdown from the daemon: a kernel's full table when
// its lens is clicked, the run-spec help. VS Code's own Markdown renderer (the built-in
// markdown extension's `markdown.api.render`) turns it into HTML; without it, the text as is.
import * as vscode from 'vscode';

let panel: vscode.WebviewPanel | undefined;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function render(markdown: string): Promise<string> {
  try {
    const html = await vscode.commands.executeCommand<string>('markdown.api.render', markdown);
    if (typeof html === 'string' && html) return html;
  } catch {
    // no markdown extension (a trimmed-down editor): plain text below
  }
  return `<pre>${escapeHtml(markdown)}</pre>`;
}

// No scripts; styles only inline, in the editor's own colours.
const HEAD = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); }
  table { border-collapse: collapse; margin: 0.5em 0; }
  th, td { border: 1px solid var(--vscode-panel-border, #888); padding: 2px 8px; text-align: left; }
  code, pre { font-family: var(--vscode-editor-font-family); }
</style>`;

/** Shows `markdown` under `title` in the one upskilld panel (created beside the editor, or
 *  revealed and replaced). */
export async function showMarkdown(title: string, markdown: string): Promise<void> {
  const body = await render(markdown);
  if (!panel) {
    panel = vscode.window.createWebviewPanel('upskilld.info', title, {
      viewColumn: vscode.ViewColumn.Beside, preserveFocus: true,
    }, { enableScripts: false, enableFindWidget: true });
    panel.onDidDispose(() => { panel = undefined; });
  } else {
    panel.title = title;
    panel.reveal(vscode.ViewColumn.Beside, true);
  }
  panel.webview.html = `<!DOCTYPE html><html><head>${HEAD}</head><body class="upskilld-info">${body}</body></html>`;
}

export function disposePanel(): void {
  panel?.dispose();
}
