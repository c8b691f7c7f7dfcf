'use strict';
// node:stream/consumers: read a whole stream (Node stream, web ReadableStream or any async
// iterable) into one value, as lib/stream/consumers.js does.

async function buffer(stream) {
  const chunks = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks);
}

async function arrayBuffer(stream) {
  const bytes = await buffer(stream);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

async function blob(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return new Blob(chunks);
}

async function text(stream) {
  const decoder = new TextDecoder();
  let str = '';
  for await (const chunk of stream) {
    str += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  }
  return str + decoder.decode();
}

async function json(stream) {
  return JSON.parse(await text(stream));
}

module.exports = { arrayBuffer, blob, buffer, text, json };
