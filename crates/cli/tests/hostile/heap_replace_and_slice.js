// A memory bomb: stops at the heap limit with exit 5.
// args: --max-heap 64M
// exit: 5
// stderr: heap limit exceeded
// max-rss: 1.5
// Two differently built strings kept per iteration: a spliced copy and a slice.
const s = 'x'.repeat(1e4); const a = []; for (;;) a.push(s.replace('x', 'yy'), s.slice(1));
