const { Readable, Writable, PassThrough, Transform } = require('stream');
const log = [];

// pipe a fast readable into a slow writable: backpressure pauses the source
let i = 0;
const src = new Readable({
  highWaterMark: 2,
  objectMode: true,
  read() { log.push('read ' + i); this.push(i < 6 ? i++ : null); },
});
const slow = new Writable({
  highWaterMark: 2,
  objectMode: true,
  write(c, e, cb) { log.push('write ' + c); setTimeout(cb, 1); },
});
src.on('pause', () => log.push('pause'));
src.on('resume', () => log.push('resume'));
slow.on('drain', () => log.push('drain'));
slow.on('pipe', () => log.push('pipe event'));
slow.on('unpipe', () => log.push('unpipe event'));
slow.on('finish', () => {
  log.push('finish');
  console.log(log.join('\n'));
  log.length = 0;
  part2();
});
src.pipe(slow);

function part2() {
  // pause/resume/isPaused, unshift, read(n)
  const r = new Readable({ read() {} });
  console.log('isPaused', r.isPaused(), r.readableFlowing);
  r.push('abcdef');
  r.unshift('XY');
  console.log('read(3)', String(r.read(3)), 'len', r.readableLength);
  r.pause();
  console.log('isPaused', r.isPaused(), r.readableFlowing);
  r.on('data', (d) => console.log('data', String(d)));
  console.log('flowing after on data', r.readableFlowing);
  setTimeout(() => {
    console.log('resume');
    r.resume();
    r.push(null);
    r.on('end', () => { console.log('end'); part3(); });
  }, 2);
}

function part3() {
  // Transform with encoding and string chunks; decodeStrings false
  const t = new Transform({
    decodeStrings: false,
    transform(chunk, enc, cb) { cb(null, `${typeof chunk}:${enc}:${chunk};`); },
  });
  t.setEncoding('utf8');
  let out = '';
  t.on('data', (d) => { out += d; });
  t.on('end', () => { console.log('transform out', out); part4(); });
  t.write('hi');
  t.write(Buffer.from('yo'));
  t.end();
}

function part4() {
  // unpipe stops the flow
  const a = new PassThrough();
  const b = new PassThrough();
  a.pipe(b);
  b.on('data', (d) => console.log('b got', String(d)));
  a.write('one');
  setTimeout(() => {
    a.unpipe(b);
    console.log('after unpipe flowing', a.readableFlowing);
    a.write('two');
    setTimeout(() => { console.log('a buffered', a.readableLength); part5(); }, 2);
  }, 2);
}

function part5() {
  // writev batching with cork
  const w = new Writable({
    writev(chunks, cb) { console.log('writev', chunks.length, chunks.map((c) => String(c.chunk)).join('')); cb(); },
  });
  w.cork();
  w.write('a');
  w.write('b');
  w.write('c');
  console.log('corked', w.writableCorked, 'buffered', w.writableLength);
  process.nextTick(() => w.uncork());
  w.on('finish', () => console.log('writev finish'));
  setTimeout(() => w.end(), 2);
}
