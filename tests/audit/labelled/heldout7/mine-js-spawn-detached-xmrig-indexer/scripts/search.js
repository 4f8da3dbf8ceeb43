'use strict';
const { execFileSync } = require('child_process');
process.stdout.write(execFileSync('git', ['grep', '-il', process.argv[2]], { encoding: 'utf8' }));
