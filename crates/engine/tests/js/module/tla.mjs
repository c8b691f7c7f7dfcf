// Top-level await: the body suspends; promise jobs and timers run in between.
const log = [];
Promise.resolve().then(() => log.push('microtask'));
setTimeout(() => log.push('timer'), 0);
log.push('before');
await null;
log.push('after await');
await new Promise((r) => setTimeout(r, 5));
log.push('after timeout');
console.log(log.join(' > '));
