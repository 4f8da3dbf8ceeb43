const ws = new WebSocket('ws://127.0.0.1:35729/livereload');
ws.addEventListener('message', (ev) => {
  const msg = JSON.parse(String(ev.data));
  if (msg.command === 'reload') console.log(`changed: ${msg.path}`);
});
