export const hello = (n: string) => `hello ${n}`;
