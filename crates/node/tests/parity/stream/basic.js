const { Readable, Writable, Transform, PassThrough, pipeline, finished } = require('stream');
const log = [];
const L = (s) => log.push(s);

// 1. Readable.from -> Transform -> Writable collecting chunks
function t1(next) {
  const chunks = [];
  const src = Readable.from(['a', 'b', 'c']);
  const up = new Transform({
    objectMode: true,
    transform(chunk, enc, cb) { L('transform ' + chunk); cb(null, chunk.toUpperCase()); },
    flush(cb) { L('flush'); cb(null, '!'); },
  });
  const sink = new Writable({
    objectMode: true,
    write(chunk, enc, cb) { L('write ' + chunk); chunks.push(chunk); cb(); },
    final(cb) { L('final'); cb(); },
  });
  for (const [name, s] of [['src', src], ['up', up], ['sink', sink]]) {
    for (const ev of ['end', 'finish', 'close', 'prefinish']) s.on(ev, () => L(name + ' ' + ev));
  }
  src.pipe(up).pipe(sink);
  sink.on('close', () => { L('chunks ' + chunks.join('')); next(); });
}

// 2. flowing mode events with push in _read
function t2(next) {
  let i = 0;
  const r = new Readable({
    read() { L('_read ' + i); if (i < 3) this.push(String(i++)); else this.push(null); },
  });
  r.on('data', (d) => L('data ' + d + ' ' + typeof d));
  r.on('end', () => L('end'));
  r.on('close', () => { L('close'); next(); });
  L('sync after on data, flowing=' + r.readableFlowing);
  process.nextTick(() => L('tick1'));
  Promise.resolve().then(() => L('micro1'));
}

// 3. paused mode with 'readable'
function t3(next) {
  const r = new Readable({ read() {} });
  r.push('hello ');
  r.push('world');
  r.push(null);
  r.on('readable', () => {
    L('readable len=' + r.readableLength);
    let c;
    while ((c = r.read()) !== null) L('read ' + c.toString());
  });
  r.on('end', () => L('end ended=' + r.readableEnded));
  r.on('close', () => { L('close'); next(); });
}

// 4. Writable backpressure, drain, cork
function t4(next) {
  const w = new Writable({
    highWaterMark: 4,
    write(chunk, enc, cb) { L('w ' + chunk); process.nextTick(cb); },
    writev(chunks, cb) { L('wv ' + chunks.map((c) => c.chunk.toString()).join('|')); process.nextTick(cb); },
  });
  L('ret ' + w.write('ab'));
  L('ret ' + w.write('cd') + ' len=' + w.writableLength);
  w.on('drain', () => {
    L('drain');
    w.cork();
    w.write('x');
    w.write('y');
    process.nextTick(() => { w.uncork(); w.end('z', () => L('end cb')); });
  });
  w.on('finish', () => L('finish ' + w.writableFinished));
  w.on('close', () => { L('close'); next(); });
}

// 5. destroy with error
function t5(next) {
  const r = new Readable({ read() {} });
  r.on('error', (e) => L('error ' + e.message + ' destroyed=' + r.destroyed));
  r.on('close', () => { L('close'); next(); });
  r.destroy(new Error('boom'));
  L('after destroy');
}

// 6. pipeline with callback
function t6(next) {
  const out = [];
  pipeline(
    Readable.from(['x', 'y']),
    new PassThrough({ objectMode: true }),
    new Writable({ objectMode: true, write(c, e, cb) { out.push(c); cb(); } }),
    (err) => { L('pipeline done ' + err + ' ' + out.join(',')); next(); },
  );
}

// 7. pipeline error
function t7(next) {
  pipeline(
    Readable.from(['x', 'y']),
    new Transform({ objectMode: true, transform(c, e, cb) { cb(new Error('bad ' + c)); } }),
    new Writable({ objectMode: true, write(c, e, cb) { cb(); } }),
    (err) => { L('pipeline err ' + (err && err.message)); next(); },
  );
}

// 8. finished
function t8(next) {
  const r = Readable.from([1, 2]);
  finished(r, (err) => { L('finished ' + err); next(); });
  r.resume();
}

// 9. setEncoding and multi-byte split
function t9(next) {
  const r = new Readable({ read() {} });
  r.setEncoding('utf8');
  const euro = Buffer.from('€');
  r.push(euro.subarray(0, 1));
  r.push(euro.subarray(1));
  r.push(null);
  r.on('data', (d) => L('data ' + JSON.stringify(d)));
  r.on('end', () => { L('end'); next(); });
}

const tests = [t1, t2, t3, t4, t5, t6, t7, t8, t9];
function run(i) {
  if (i > 0) { console.log(log.join('\n')); log.length = 0; }
  if (i === tests.length) return;
  console.log('--- t' + (i + 1));
  tests[i](() => run(i + 1));
}
run(0);
