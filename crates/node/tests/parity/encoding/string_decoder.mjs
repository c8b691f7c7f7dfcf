import { StringDecoder } from 'node:string_decoder';
import sd from 'string_decoder';

console.log(sd.StringDecoder === StringDecoder);
const euro = Buffer.from('€');
const d = new StringDecoder('utf8');
console.log(JSON.stringify(d.write(euro.subarray(0, 1))), JSON.stringify(d.write(euro.subarray(1, 2))), JSON.stringify(d.write(euro.subarray(2))));
console.log(JSON.stringify(d.write(Buffer.from([0xf0, 0x9d]))), JSON.stringify(d.end(Buffer.from([0x84, 0x9e]))));
console.log(JSON.stringify(d.write(Buffer.from([0xe2, 0x82]))), JSON.stringify(d.end()));
console.log(JSON.stringify(d.write(Buffer.from('plain'))), JSON.stringify(d.end()), d.encoding);
const u = new StringDecoder('utf16le');
const smile = Buffer.from('a😀', 'utf16le');
console.log(JSON.stringify(u.write(smile.subarray(0, 1))), JSON.stringify(u.write(smile.subarray(1, 4))), JSON.stringify(u.write(smile.subarray(4))));
console.log(JSON.stringify(u.end()), u.encoding);
const b = new StringDecoder('base64');
console.log(b.write(Buffer.from('ab')), b.write(Buffer.from('cde')), b.end(), b.end(Buffer.from('x')));
const h = new StringDecoder('hex');
console.log(h.write(Buffer.from([1, 255])), h.end(Buffer.from([16])));
const l = new StringDecoder('latin1');
console.log(l.write(Buffer.from([0xe9, 0x41])), new StringDecoder().encoding, new StringDecoder('UCS-2').encoding, new StringDecoder('binary').encoding);
console.log(new StringDecoder('ascii').write(Buffer.from([0xe9, 0x41])));
try {
  new StringDecoder('nope');
} catch (e) {
  console.log(e.name, e.code, e.message);
}
