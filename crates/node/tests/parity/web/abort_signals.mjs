// AbortSignal.timeout (an unref'd timer on the logical clock) and AbortSignal.any.
const log = (...a) => console.log(...a);

const t = AbortSignal.timeout(30);
log(t.aborted, t.reason);
t.addEventListener('abort', () => log('timeout fired:', t.reason.name, t.reason.message, t.reason.code));
await new Promise((resolve) => setTimeout(resolve, 50));
log(t.aborted, t.reason instanceof DOMException);
for (const bad of [-1, 'x', 2 ** 33]) {
  try { AbortSignal.timeout(bad); } catch (e) { log(e.name, e.code, e.message); }
}

const a = new AbortController();
const b = new AbortController();
const any = AbortSignal.any([a.signal, b.signal]);
any.onabort = () => log('any aborted:', any.reason);
log(any.aborted);
b.abort('from b');
a.abort('from a');
log(any.aborted, any.reason);
const pre = AbortSignal.any([new AbortController().signal, AbortSignal.abort('already')]);
log(pre.aborted, pre.reason);
const empty = AbortSignal.any([]);
log(empty.aborted);
// The timeout's timer is unref'd: a ref'd timer keeps the process alive while we wait.
const keepAlive = setTimeout(() => {}, 1000);
const withTimeout = AbortSignal.any([AbortSignal.timeout(10), new AbortController().signal]);
await new Promise((resolve) => withTimeout.addEventListener('abort', resolve));
log('any of timeout:', withTimeout.reason.name);
try { AbortSignal.any([1]); } catch (e) { log(e.name, e.code, e.message); }

// An unref'd timeout does not keep the process alive: this script ends at once.
AbortSignal.timeout(100000).addEventListener('abort', () => log('never printed'));
const fetchLike = new Request('http://x/', { signal: AbortSignal.timeout(5) });
await new Promise((resolve) => fetchLike.signal.addEventListener('abort', resolve));
log('request signal followed the timeout:', fetchLike.signal.reason.name);
clearTimeout(keepAlive);
