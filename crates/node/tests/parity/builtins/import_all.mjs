// The same names under ES import, with and without `node:`: a namespace whose default is
// the CommonJS exports.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
process.on('warning', () => {});
const names = [
  'async_hooks', 'child_process', 'cluster', 'console', 'constants', 'dgram', 'diagnostics_channel', 'dns',
  'dns/promises', 'domain', 'http2', 'inspector', 'net', 'readline', 'readline/promises', 'repl',
  'stream/consumers', 'sys', 'tls', 'trace_events', 'tty', 'v8', 'vm', 'wasi', 'worker_threads',
];
for (const name of names) {
  const a = await import(name);
  const b = await import(`node:${name}`);
  console.log(name, a.default === b.default, a.default === require(name));
}
import { spawn } from 'node:child_process';
import { isIP } from 'net';
import { isMainThread } from 'node:worker_threads';
import { isatty } from 'tty';
console.log(typeof spawn, isIP('10.0.0.1'), isMainThread, isatty(1));
