// Microtask ordering: then chains, resolving with promises and thenables, queueMicrotask.
const log = (s) => console.log(s);

Promise.resolve().then(() => log("a1")).then(() => log("a2")).then(() => log("a3"));
Promise.resolve().then(() => log("b1")).then(() => log("b2")).then(() => log("b3"));
queueMicrotask(() => log("q1"));

// Resolving with a native promise costs two extra ticks.
new Promise((resolve) => resolve(Promise.resolve("inner"))).then((v) => log("resolved-with-promise " + v));
Promise.resolve().then(() => log("t1")).then(() => log("t2")).then(() => log("t3")).then(() => log("t4"));

// A thenable: its then runs in a job, then the promise settles.
const thenable = { then(res) { log("thenable.then called"); res("from thenable"); } };
Promise.resolve(thenable).then((v) => log(v));

// A then returning a promise from a handler.
Promise.resolve(1).then(() => Promise.resolve(2)).then((v) => log("handler-returned " + v));

// Rejections propagate past fulfil-only handlers; catch recovers.
Promise.reject(new Error("E")).then(() => log("never")).catch((e) => { log("caught " + e.message); return "recovered"; })
  .then((v) => log(v));

log("sync end");
