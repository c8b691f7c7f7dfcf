// node:os shape and the fixed virtual values' types (the values themselves are the host's
// under node, so only their kinds are compared).
import os, { EOL, platform } from "node:os";
import * as ns from "os";

console.log(typeof os, ns.default === os, EOL === "\n", typeof platform());
for (const f of ["arch", "cpus", "endianness", "freemem", "homedir", "hostname", "loadavg", "platform",
  "release", "tmpdir", "totalmem", "type", "uptime", "userInfo", "version", "networkInterfaces"]) {
  console.log(f, typeof os[f], typeof ns[f]);
}
console.log(Array.isArray(os.cpus()), Array.isArray(os.loadavg()), os.loadavg().length);
console.log(os.endianness(), os.constants.signals.SIGTERM, os.constants.signals.SIGKILL);
console.log(typeof os.userInfo().username, os.devNull);
const again = await import("node:os");
console.log(again.default === os);
