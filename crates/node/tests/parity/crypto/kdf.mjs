import { pbkdf2Sync, pbkdf2, hkdfSync, hkdf, timingSafeEqual } from 'node:crypto';

// RFC 6070 and RFC 5869 vectors, plus the digests Node supports.
console.log(pbkdf2Sync('password', 'salt', 1, 20, 'sha1').toString('hex'));
console.log(pbkdf2Sync('password', 'salt', 2, 20, 'sha1').toString('hex'));
console.log(pbkdf2Sync('password', 'salt', 4096, 20, 'sha1').toString('hex'));
console.log(pbkdf2Sync('passwordPASSWORDpassword', 'saltSALTsaltSALTsaltSALTsaltSALTsalt', 4096, 25, 'sha1').toString('hex'));
console.log(pbkdf2Sync('pass\0word', 'sa\0lt', 4096, 16, 'sha1').toString('hex'));
for (const digest of ['sha256', 'sha512', 'md5', 'sha384', 'SHA256']) {
  console.log(digest, pbkdf2Sync(Buffer.from('pw'), new Uint8Array([1, 2, 3]), 100, 40, digest).toString('base64'));
}
console.log(pbkdf2Sync('a', 'b', 1, 0, 'sha1'));
const ikm = Buffer.from('0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b', 'hex');
const salt = Buffer.from('000102030405060708090a0b0c', 'hex');
const info = Buffer.from('f0f1f2f3f4f5f6f7f8f9', 'hex');
const okm = hkdfSync('sha256', ikm, salt, info, 42);
console.log(okm instanceof ArrayBuffer, Buffer.from(okm).toString('hex'));
console.log(Buffer.from(hkdfSync('sha1', 'key', '', '', 30)).toString('hex'));
console.log(Buffer.from(hkdfSync('sha512', 'key', 'salt', 'info', 64)).toString('base64'));
console.log(timingSafeEqual(Buffer.from('abc'), Buffer.from('abc')), timingSafeEqual(Buffer.from('abc'), Buffer.from('abd')));
console.log(timingSafeEqual(new Uint8Array([1]), new Uint8Array([1])));
for (const bad of [() => pbkdf2Sync('a', 'b', 0, 10, 'sha1'), () => pbkdf2Sync('a', 'b', 1, 10, 'nope'),
  () => pbkdf2Sync('a', 'b', 1, -1, 'sha1'), () => hkdfSync('sha256', 'a', 'b', 'c', 255 * 32 + 1),
  () => hkdfSync('nope', 'a', 'b', 'c', 4), () => timingSafeEqual(Buffer.alloc(1), Buffer.alloc(2)),
  () => timingSafeEqual('a', 'a'), () => pbkdf2Sync(5, 'b', 1, 1, 'sha1')]) {
  try {
    console.log(bad());
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
pbkdf2('password', 'salt', 1, 20, 'sha256', (err, key) => {
  console.log('pbkdf2 cb', err, key.toString('hex'));
  hkdf('sha256', 'key', 'salt', 'info', 8, (err2, out) => {
    console.log('hkdf cb', err2, Buffer.from(out).toString('hex'));
  });
});
