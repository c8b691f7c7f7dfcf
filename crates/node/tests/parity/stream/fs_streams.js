const fs = require('fs');
const { Readable, Writable, Transform, pipeline } = require('stream');

const dir = 'work-fs-streams';
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir);
fs.writeFileSync(`${dir}/in.txt`, 'hello streams\nsecond line\n');

const rs = fs.createReadStream(`${dir}/in.txt`, { highWaterMark: 5 });
console.log('instances', rs instanceof Readable, rs instanceof fs.ReadStream, rs.pending, rs.readableHighWaterMark);
const upper = new Transform({ transform(c, e, cb) { cb(null, c.toString().toUpperCase()); } });
const ws = fs.createWriteStream(`${dir}/out.txt`);
console.log('ws instances', ws instanceof Writable, ws instanceof fs.WriteStream);
const events = [];
const wevents = [];
for (const ev of ['open', 'ready', 'end', 'close']) rs.on(ev, () => events.push('rs ' + ev));
for (const ev of ['open', 'ready', 'finish', 'close']) ws.on(ev, () => wevents.push('ws ' + ev));
pipeline(rs, upper, ws, (err) => {
  console.log('pipeline', err, rs.bytesRead, ws.bytesWritten);
  console.log(events.join(', '));
  console.log(wevents.join(', '));
  console.log(JSON.stringify(fs.readFileSync(`${dir}/out.txt`, 'utf8')));
  paused();
});

function paused() {
  const r = fs.createReadStream(`${dir}/in.txt`, { encoding: 'utf8', start: 6, end: 12 });
  r.on('readable', () => {
    let c;
    while ((c = r.read()) !== null) console.log('readable chunk', JSON.stringify(c));
  });
  r.on('end', () => { console.log('range end', r.readableEnded); writeMore(); });
}

function writeMore() {
  const w = fs.createWriteStream(`${dir}/b.txt`, { highWaterMark: 4 });
  console.log('write ret', w.write('abcdef'), w.writableLength, w.writableNeedDrain);
  w.on('drain', () => console.log('drain'));
  w.end('!', () => {
    console.log('end cb', fs.readFileSync(`${dir}/b.txt`, 'utf8'), w.writableFinished);
    fs.rmSync(dir, { recursive: true });
  });
}
