import proc from 'node:process';
import { nextTick, platform } from 'node:process';
console.log(proc === process, nextTick === process.nextTick, platform);
console.log(typeof process, Object.prototype.toString.call(process));
console.log(process.platform, process.arch, typeof process.version, process.version.startsWith('v20.'));
console.log(typeof process.versions.node, typeof process.versions.v8);
console.log(Array.isArray(process.argv), process.argv.length >= 2, typeof process.argv[0]);
console.log(process.argv.slice(2));
console.log(typeof process.env, typeof process.pid, Number.isInteger(process.pid));
console.log(typeof process.hrtime(), process.hrtime().length, typeof process.hrtime.bigint());
const t = process.hrtime();
const d = process.hrtime(t);
console.log(d.length, d[0] >= 0, d[1] >= 0);
console.log(typeof process.uptime(), process.uptime() >= 0);
const m = process.memoryUsage();
console.log(Object.keys(m).join(','), m.heapUsed > 0);
console.log(typeof process.cwd(), process.cwd().startsWith('/'));
console.log(process.exitCode);
console.log(typeof process.on, typeof process.emit, process.listenerCount('foo'));
process.on('foo', (x) => console.log('foo event', x));
process.emit('foo', 42);
try {
  process.nextTick(42);
} catch (e) {
  console.log(e.name, e.code, e.message);
}
process.stdout.write('partial ');
process.stdout.write('line\n');
process.stdout.write('two\nlines\n');
console.log(typeof process.stdout.write, typeof process.stderr.write);
process.on('exit', (code) => console.log('exit event', code));
