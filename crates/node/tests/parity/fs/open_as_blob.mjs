// fs.openAsBlob: a Blob of the file's bytes with the given type; errors for bad paths.
import fs from 'node:fs';
fs.writeFileSync('blob.txt', 'file contents');
const blob = await fs.openAsBlob('blob.txt', { type: 'text/plain' });
console.log(blob, await blob.text(), blob instanceof Blob);
console.log((await fs.openAsBlob(new URL(`file://${process.cwd()}/blob.txt`))).size);
for (const bad of [['missing.txt'], [1], ['blob.txt', { type: 5 }], ['blob.txt', 'x']]) {
  try { await fs.openAsBlob(...bad); } catch (e) { console.log(e.name, e.code, e.message); }
}
fs.unlinkSync('blob.txt');
