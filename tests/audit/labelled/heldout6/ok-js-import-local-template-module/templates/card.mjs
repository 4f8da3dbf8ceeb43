export function render(name) {
  return `export function ${name}() { return null; }`;
}
