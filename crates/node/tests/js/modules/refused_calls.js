// Amber's own behaviour (node runs these): a refused module loads, and calling or
// constructing one of its exports throws ERR_AMBER_MODULE_REFUSED naming the export and why.
const attempts = [
  ['child_process', (m) => m.spawn('ls')],
  ['node:child_process', (m) => m.execSync('ls')],
  ['net', (m) => new m.Socket()],
  ['net', (m) => m.createServer()],
  ['dgram', (m) => m.createSocket('udp4')],
  ['dns', (m) => m.lookup('example.com', () => {})],
  ['dns/promises', (m) => m.resolve4('example.com')],
  ['worker_threads', (m) => new m.Worker('./w.js')],
  ['cluster', (m) => m.fork()],
  ['vm', (m) => m.runInNewContext('1')],
  ['v8', (m) => m.serialize({})],
  ['http2', (m) => m.connect('https://example.com')],
  ['tls', (m) => m.connect(443)],
  ['inspector', (m) => m.open()],
  ['repl', (m) => m.start()],
  ['domain', (m) => m.create()],
  ['trace_events', (m) => m.createTracing({ categories: ['v8'] })],
  ['wasi', (m) => new m.WASI()],
  ['_stream_wrap', (M) => new M()],
  ['_tls_wrap', (m) => m.connect()],
];
for (const [name, attempt] of attempts) {
  try {
    attempt(require(name));
    console.log(name, 'did not throw');
  } catch (e) {
    console.log(name, e.code, e instanceof Error, e.message);
  }
}
class Sub extends require('net').Server {}
try {
  new Sub();
} catch (e) {
  console.log('subclass', e.code);
}
import('node:child_process').then((m) => console.log('import', typeof m.default.spawn, typeof m.spawn));
