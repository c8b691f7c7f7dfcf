// CompressionStream and DecompressionStream: round trips in every format, through pipeThrough.
const log = (...a) => console.log(...a);
const text = 'compress me, '.repeat(50);
for (const format of ['gzip', 'deflate', 'deflate-raw']) {
  const compressed = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream(format))).arrayBuffer();
  const back = await new Response(new Blob([compressed]).stream().pipeThrough(new DecompressionStream(format))).text();
  log(format, compressed.byteLength < text.length, back === text);
}
for (const bad of ['zip', undefined]) {
  try { new CompressionStream(bad); } catch (e) { log(e.name, e.code, e.message); }
  try { new DecompressionStream(bad); } catch (e) { log(e.name, e.code, e.message); }
}
log(new CompressionStream('gzip'), Object.prototype.toString.call(new DecompressionStream('gzip')));
const garbage = new Blob([new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])]).stream().pipeThrough(new DecompressionStream('gzip'));
await new Response(garbage).text().then(() => log('no error'), (e) => log('corrupt input rejects:', e instanceof Error));
