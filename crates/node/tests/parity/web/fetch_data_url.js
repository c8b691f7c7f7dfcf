// fetch of data: URLs (answered from the URL itself, nothing journaled): bodies, base64,
// MIME type parsing and serialization, invalid URLs, the fragment left out of response.url.
const urls = ['data:,Hello%2C%20World!', 'data:text/plain;base64,SGVsbG8sIFdvcmxkIQ==', 'data:text/html,%3Ch1%3EHi%3C%2Fh1%3E',
  'data:;base64,AAEC/w==', 'data:application/json;charset=UTF-8,{"a":1}', 'data:TEXT/Plain ;Charset="utf-8";x=y,abc',
  'data:text/plain;base64,!!', 'data:nocomma', 'data:image/png;base64,iVBORw0KGgo=#frag', 'data:text/plain;a=b;a=c;q="x y",z',
  'data:text/plain ; base64 ,QUJD', 'data:a/b;base64  ,QUJD', 'data:,%E2%9C%93'];
(async () => {
  for (const u of urls) {
    try {
      const r = await fetch(u);
      const bytes = new Uint8Array(await r.arrayBuffer());
      console.log(JSON.stringify(u), r.status, r.statusText, r.headers.get('content-type'), r.url === u, Array.from(bytes).join(','), r.type);
    } catch (e) {
      console.log(JSON.stringify(u), e.name, e.message);
    }
  }
  const r = await fetch('data:application/json,{"x":[1,2]}', { method: 'POST' });
  console.log(await r.json());
})();
