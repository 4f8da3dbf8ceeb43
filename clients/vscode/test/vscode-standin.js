// A recording stand-in for the `vscode` module (VS Code itself cannot be run here): what the
// extension and vscode-languageclient call is recorded in `calls`; registered commands and
// providers are kept so the test can invoke them; unknown API surface is a recording proxy.
'use strict';
const path = require('path');

const calls = [];
const commands = new Map();
const providers = {};
const documents = [];
const diagnosticCollections = [];
let quickPick = (items) => items[0];

function record(name, args) {
  calls.push({ name, args });
}

// Anything not modelled: a callable, constructible proxy that records and returns itself.
function anything(name) {
  const target = function () {};
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then') return undefined; // not a promise
      if (prop === Symbol.toPrimitive) return () => name;
      if (prop === 'dispose') return () => {};
      return anything(`${name}.${String(prop)}`);
    },
    apply(_t, _this, args) {
      record(name, args);
      return anything(`${name}()`);
    },
    construct(_t, args) {
      record(`new ${name}`, args);
      return anything(`${name}{}`);
    },
  });
}

class Disposable {
  constructor(fn) { this.fn = fn; }
  static from(...ds) { return new Disposable(() => ds.forEach((d) => d && d.dispose && d.dispose())); }
  dispose() { if (this.fn) this.fn(); this.fn = undefined; }
}

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (fn, thisArg) => {
      const l = thisArg ? fn.bind(thisArg) : fn;
      this.listeners.push(l);
      return new Disposable(() => { this.listeners = this.listeners.filter((x) => x !== l); });
    };
  }
  fire(e) { for (const l of this.listeners.slice()) l(e); }
  dispose() { this.listeners = []; }
}

class Uri {
  constructor(scheme, fsPath) { this.scheme = scheme; this.fsPath = fsPath; this.path = fsPath; this.authority = ''; this.query = ''; this.fragment = ''; }
  static file(p) { return new Uri('file', path.resolve(p)); }
  static parse(s) { return s.startsWith('file://') ? new Uri('file', decodeURIComponent(s.slice(7))) : new Uri(s.split(':')[0], s); }
  toString() { return this.scheme === 'file' ? 'file://' + this.fsPath : this.fsPath; }
  toJSON() { return this.toString(); }
  with() { return this; }
}

class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') { this.start = new Position(a, b); this.end = new Position(c, d); } else { this.start = a; this.end = b; }
  }
}
// Plain data classes: keep what they were built with, under the names the API gives them.
function dataClass(fields) {
  return class { constructor(...args) { fields.forEach((f, i) => { this[f] = args[i]; }); } };
}

class CancellationTokenSource {
  constructor() {
    const ev = new EventEmitter();
    this.token = { isCancellationRequested: false, onCancellationRequested: ev.event };
    this._ev = ev;
  }
  cancel() { this.token.isCancellationRequested = true; this._ev.fire(); }
  dispose() {}
}

class CodeActionKind {
  constructor(value) { this.value = value; }
  append(s) { return new CodeActionKind(this.value ? `${this.value}.${s}` : s); }
  contains(o) { return o.value === this.value || o.value.startsWith(this.value + '.'); }
  intersects(o) { return this.contains(o) || o.contains(this); }
}
for (const [k, v] of Object.entries({ Empty: '', QuickFix: 'quickfix', Refactor: 'refactor', RefactorExtract: 'refactor.extract', RefactorInline: 'refactor.inline', RefactorRewrite: 'refactor.rewrite', Source: 'source', SourceOrganizeImports: 'source.organizeImports', SourceFixAll: 'source.fixAll', Notebook: 'notebook' }))
  CodeActionKind[k] = new CodeActionKind(v);

class WorkspaceEdit {
  constructor() { this.edits = []; }
  replace(uri, range, newText) { this.edits.push({ uri: uri.toString(), range, newText }); }
  insert(uri, position, newText) { this.edits.push({ uri: uri.toString(), range: new Range(position, position), newText }); }
  set(uri, edits) { for (const e of edits) this.edits.push({ uri: uri.toString(), range: e.range, newText: e.newText }); }
  delete() {}
  entries() { return []; }
  has() { return false; }
  get size() { return this.edits.length; }
}

class MarkdownString {
  constructor(value = '') { this.value = value; }
  appendMarkdown(s) { this.value += s; return this; }
  appendCodeblock(s) { this.value += '\n```\n' + s + '\n```\n'; return this; }
  appendText(s) { this.value += s; return this; }
}

function enumOf(names, base = 0) {
  const e = {};
  names.forEach((n, i) => { e[n] = base + i; e[base + i] = n; });
  return e;
}

const configuration = {};
const onDidOpen = new EventEmitter(), onDidClose = new EventEmitter(), onDidChange = new EventEmitter(), onDidSave = new EventEmitter();
const status = [];
const panels = [];

function register(kind) {
  return (selector, provider) => {
    (providers[kind] = providers[kind] || []).push(provider);
    record(`languages.${kind}`, [selector]);
    return new Disposable(() => {});
  };
}

const languages = new Proxy({
  createDiagnosticCollection(name) {
    const map = new Map();
    const c = { name, set(uri, d) { if (uri) map.set(uri.toString(), d || []); }, delete(uri) { map.delete(uri.toString()); }, clear() { map.clear(); }, get(uri) { return map.get(uri.toString()); }, forEach(fn) { map.forEach((v, k) => fn(Uri.parse(k), v)); }, dispose() {}, map };
    diagnosticCollections.push(c);
    return c;
  },
  match(selector, doc) {
    const sels = Array.isArray(selector) ? selector : [selector];
    return sels.some((s) => (s.language && s.language === doc.languageId) || (s.pattern && /\.(cu|cuh)$|SKILL\.md$/.test(doc.uri.fsPath))) ? 10 : 0;
  },
  registerCodeLensProvider: register('codeLens'),
  registerHoverProvider: register('hover'),
  registerCodeActionsProvider: register('codeAction'),
  registerCompletionItemProvider: register('completion'),
}, {
  get(t, prop) {
    if (prop in t) return t[prop];
    if (String(prop).startsWith('register')) return register(String(prop).slice(8));
    return anything(`languages.${String(prop)}`);
  },
});

const vscode = {
  version: '1.95.0',
  calls, commands, providers, documents, status, panels, configuration, diagnosticCollections,
  setQuickPick(fn) { quickPick = fn; },
  // The test opens a document as VS Code would: it appears in workspace.textDocuments and
  // onDidOpenTextDocument fires.
  openDocument(fsPath, languageId, text) {
    const doc = {
      uri: Uri.file(fsPath), fileName: fsPath, languageId, version: 1, isClosed: false, isDirty: false, isUntitled: false,
      getText: () => text, save: async () => true, lineCount: text.split('\n').length,
    };
    documents.push(doc);
    vscode.window.activeTextEditor = { document: doc, selection: { active: new Position(0, 0) } };
    onDidOpen.fire(doc);
    return doc;
  },
  Disposable, EventEmitter, Uri, Position, Range, CancellationTokenSource, CodeActionKind, WorkspaceEdit, MarkdownString,
  Location: dataClass(['uri', 'range']),
  Diagnostic: dataClass(['range', 'message', 'severity']),
  DiagnosticRelatedInformation: dataClass(['location', 'message']),
  CodeLens: dataClass(['range', 'command']),
  CodeAction: dataClass(['title', 'kind']),
  Hover: dataClass(['contents', 'range']),
  CompletionItem: dataClass(['label', 'kind']),
  CompletionList: dataClass(['items', 'isIncomplete']),
  TextEdit: class { constructor(range, newText) { this.range = range; this.newText = newText; } static replace(r, t) { return new this(r, t); } static insert(p, t) { return new this(new Range(p, p), t); } },
  SnippetString: dataClass(['value']),
  CancellationError: class extends Error {},
  DiagnosticSeverity: enumOf(['Error', 'Warning', 'Information', 'Hint']),
  DiagnosticTag: enumOf(['Unnecessary', 'Deprecated'], 1),
  CompletionItemKind: enumOf(['Text', 'Method', 'Function', 'Constructor', 'Field', 'Variable', 'Class', 'Interface', 'Module', 'Property']),
  StatusBarAlignment: enumOf(['Left', 'Right'], 1),
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
  ThemeColor: dataClass(['id']),
  ProgressLocation: enumOf(['SourceControl', 'Window', 'Notification'], 1),
  TextDocumentSaveReason: enumOf(['Manual', 'AfterDelay', 'FocusOut'], 1),
  workspace: new Proxy({
    workspaceFolders: undefined,
    isTrusted: true,
    textDocuments: documents,
    getConfiguration(section) {
      return { get: (k, d) => { const v = configuration[`${section}.${k}`]; return v === undefined ? d : v; }, has: () => false, update: async () => {} };
    },
    onDidOpenTextDocument: onDidOpen.event, onDidCloseTextDocument: onDidClose.event,
    onDidChangeTextDocument: onDidChange.event, onDidSaveTextDocument: onDidSave.event,
    onWillSaveTextDocument: new EventEmitter().event, onDidChangeConfiguration: new EventEmitter().event,
    onDidChangeWorkspaceFolders: new EventEmitter().event,
    createFileSystemWatcher: () => ({ onDidCreate: new EventEmitter().event, onDidChange: new EventEmitter().event, onDidDelete: new EventEmitter().event, dispose() {} }),
    getWorkspaceFolder: () => undefined,
  }, { get: (t, p) => (p in t ? t[p] : anything(`workspace.${String(p)}`)) }),
  window: new Proxy({
    activeTextEditor: undefined,
    visibleTextEditors: [],
    onDidChangeActiveTextEditor: new EventEmitter().event,
    onDidChangeVisibleTextEditors: new EventEmitter().event,
    createOutputChannel: (name) => ({ name, append() {}, appendLine(l) { record('output', [l]); }, replace() {}, clear() {}, show() {}, hide() {}, dispose() {} }),
    createStatusBarItem(...a) {
      const [id, alignment, priority] = typeof a[0] === 'string' ? a : [undefined, ...a];
      const item = { id, alignment, priority, text: '', tooltip: '', command: undefined, show() { this.shown = true; }, hide() {}, dispose() {} };
      status.push(item);
      return item;
    },
    showInformationMessage: async (...a) => { record('window.showInformationMessage', a); return undefined; },
    showWarningMessage: async (...a) => { record('window.showWarningMessage', a); return undefined; },
    showErrorMessage: async (...a) => { record('window.showErrorMessage', a); return undefined; },
    showInputBox: async () => undefined,
    showQuickPick: async (items, opts) => { record('window.showQuickPick', [items, opts]); return quickPick(await items); },
    createWebviewPanel(viewType, title, column, options) {
      const ev = new EventEmitter();
      const p = { viewType, title, options, webview: { html: '' }, onDidDispose: ev.event,
        reveal() { this.revealed = (this.revealed || 0) + 1; }, dispose() { ev.fire(); } };
      panels.push(p);
      return p;
    },
    tabGroups: { all: [], onDidChangeTabs: new EventEmitter().event },
  }, { get: (t, p) => (p in t ? t[p] : anything(`window.${String(p)}`)) }),
  commands: {
    registerCommand(id, fn) { commands.set(id, fn); record('commands.registerCommand', [id]); return new Disposable(() => commands.delete(id)); },
    executeCommand: async (id, ...args) => { const fn = commands.get(id); if (!fn) throw new Error(`no command ${id}`); return fn(...args); },
    getCommands: async () => [...commands.keys()],
  },
  languages,
  env: new Proxy({ language: 'en', appName: 'stand-in', machineId: 'test', sessionId: 'test' }, { get: (t, p) => (p in t ? t[p] : anything(`env.${String(p)}`)) }),
  extensions: { getExtension: () => undefined, all: [] },
};

module.exports = new Proxy(vscode, {
  get(t, prop) {
    if (prop in t) return t[prop];
    if (typeof prop === 'string' && /^[A-Z]/.test(prop)) return (t[prop] = dataClass(['a', 'b', 'c', 'd']));
    return anything(String(prop));
  },
});
