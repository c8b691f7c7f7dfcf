const { Readable, Writable, Duplex, pipeline, finished } = require('stream');
const show = (label, fn) => {
  try { fn(); console.log(label, 'ok'); } catch (e) { console.log(label, e.name, e.code, e.message); }
};
const seq = [];
// write after end
const w = new Writable({ write(c, e, cb) { cb(); } });
w.on('error', (e) => seq.push('error ' + e.code));
w.on('close', () => { seq.push('close'); console.log(seq.join(', ')); next1(); });
w.end('a');
const ret = w.write('b', (err) => seq.push('cb ' + (err && err.code)));
seq.push('write returned ' + ret);

function next1() {
  show('null write', () => new Writable({ write(c, e, cb) { cb(); } }).write(null));
  show('bad chunk', () => new Writable({ write(c, e, cb) { cb(); } }).write(42));
  show('bad hwm', () => new Readable({ highWaterMark: -1 }));
  show('from number', () => Readable.from(5));
  show('pipeline no cb', () => pipeline(new Readable(), new Writable()));
  show('pipeline one', () => pipeline(new Readable(), () => {}));
  show('finished bad', () => finished(5, () => {}));
  // _read not implemented
  const r = new Readable();
  r.on('error', (e) => { console.log('read err', e.code, e.message); next2(); });
  r.read();
}

function next2() {
  // push after EOF
  const r = new Readable({ read() {} });
  r.push(null);
  r.push('x');
  r.on('error', (e) => { console.log('push after eof', e.code); next3(); });
}

function next3() {
  // write callback error destroys, error then close
  const order = [];
  const w = new Writable({ write(c, e, cb) { cb(new Error('disk full')); } });
  w.on('error', (e) => order.push('error ' + e.message));
  w.on('close', () => { order.push('close'); console.log(order.join(', '), w.destroyed, w.writableFinished); next4(); });
  w.write('x', (err) => order.push('cb ' + (err && err.message)));
}

function next4() {
  // destroy without error: close only; end() after destroy
  const d = new Duplex({ read() {}, write(c, e, cb) { cb(); } });
  const order = [];
  for (const ev of ['end', 'finish', 'close', 'error']) d.on(ev, () => order.push(ev));
  d.destroy();
  d.end((err) => order.push('end cb ' + (err && err.code)));
  setTimeout(() => { console.log(order.join(', '), d.destroyed); next5(); }, 2);
}

function next5() {
  // autoDestroy false, emitClose false
  const w = new Writable({ autoDestroy: false, write(c, e, cb) { cb(); } });
  const order = [];
  w.on('finish', () => order.push('finish'));
  w.on('close', () => order.push('close'));
  w.end('x');
  setTimeout(() => { console.log('autoDestroy false', order.join(','), w.destroyed); next6(); }, 2);
}

function next6() {
  // premature close in finished
  const r = new Readable({ read() {} });
  finished(r, (err) => console.log('premature', err && err.code));
  r.destroy();
  // Readable.from with a null value
  const n = Readable.from([1, null, 2]);
  const got = [];
  n.on('data', (d) => got.push(d));
  n.on('error', (e) => console.log('from null', e.code, got.join(',')));
}
