// A memory bomb: stops at the heap limit with exit 5.
// args: --max-heap 64M
// exit: 5
// stderr: heap limit exceeded
// max-rss: 1.5
const s = 'ab'.repeat(1000); const a = []; for (;;) a.push([...s.matchAll(/(a)(b)/g)]);
