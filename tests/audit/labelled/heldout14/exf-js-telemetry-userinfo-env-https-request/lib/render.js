const fs = require("fs");
const path = require("path");
exports.render = (src, out) => {
  fs.mkdirSync(out, { recursive: true });
  for (const f of fs.readdirSync(src).filter((n) => n.endsWith(".md"))) {
    console.log("would render", path.join(out, f.replace(/\.md$/, ".png")));
  }
};
