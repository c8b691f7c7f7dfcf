// ---- FormData (XHR §4.3) with Blob/File entries, and its multipart/form-data encoding.

const kFormData = Symbol('kFormData');

function formDataSlots(fd) {
  const s = fd !== null && typeof fd === 'object' && Object.prototype.hasOwnProperty.call(fd, kFormData)
    ? fd[kFormData] : undefined;
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

// "create an entry" (XHR §4.3): a Blob that is not a File, or a filename, makes a File.
function makeEntry(name, value, filename) {
  const n = `${name}`;
  if (!blobInternals.isBlob(value)) return [n, `${value}`];
  if (!(value instanceof File)) {
    value = new File([value], filename === undefined ? 'blob' : `${filename}`, { type: value.type });
  } else if (filename !== undefined) {
    value = new File([value], `${filename}`, { type: value.type, lastModified: value.lastModified });
  }
  return [n, value];
}

function checkBlobArgument(method, count, value) {
  if (count > 2 && !blobInternals.isBlob(value)) {
    throw new TypeError(`Failed to execute '${method}' on 'FormData': parameter 2 is not of type 'Blob'`);
  }
}

class FormData {
  constructor(form = undefined) {
    if (form !== undefined) throw new TypeError('FormData constructor: Argument 1 could not be converted to: undefined.');
    Object.defineProperty(this, kFormData, { value: { entries: [] } });
  }

  append(name, value, filename = undefined) {
    const s = formDataSlots(this);
    requireArgs(arguments.length, 2, 'FormData.append');
    checkBlobArgument('append', arguments.length, value);
    s.entries.push(makeEntry(name, value, filename));
  }

  delete(name) {
    const s = formDataSlots(this);
    requireArgs(arguments.length, 1, 'FormData.delete');
    const n = `${name}`;
    s.entries = s.entries.filter(([k]) => k !== n);
  }

  get(name) {
    const s = formDataSlots(this);
    requireArgs(arguments.length, 1, 'FormData.get');
    const n = `${name}`;
    const entry = s.entries.find(([k]) => k === n);
    return entry === undefined ? null : entry[1];
  }

  getAll(name) {
    const s = formDataSlots(this);
    requireArgs(arguments.length, 1, 'FormData.getAll');
    const n = `${name}`;
    return s.entries.filter(([k]) => k === n).map(([, v]) => v);
  }

  has(name) {
    const s = formDataSlots(this);
    requireArgs(arguments.length, 1, 'FormData.has');
    const n = `${name}`;
    return s.entries.some(([k]) => k === n);
  }

  set(name, value, filename = undefined) {
    const s = formDataSlots(this);
    requireArgs(arguments.length, 2, 'FormData.set');
    checkBlobArgument('set', arguments.length, value);
    const entry = makeEntry(name, value, filename);
    const i = s.entries.findIndex(([k]) => k === entry[0]);
    if (i === -1) {
      s.entries.push(entry);
    } else {
      s.entries = s.entries.filter(([k], j) => j <= i || k !== entry[0]);
      s.entries[i] = entry;
    }
  }

  forEach(callback, thisArg = undefined) {
    const s = formDataSlots(this);
    requireArgs(arguments.length, 1, 'FormData.forEach');
    if (typeof callback !== 'function') {
      throw new TypeError("Failed to execute 'forEach' on 'FormData': parameter 1 is not of type 'Function'.");
    }
    for (const [name, value] of s.entries.slice()) Reflect.apply(callback, thisArg, [value, name, this]);
  }

  *entries() {
    const s = formDataSlots(this);
    for (let i = 0; i < s.entries.length; i++) yield [s.entries[i][0], s.entries[i][1]];
  }

  *keys() {
    for (const [name] of this.entries()) yield name;
  }

  *values() {
    for (const [, value] of this.entries()) yield value;
  }

  [kInspect](depth, options) {
    const fields = {};
    for (const [name, value] of formDataSlots(this).entries) {
      if (!Object.prototype.hasOwnProperty.call(fields, name)) fields[name] = value;
      else if (Array.isArray(fields[name])) fields[name].push(value);
      else fields[name] = [fields[name], value];
    }
    return inspectAs('FormData', fields, depth, options);
  }
}
Object.defineProperty(FormData.prototype, Symbol.iterator, {
  value: FormData.prototype.entries, writable: true, enumerable: false, configurable: true,
});
Object.defineProperty(FormData.prototype, Symbol.toStringTag, { value: 'FormData', configurable: true });

// Boundaries come from a counter in this module's state (it rides the image), never from
// the wall clock or unseeded randomness, so a replay sends the same bytes. undici's shape:
// "----formdata-undici-0" and eleven digits.
let boundaryCounter = 0;
function nextBoundary() {
  boundaryCounter += 1;
  return `----formdata-undici-0${String(boundaryCounter).padStart(11, '0')}`;
}

// multipart/form-data encoding (HTML §4.10.21.8), as undici writes it.
function encodeMultipart(fd, boundary) {
  const escape = (str) => str.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
  const normalizeLinefeeds = (value) => value.replace(/\r?\n|\r/g, '\r\n');
  const prefix = `--${boundary}\r\nContent-Disposition: form-data`;
  const chunks = [];
  let length = 0;
  const push = (bytes) => {
    chunks.push(bytes);
    length += bytes.byteLength;
  };
  for (const [name, value] of formDataSlots(fd).entries) {
    if (typeof value === 'string') {
      push(utf8Encoder.encode(`${prefix}; name="${escape(normalizeLinefeeds(name))}"\r\n\r\n${normalizeLinefeeds(value)}\r\n`));
    } else {
      push(utf8Encoder.encode(`${prefix}; name="${escape(normalizeLinefeeds(name))}"` +
        (value.name ? `; filename="${escape(value.name)}"` : '') + '\r\n' +
        `Content-Type: ${value.type || 'application/octet-stream'}\r\n\r\n`));
      push(blobInternals.bytesOf(value));
      push(utf8Encoder.encode('\r\n'));
    }
  }
  push(utf8Encoder.encode(`--${boundary}--\r\n`));
  return blobInternals.concatBytes(chunks, length);
}

// Parse multipart/form-data bytes into a FormData (the body mixin's formData()).
function parseMultipart(bytes, boundary) {
  const latin1 = new TextDecoder('latin1');
  const utf8 = new TextDecoder();
  const text = latin1.decode(bytes);
  const delimiter = `--${boundary}`;
  const fd = new FormData();
  let pos = text.indexOf(delimiter);
  if (pos === -1) return null;
  for (;;) {
    pos += delimiter.length;
    if (text.startsWith('--', pos)) return fd;
    if (!text.startsWith('\r\n', pos)) return null;
    pos += 2;
    const headerEnd = text.indexOf('\r\n\r\n', pos);
    if (headerEnd === -1) return null;
    const headerLines = text.slice(pos, headerEnd).split('\r\n');
    const next = text.indexOf(`\r\n${delimiter}`, headerEnd + 4);
    if (next === -1) return null;
    let name = null;
    let filename;
    let contentType = 'text/plain';
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon === -1) return null;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === 'content-disposition') {
        const nameMatch = /(?:^|;)\s*name="([^"]*)"/i.exec(value);
        const fileMatch = /(?:^|;)\s*filename="([^"]*)"/i.exec(value);
        if (nameMatch) name = utf8.decode(latin1ToBytes(nameMatch[1]));
        if (fileMatch) filename = utf8.decode(latin1ToBytes(fileMatch[1]));
      } else if (key === 'content-type') {
        contentType = value;
      }
    }
    if (name === null) return null;
    const body = bytes.slice(headerEnd + 4, next);
    if (filename !== undefined) fd.append(name, new File([body], filename, { type: contentType }));
    else fd.append(name, utf8.decode(body));
    pos = next + 2;
  }
}

function latin1ToBytes(s) {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}
