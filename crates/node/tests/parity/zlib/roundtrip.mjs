// node:zlib: one-shot, callback, promise and stream forms round-trip; bytes node's zlib made
// decode; errors carry zlib's codes. (Compressed bytes are not compared: they may differ.)
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { pipeline, Readable, Writable } from 'node:stream';

const input = Buffer.from('hello hello hello hello '.repeat(50));
const pairs = [['gzipSync', 'gunzipSync'], ['deflateSync', 'inflateSync'], ['deflateRawSync', 'inflateRawSync'],
  ['brotliCompressSync', 'brotliDecompressSync'], ['gzipSync', 'unzipSync'], ['deflateSync', 'unzipSync']];
for (const [c, d] of pairs) {
  const z = zlib[c](input);
  console.log(c, d, zlib[d](z).equals(input), z.length < input.length);
}
for (const level of [0, 1, 9]) console.log('level', level, zlib.inflateSync(zlib.deflateSync(input, { level })).equals(input));
const fromNode = Buffer.from('H4sIAAAAAAAAA8tIzcnJVyjPL8pJAQCFEUoNCwAAAA==', 'base64');
console.log(zlib.gunzipSync(fromNode).toString(), zlib.unzipSync(fromNode).toString());
for (const [name, bad] of [['gunzip', Buffer.from('not gzip')], ['gunzip', fromNode.subarray(0, 10)], ['inflate', Buffer.from('xxxxxx')]]) {
  try { zlib[`${name}Sync`](bad); } catch (e) { console.log(name, e.message, e.code, e.errno); }
}
console.log(zlib.crc32('hello'), zlib.crc32(Buffer.from('world'), 12345), zlib.crc32(''));
console.log(typeof zlib.constants.Z_SYNC_FLUSH, zlib.Z_OK, zlib.constants.BROTLI_PARAM_QUALITY, zlib.codes.Z_DATA_ERROR);

const viaCallback = await new Promise((resolve, reject) =>
  zlib.gzip('abc', (err, z) => (err ? reject(err) : zlib.gunzip(z, (e2, out) => (e2 ? reject(e2) : resolve(String(out)))))));
console.log('callback', viaCallback);
console.log('promise', zlib.inflateSync(await promisify(zlib.deflate)('xyz')).toString());
const parts = [];
await new Promise((resolve) => pipeline(
  Readable.from([Buffer.from('stream '), Buffer.from('data')]), zlib.createGzip(), zlib.createGunzip(),
  new Writable({ write(c, e, cb) { parts.push(c); cb(); } }),
  (err) => { console.log('pipeline', err, Buffer.concat(parts).toString()); resolve(); }));
const bad = zlib.createGunzip();
bad.on('error', (e) => console.log('stream error', e.code));
bad.end(Buffer.from('garbage'));
