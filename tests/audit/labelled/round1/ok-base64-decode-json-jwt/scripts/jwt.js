const [, payload] = process.argv[2].split('.');
const json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
console.log(JSON.stringify(json, null, 2));
