// ts-load: load the TypeScript compiler (9 MB of JavaScript) and print one line.
const ts = require("typescript");
console.log("typescript " + ts.version + " exports " + Object.keys(ts).length);
