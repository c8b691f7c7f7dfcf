// A memory bomb: stops at the heap limit with exit 5.
// args: --max-heap 64M
// exit: 5
// stderr: heap limit exceeded
// max-rss: 1.5
const a = []; for (;;) a.push(''.padEnd(1e5, 'ab'));
