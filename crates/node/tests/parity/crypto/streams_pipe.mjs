// Hash, Hmac, Cipher, Decipher, Sign and Verify used as streams: pipe, pipeline, setEncoding.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable, pipeline, PassThrough } from 'node:stream';
const K = JSON.parse(fs.readFileSync(new URL('./keys.json', import.meta.url)));
const chunks = () => Readable.from([Buffer.from('one '), Buffer.from('two '), 'three']);

await new Promise((resolve) => {
  const h = crypto.createHash('sha512');
  h.setEncoding('hex');
  chunks().pipe(h).on('data', (d) => console.log('pipe hash', d)).on('end', resolve);
});
await new Promise((resolve) => {
  const h = crypto.createHmac('sha256', 'key');
  chunks().pipe(h);
  h.on('finish', () => { console.log('hmac finish', h.read().toString('base64')); resolve(); });
});
await new Promise((resolve, reject) => {
  const key = Buffer.alloc(32, 5);
  const iv = Buffer.alloc(16, 6);
  const out = [];
  const sink = new PassThrough();
  sink.on('data', (d) => out.push(d));
  pipeline(chunks(), crypto.createCipheriv('aes-256-ctr', key, iv), crypto.createDecipheriv('aes-256-ctr', key, iv), sink, (err) => {
    if (err) reject(err);
    console.log('pipeline', Buffer.concat(out).toString());
    resolve();
  });
});
await new Promise((resolve) => {
  const key = Buffer.alloc(32, 5);
  const iv = Buffer.alloc(16, 6);
  const d = crypto.createDecipheriv('aes-256-cbc', key, iv);
  d.on('error', (e) => { console.log('decipher error', e.code, e.message); resolve(); });
  d.on('data', () => {});
  d.end(Buffer.alloc(16, 1));
});
await new Promise((resolve) => {
  const s = crypto.createSign('sha256');
  chunks().pipe(s);
  s.on('finish', () => {
    const sig = s.sign(K.rsa.priv, 'hex');
    console.log('sign stream', sig.slice(0, 64));
    const v = crypto.createVerify('sha256');
    chunks().pipe(v).on('finish', () => { console.log('verify stream', v.verify(K.rsa.pub, sig, 'hex')); resolve(); });
  });
});
const h = crypto.createHash('md5');
h.write('abc');
h.end();
console.log('read after end', h.read());
h.once('readable', () => console.log('readable', h.read().toString('hex')));
