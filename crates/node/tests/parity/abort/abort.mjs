const ac = new AbortController();
const { signal } = ac;
console.log(signal.aborted, signal.reason, typeof signal.throwIfAborted, signal instanceof EventTarget);
const seen = [];
signal.addEventListener('abort', (e) => seen.push(`listener ${e.type} ${e.target === signal}`));
signal.onabort = (e) => seen.push(`onabort ${e.type}`);
signal.addEventListener('abort', () => seen.push('once'), { once: true });
ac.abort();
ac.abort();
console.log(seen.join(' | '));
console.log(signal.aborted, signal.reason.name, signal.reason.message, signal.reason.code, signal.reason instanceof DOMException);
try {
  signal.throwIfAborted();
} catch (e) {
  console.log('thrown', e.name);
}
const custom = new AbortController();
custom.abort(new Error('my reason'));
console.log(custom.signal.reason.message);
const pre = AbortSignal.abort('because');
console.log(pre.aborted, pre.reason);
try {
  new AbortSignal();
} catch (e) {
  console.log(e.name, e.code);
}
const t = AbortSignal.timeout(10);
t.addEventListener('abort', () => console.log('timeout fired', t.reason.name, t.reason.message));
// The timeout's timer is unref'd: a ref'd timer past it keeps the process alive until it fires
// (otherwise whether node fires it before exiting depends on how fast node exits).
setTimeout(() => console.log('kept alive past the timeout'), 50);
const a1 = new AbortController();
const a2 = new AbortController();
const any = AbortSignal.any([a1.signal, a2.signal]);
any.addEventListener('abort', () => console.log('any aborted', any.reason));
a2.abort('second');
console.log(a1.signal.aborted, any.aborted);
// EventTarget and Event
const et = new EventTarget();
const handler = { handleEvent(e) { console.log('handleEvent', e.type, e.detail); } };
et.addEventListener('ping', handler);
et.addEventListener('ping', handler);
et.dispatchEvent(new CustomEvent('ping', { detail: 42 }));
et.removeEventListener('ping', handler);
console.log(et.dispatchEvent(new Event('ping')));
const ev = new Event('x', { cancelable: true });
et.addEventListener('x', (e) => e.preventDefault());
console.log(et.dispatchEvent(ev), ev.defaultPrevented, ev.cancelable, ev.bubbles);
const ctl = new AbortController();
et.addEventListener('y', () => console.log('y listener'), { signal: ctl.signal });
et.dispatchEvent(new Event('y'));
ctl.abort();
et.dispatchEvent(new Event('y'));
const d = new DOMException('msg', 'NotFoundError');
console.log(d.name, d.message, d.code, d instanceof Error, DOMException.NOT_FOUND_ERR, Object.prototype.toString.call(d));
