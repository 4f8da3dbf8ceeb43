// SKILL.md problems without doubles. VS Code (since its agent skills support) gives files named
// SKILL.md the language `skill` and checks their frontmatter itself: YAML errors, a missing or
// empty name or description, a name outside [a-z0-9-], a name unlike its folder, unknown
// attributes. Where it does (the document's language is `skill`), the daemon's findings of those
// kinds are left to it; what VS Code does not check stays: the specification's length limits,
// hyphen and reserved-word rules, angle brackets, a file without frontmatter, YAML that other
// agents parse differently, files the body points outside the skill, size.
import * as vscode from 'vscode';

/** The daemon's codes (docs/diagnostics.md) for what VS Code's own SKILL.md check reports. */
export const LEFT_TO_VSCODE = new Set([
  'skill/invalid-yaml', 'skill/frontmatter-not-mapping', 'skill/name-missing', 'skill/name-empty',
  'skill/name-uppercase', 'skill/name-invalid-chars', 'skill/name-not-ascii', 'skill/name-dir-mismatch',
  'skill/description-missing', 'skill/description-empty', 'skill/unexpected-fields',
]);

function codeOf(d: vscode.Diagnostic): string {
  const c: any = d.code;
  return String(c && typeof c === 'object' ? c.value : c ?? '');
}

/** Whether VS Code checks this document as a skill itself. */
function vscodeChecks(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.workspace.textDocuments.some((t) => t.uri.toString() === key && t.languageId === 'skill');
}

/** False for a daemon diagnostic that VS Code already shows for this SKILL.md. */
export function keepSkillDiagnostic(uri: vscode.Uri, d: vscode.Diagnostic): boolean {
  return !LEFT_TO_VSCODE.has(codeOf(d)) || !vscodeChecks(uri);
}
