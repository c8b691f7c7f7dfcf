import { Buffer } from 'node:buffer';

const show = (label, v) => console.log(label, v);
const text = 'héllo wörld € 𝄞';
for (const enc of ['utf8', 'utf-8', 'hex', 'base64', 'base64url', 'latin1', 'binary', 'ascii', 'utf16le', 'ucs2', 'ucs-2', 'UTF8', 'HEX']) {
  const b = Buffer.from(text, enc === 'hex' || enc === 'HEX' ? undefined : enc);
  show(enc, b.toString(enc), b.length, Buffer.byteLength(text, enc));
}
show('hex in', Buffer.from('48656c6C6f', 'hex'));
show('hex odd', Buffer.from('abc', 'hex'));
show('hex bad', Buffer.from('abzz12', 'hex'));
show('b64', Buffer.from('aGVsbG8gd29ybGQ=', 'base64').toString());
show('b64 nopad', Buffer.from('aGVsbG8gd29ybGQ', 'base64').toString());
show('b64 url chars', Buffer.from('-_-_', 'base64'));
show('b64 spaces', Buffer.from('aGVs bG8\n', 'base64').toString());
show('b64url', Buffer.from([251, 255, 191]).toString('base64url'), Buffer.from([251, 255, 191]).toString('base64'));
show('byteLength b64', Buffer.byteLength('aGVsbG8=', 'base64'), Buffer.byteLength('aGVsbG8', 'base64'));
show('lone surrogate', Buffer.from('a\ud800b'), Buffer.from('\udc00'));
show('invalid utf8', Buffer.from([0xff, 0x61, 0xe2, 0x82, 0x62, 0xf0, 0x9f, 0x98]).toString());
show('latin1 high', Buffer.from('ÿĀ', 'latin1'), Buffer.from([0xe9, 0xff]).toString('latin1'));
show('ascii', Buffer.from([0xe9, 0x41]).toString('ascii'));
show('utf16le odd', Buffer.from([0x61, 0x00, 0x62]).toString('utf16le'));
show('array', Buffer.from([1, 2, 256, -1, 3.7, '4']));
show('typed', Buffer.from(new Uint16Array([1, 258])));
const ab = new ArrayBuffer(8);
const view = Buffer.from(ab, 2, 4);
view[0] = 9;
show('arraybuffer shares', new Uint8Array(ab)[2], view.length, view.byteOffset);
show('copy', Buffer.from(Buffer.from('xyz')));
show('json obj', Buffer.from({ type: 'Buffer', data: [1, 2, 3] }));
show('string obj', Buffer.from(new String('abc')));
show('isEncoding', Buffer.isEncoding('utf8'), Buffer.isEncoding('UCS2'), Buffer.isEncoding('nope'), Buffer.isEncoding(''));
show('empty', Buffer.from(''), Buffer.alloc(0), Buffer.from([]));
show('toString range', Buffer.from('hello world').toString('utf8', 6), Buffer.from('hello').toString('hex', 1, 3),
  Buffer.from('hello').toString(undefined, -5, 100), Buffer.from('hello').toString('utf8', 4, 2));
for (const bad of [() => Buffer.from('x', 'nope'), () => Buffer.from(5), () => Buffer.from({}), () => Buffer.from(null),
  () => Buffer.from('a').toString('bogus'), () => Buffer.from(new ArrayBuffer(4), 8)]) {
  try {
    bad();
    console.log('no throw');
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
