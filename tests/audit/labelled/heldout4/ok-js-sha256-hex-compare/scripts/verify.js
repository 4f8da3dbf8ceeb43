const crypto = require('node:crypto');
const fs = require('node:fs');

const [file, expected] = process.argv.slice(2);
const got = crypto.createHash('sha256').update(fs.readFileSync(file)).digest();
const want = Buffer.from(expected, 'hex');
const ok = got.length === want.length && crypto.timingSafeEqual(got, want);
console.log(ok ? 'match' : `mismatch: ${got.toString('hex')}`);
process.exit(ok ? 0 : 1);
