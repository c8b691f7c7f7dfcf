import fs from 'node:fs';

const dir = 'work-streams';
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir);

const ws = fs.createWriteStream(`${dir}/out.txt`);
const events = [];
ws.on('open', () => events.push('open'));
ws.on('ready', () => events.push('ready'));
ws.on('finish', () => events.push('finish'));
ws.on('close', () => {
  events.push('close');
  console.log('write events', events.join(','), ws.bytesWritten);
  console.log(JSON.stringify(fs.readFileSync(`${dir}/out.txt`, 'utf8')));
  readBack();
});
console.log(ws.write('line 1\n'), ws.write(Buffer.from('line 2\n')));
ws.end('end\n');

function readBack() {
  const rs = fs.createReadStream(`${dir}/out.txt`, { encoding: 'utf8', highWaterMark: 8 });
  const chunks = [];
  const evs = [];
  rs.on('open', () => evs.push('open'));
  rs.on('data', (c) => chunks.push(c));
  rs.on('end', () => evs.push('end'));
  rs.on('close', () => {
    evs.push('close');
    console.log('read events', evs.join(','), JSON.stringify(chunks), rs.bytesRead);
    ranged();
  });
}

function ranged() {
  const rs = fs.createReadStream(`${dir}/out.txt`, { start: 2, end: 5 });
  const bufs = [];
  rs.on('data', (c) => bufs.push(c));
  rs.on('end', () => {
    console.log('range', Buffer.concat(bufs).toString());
    missing();
  });
}

function missing() {
  const rs = fs.createReadStream(`${dir}/nope.txt`);
  rs.on('error', (e) => {
    console.log('error', e.code, e.syscall);
    iterate();
  });
}

async function iterate() {
  let text = '';
  for await (const chunk of fs.createReadStream(`${dir}/out.txt`, { highWaterMark: 4 })) text += chunk;
  console.log('iterated', JSON.stringify(text));
  const copy = fs.createWriteStream(`${dir}/copy.txt`);
  copy.on('finish', () => {
    console.log('piped', fs.readFileSync(`${dir}/copy.txt`, 'utf8') === fs.readFileSync(`${dir}/out.txt`, 'utf8'));
    fs.rmSync(dir, { recursive: true });
  });
  fs.createReadStream(`${dir}/out.txt`).pipe(copy);
}
