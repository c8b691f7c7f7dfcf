// fileURLToPath / pathToFileURL / urlToHttpOptions / domainTo* and the module's shape.
import url, { fileURLToPath, pathToFileURL, urlToHttpOptions, domainToASCII, domainToUnicode, URL as U2 } from 'node:url';
import { createRequire } from 'node:module';
console.log(U2 === URL, url.URLSearchParams === URLSearchParams);
const require = createRequire(import.meta.url);
console.log(require('url') === url, require('node:url') === url);
for (const p of ['/a/b', '/a b/c%d', '/q?x#y', '/tab\there', '/nl\nx', '/back\\slash', '/é/😀', '/dir/', 'rel/x', 'rel/', '/', '/a/../b', '/a//b']) {
  const u = pathToFileURL(p);
  console.log(JSON.stringify(p), u.href.replace(process.cwd(), '<cwd>'), fileURLToPath(u).replace(process.cwd(), '<cwd>') === (p.startsWith('/') ? p : p));
}
for (const u of ['file:///a/b%20c', 'file:///%C3%A9', 'file://localhost/x', 'file:///a%2Fb', 'file:///a%2fb', 'file://host/x', 'http://a/b', 'file:///a/%252F', new URL('file:///u'), 5, null, {}]) {
  try {
    console.log(JSON.stringify(fileURLToPath(u)));
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
try { pathToFileURL(5); } catch (e) { console.log(e.name, e.code, e.message); }
console.log(urlToHttpOptions(new URL('http://u%20x:p@[::1]:8080/a?b#c')));
console.log(urlToHttpOptions(new URL('https://example.com/')));
for (const d of ['example.com', 'EXAMPLE.com', 'münchen.de', 'xn--mnchen-3ya.de', '日本語.jp', 'a b', '1.2.3', '0x7f.1', '[::1]', '', 'xn--pokxncvks']) {
  console.log(JSON.stringify(d), JSON.stringify(domainToASCII(d)), JSON.stringify(domainToUnicode(d)));
}
