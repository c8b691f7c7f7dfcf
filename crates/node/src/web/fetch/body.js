// ---- Bodies (Fetch §5.2): extraction from the BodyInit kinds and the Body mixin.
//
// A body is { stream, source, length }: `source` is the bytes when they are known up
// front (everything but a ReadableStream), so requestParts() can hand the host a
// Uint8Array without reading a stream.

function bytesStream(bytes) {
  // A byte stream, as undici makes one for known bytes (its `body` supports BYOB).
  let sent = false;
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      if (!sent && bytes.byteLength > 0) {
        sent = true;
        controller.enqueue(bytes.slice());
      }
      controller.close();
      if (controller.byobRequest) controller.byobRequest.respond(0);
    },
  });
}

function isArrayBufferLike(v) {
  const tag = Object.prototype.toString.call(v);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
}

// "extract a body" (Fetch §5.2): the body and the Content-Type it implies (or null).
function extractBody(object, keepalive = false) {
  let source = null;
  let type = null;
  let stream = null;
  if (streamInternals.isReadableStream(object)) {
    if (keepalive) throw new TypeError('keepalive');
    if (streamInternals.isDisturbed(object) || streamInternals.isReadableStreamLocked(object)) {
      throw new TypeError('Response body object should not be disturbed or locked');
    }
    stream = object;
  } else if (blobInternals.isBlob(object)) {
    source = blobInternals.bytesOf(object);
    if (object.type) type = object.type;
    stream = object.stream();
  } else if (ArrayBuffer.isView(object)) {
    source = new Uint8Array(object.buffer, object.byteOffset, object.byteLength).slice();
  } else if (isArrayBufferLike(object)) {
    source = new Uint8Array(object).slice();
  } else if (object instanceof URLSearchParams) {
    source = utf8Encoder.encode(object.toString());
    type = 'application/x-www-form-urlencoded;charset=UTF-8';
  } else if (object instanceof FormData) {
    const boundary = nextBoundary();
    source = encodeMultipart(object, boundary);
    type = `multipart/form-data; boundary=${boundary}`;
  } else {
    source = utf8Encoder.encode(`${object}`);
    type = 'text/plain;charset=UTF-8';
  }
  if (stream === null) stream = bytesStream(source);
  return { body: { stream, source, length: source === null ? null : source.byteLength }, type };
}

function bodyUnusable(body) {
  return body !== null && (streamInternals.isDisturbed(body.stream) || streamInternals.isReadableStreamLocked(body.stream));
}

// "clone a body" (Fetch §5.2): tee the stream; this body keeps one branch.
function cloneBody(body) {
  const [out1, out2] = streamInternals.readableStreamTee(body.stream, true);
  body.stream = out1;
  return { stream: out2, source: body.source, length: body.length };
}

// "fully read" the body: every chunk must be a Uint8Array.
function fullyReadBody(body) {
  if (body === null) return Promise.resolve(new Uint8Array(0));
  const reader = body.stream.getReader();
  const chunks = [];
  let length = 0;
  const step = () => reader.read().then(({ value, done }) => {
    if (done) return blobInternals.concatBytes(chunks, length);
    if (!(value instanceof Uint8Array)) {
      const error = new TypeError('Received non-Uint8Array chunk');
      reader.cancel(error).catch(() => {});
      throw error;
    }
    chunks.push(value);
    length += value.byteLength;
    return step();
  });
  return step();
}

// The MIME type of a Content-Type value, serialized (MIME Sniffing §4.4), or '' when it
// does not parse.
function serializeMimeType(value) {
  if (value === null) return '';
  const m = /^[\t\n\r ]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\/([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[\t\n\r ]*(;.*)?$/s.exec(value);
  if (!m) return '';
  let out = `${m[1]}/${m[2]}`.toLowerCase();
  const params = m[3] ? m[3].split(';').slice(1) : [];
  const seen = new Set();
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1) continue;
    const name = param.slice(0, eq).trim().toLowerCase();
    let v = param.slice(eq + 1).trim();
    if (!name || seen.has(name) || !tokenChars.test(name)) continue;
    if (v.startsWith('"')) v = v.slice(1, v.indexOf('"', 1) === -1 ? undefined : v.indexOf('"', 1));
    seen.add(name);
    out += `;${name}=${tokenChars.test(v) ? v : `"${v.replace(/(["\\])/g, '\\$1')}"`}`;
  }
  return out;
}

function utf8DecodeWithoutBOM(bytes) {
  return new TextDecoder().decode(bytes);
}

// The Body mixin (Fetch §5.2), shared by Request and Response: `slotsOf(this)` gives
// { body, headers list } for the object, or throws for a foreign receiver.
function consumeBody(object, slotsOf, convert) {
  let s;
  try {
    s = slotsOf(object);
  } catch (e) {
    return Promise.reject(e);
  }
  if (bodyUnusable(s.body)) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
  return fullyReadBody(s.body).then((bytes) => convert(bytes, s));
}

function installBodyMixin(Class, slotsOf) {
  const methods = {
    arrayBuffer() {
      return consumeBody(this, slotsOf, (bytes) => bytes.buffer);
    },
    blob() {
      return consumeBody(this, slotsOf, (bytes, s) =>
        blobInternals.createBlob(bytes, serializeMimeType(headerListGet(s.headersList, 'content-type'))));
    },
    bytes() {
      return consumeBody(this, slotsOf, (bytes) => bytes);
    },
    formData() {
      return consumeBody(this, slotsOf, (bytes, s) => {
        const contentType = headerListGet(s.headersList, 'content-type') ?? '';
        const essence = contentType.split(';')[0].trim().toLowerCase();
        if (essence === 'multipart/form-data') {
          const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
          const fd = m ? parseMultipart(bytes, m[1] ?? m[2]) : null;
          if (fd === null) throw new TypeError('Failed to parse body as FormData.');
          return fd;
        }
        if (essence === 'application/x-www-form-urlencoded') {
          const fd = new FormData();
          for (const [k, v] of new URLSearchParams(utf8DecodeWithoutBOM(bytes))) fd.append(k, v);
          return fd;
        }
        throw new TypeError('Content-Type was not one of "multipart/form-data" or "application/x-www-form-urlencoded".');
      });
    },
    json() {
      return consumeBody(this, slotsOf, (bytes) => JSON.parse(utf8DecodeWithoutBOM(bytes)));
    },
    text() {
      return consumeBody(this, slotsOf, (bytes) => utf8DecodeWithoutBOM(bytes));
    },
  };
  for (const name of Object.keys(methods)) {
    Object.defineProperty(Class.prototype, name, { value: methods[name], writable: true, enumerable: true, configurable: true });
  }
  Object.defineProperty(Class.prototype, 'body', {
    get() {
      const s = slotsOf(this);
      return s.body === null ? null : s.body.stream;
    },
    enumerable: true,
    configurable: true,
  });
  Object.defineProperty(Class.prototype, 'bodyUsed', {
    get() {
      const s = slotsOf(this);
      return s.body !== null && streamInternals.isDisturbed(s.body.stream);
    },
    enumerable: true,
    configurable: true,
  });
}
