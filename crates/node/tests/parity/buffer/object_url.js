// buffer.resolveObjectURL and URL.createObjectURL / revokeObjectURL, and the key order of
// the buffer module and of Buffer's static properties (packages iterate them).
const buffer = require('buffer');
console.log(JSON.stringify(Object.keys(buffer)));
console.log(JSON.stringify(Object.keys(buffer.Buffer)));
console.log(typeof buffer.resolveObjectURL, buffer.resolveObjectURL.name, buffer.resolveObjectURL.length);
console.log(typeof URL.createObjectURL, URL.createObjectURL.length, URL.revokeObjectURL.length);

const blob = new Blob(['hello ', 'world'], { type: 'Text/Plain' });
const url = URL.createObjectURL(blob);
console.log(/^blob:nodedata:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(url));
const resolved = buffer.resolveObjectURL(url);
console.log(resolved instanceof Blob, resolved === blob, resolved.size, resolved.type);
resolved.text().then((text) => {
  console.log('text:', text);

  // A File resolves to a plain Blob.
  const fileURL = URL.createObjectURL(new File(['abc'], 'a.txt', { type: 'text/x' }));
  const fromFile = buffer.resolveObjectURL(fileURL);
  console.log(fromFile.constructor.name, fromFile.size, fromFile.type, fromFile.name);

  // Two URLs for one Blob are distinct; revoking one leaves the other.
  const second = URL.createObjectURL(blob);
  console.log(second !== url);
  URL.revokeObjectURL(url);
  console.log(buffer.resolveObjectURL(url), buffer.resolveObjectURL(second)?.size);
  URL.revokeObjectURL(url);

  // What does not name a stored Blob resolves to undefined.
  for (const u of ['blob:nodedata:nope', 'http://example.com/', 'blob:other:x', 'not a url', 5, undefined, {}]) {
    console.log(String(u), buffer.resolveObjectURL(u));
  }
  // Revoking anything is silent; revoking nothing throws.
  URL.revokeObjectURL('nonsense');
  for (const f of [() => URL.revokeObjectURL(), () => URL.createObjectURL('x'), () => URL.createObjectURL(),
    () => URL.createObjectURL(new Uint8Array(2)), () => buffer.resolveObjectURL(Symbol('s'))]) {
    try {
      f();
      console.log('no throw');
    } catch (e) {
      console.log(e.name, e.code, e.message);
    }
  }
});
