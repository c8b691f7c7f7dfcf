// A memory bomb: stops at the heap limit with exit 5.
// args: --max-heap 64M
// exit: 5
// stderr: heap limit exceeded
// max-rss: 1.5
const s = 'ab'.repeat(1000); const re = /(a)(b)/g; const a = []; for (;;) { const m = re.exec(s); if (m) a.push(m); }
