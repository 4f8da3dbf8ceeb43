const token = process.argv[2] || '';
const [, payload] = token.split('.');
const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
console.log(JSON.stringify(claims, null, 2));
if (claims.exp) console.log('expires', new Date(claims.exp * 1000).toISOString());
