let s = '';
process.stdin.on('data', (c) => (s += c)).on('end', () => console.log(Object.keys(JSON.parse(s).versions).slice(-5)));
