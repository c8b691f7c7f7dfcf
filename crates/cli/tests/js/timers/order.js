// Node's event-loop order on Amber's virtual clock: microtasks after each macrotask, timers
// by (due, creation), immediates after the timers phase, clears, intervals, unref.
const log = (s) => console.log(s);
setTimeout(() => log("t20"), 20);
setTimeout((a, b) => log(`t10 ${a} ${b}`), 10, "x", "y");
setTimeout(() => {
  log("t0a");
  Promise.resolve().then(() => log("micro after t0a"));
  setImmediate(() => log("immediate from t0a"));
  setTimeout(() => log("timeout from t0a"), 0);
}, 0);
setTimeout(() => log("t0b"), 0);
const cleared = setTimeout(() => log("never"), 5);
clearTimeout(cleared);
let n = 0;
const iv = setInterval(() => {
  n++;
  log(`interval ${n}`);
  if (n === 3) clearInterval(iv);
}, 7);
setTimeout(() => log("unref'd: never"), 1000).unref();
Promise.resolve().then(() => log("micro"));
queueMicrotask(() => log("qm"));
console.log(typeof setTimeout(() => {}, 1).ref, setTimeout.length, setImmediate.length, clearTimeout.length);
log("sync");
