import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { readFile, writeFile, mkdir } from 'fs/promises';

console.log(fs.promises === fsp, fsp.readFile === readFile, typeof fsp.constants);
const dir = 'work-promises';
await fsp.rm(dir, { recursive: true, force: true });
console.log('mkdir', await mkdir(`${dir}/x/y`, { recursive: true }) !== undefined);
await writeFile(`${dir}/a.json`, JSON.stringify({ n: 1 }));
console.log(JSON.parse(await readFile(`${dir}/a.json`, 'utf8')));
await fsp.appendFile(`${dir}/a.json`, '\n');
console.log((await fsp.stat(`${dir}/a.json`)).size, (await fsp.lstat(dir)).isDirectory());
console.log((await fsp.readdir(dir)).sort(), (await fsp.readdir(dir, { withFileTypes: true })).map((d) => d.name).sort());
await fsp.copyFile(`${dir}/a.json`, `${dir}/b.json`);
await fsp.rename(`${dir}/b.json`, `${dir}/x/c.json`);
console.log(await fsp.readFile(`${dir}/x/c.json`, { encoding: 'utf8' }));
await fsp.access(`${dir}/x/c.json`);
try { await fsp.access(`${dir}/nope`); } catch (e) { console.log(e.code, e.syscall, e.message); }
try { await fsp.readFile(123.5); } catch (e) { console.log(e.code); }
try { await fsp.mkdir(dir); } catch (e) { console.log(e.code, e.message); }
await fsp.truncate(`${dir}/a.json`, 3);
console.log(await fsp.readFile(`${dir}/a.json`, 'utf8'));
await fsp.unlink(`${dir}/a.json`);
await fsp.rmdir(`${dir}/x/y`);
console.log((await fsp.readdir(`${dir}/x`)).sort());

// FileHandle
const fh = await fsp.open(`${dir}/fh.txt`, 'w+');
console.log(typeof fh.fd, fh.fd > 2);
console.log((await fh.write('hello')).bytesWritten);
console.log((await fh.write(Buffer.from(' there'))).bytesWritten);
const { bytesRead, buffer } = await fh.read(Buffer.alloc(11), 0, 11, 0);
console.log(bytesRead, buffer.toString());
console.log((await fh.stat()).size);
await fh.truncate(5);
await fh.writeFile('!');
await fh.sync();
await fh.close();
console.log(await fsp.readFile(`${dir}/fh.txt`, 'utf8'));
const fh2 = await fsp.open(`${dir}/fh.txt`);
console.log(await fh2.readFile('utf8'));
await fh2.close();
try { await fh2.stat(); } catch (e) { console.log(e.code); }

const lines = await fsp.open(`${dir}/lines.txt`, 'w');
await lines.writeFile('one\ntwo\nthree\n');
await lines.close();
const rl = await fsp.open(`${dir}/lines.txt`);
for await (const line of rl.readLines()) console.log('line', line);
await rl.close();

const d = await fsp.opendir(dir);
const names = [];
for await (const entry of d) names.push(entry.name);
console.log(names.sort());

await fsp.rm(dir, { recursive: true });
console.log(fs.existsSync(dir));
