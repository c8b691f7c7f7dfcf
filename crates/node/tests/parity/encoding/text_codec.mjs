const u8 = (u) => `${u.constructor.name}(${u.length}) [${[...u].join(', ')}]`;
const te = new TextEncoder();
console.log(te.encoding, u8(te.encode('héllo €𝄞')), u8(te.encode()), u8(te.encode(123)), u8(te.encode('\ud800x')));
const dest = new Uint8Array(5);
console.log(te.encodeInto('a€b', dest), u8(dest), te.encodeInto('€€', new Uint8Array(4)), te.encodeInto('𝄞', new Uint8Array(3)));
const td = new TextDecoder();
console.log(td.encoding, td.fatal, td.ignoreBOM);
console.log(td.decode(new Uint8Array([0xe2, 0x82, 0xac, 0x41])), td.decode(), td.decode(new Uint8Array([0xff, 0x41, 0xc3])));
console.log(JSON.stringify(td.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))), JSON.stringify(new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))));
console.log(td.decode(new Uint8Array([104, 105]).buffer), td.decode(new DataView(new Uint8Array([111, 107]).buffer)), td.decode(Buffer.from('buf')));
const stream = new TextDecoder();
const bytes = te.encode('a€𝄞b');
let s = '';
for (const byte of bytes) s += stream.decode(new Uint8Array([byte]), { stream: true });
s += stream.decode();
console.log(s, s === 'a€𝄞b');
const fatal = new TextDecoder('utf-8', { fatal: true });
console.log(fatal.fatal, fatal.decode(new Uint8Array([0x41])));
for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
  try {
    fatal.decode(new Uint8Array(bad));
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
const u16 = new TextDecoder('utf-16le');
console.log(u16.encoding, u16.decode(new Uint8Array([0x61, 0, 0x3d, 0xd8, 0x00, 0xde])), u16.decode(new Uint8Array([0xff, 0xfe, 0x61, 0])));
console.log(new TextDecoder('UTF8').encoding, new TextDecoder(' utf-16 ').encoding, new TextDecoder('latin1').encoding);
console.log(JSON.stringify(new TextDecoder('latin1').decode(new Uint8Array([0x41, 0xe9, 0x80, 0x9f]))));
for (const bad of [() => new TextDecoder('nope'), () => td.decode('str'), () => te.encodeInto('a', [])]) {
  try {
    bad();
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
console.log(Object.prototype.toString.call(te), Object.prototype.toString.call(td));
