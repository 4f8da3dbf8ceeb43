const fs = require('fs');
WebAssembly.instantiate(fs.readFileSync(__dirname + '/../lib/hash.wasm')).then(m => m.instance.exports.run());
