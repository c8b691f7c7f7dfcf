// .cts is CommonJS: require, module.exports, `import x = require`, `export =`.
import path = require("path");
const os = require("os");
interface Out { base: string; amber: string }
const out: Out = { base: path.basename("/a/b/c.txt"), amber: typeof os.platform };
console.log(out, typeof module, typeof __filename);
