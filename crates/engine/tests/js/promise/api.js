// Promise constructor, prototype and statics: shapes, errors, species, subclassing.
const log = (...a) => console.log(a.map(String).join(" "));
const tryIt = (f) => { try { const r = f(); log("ok", typeof r); } catch (e) { log(e.constructor.name + ": " + e.message); } };

log(Object.getOwnPropertyNames(Promise).filter((n) => !n.endsWith("Keyed")).join(), Object.getOwnPropertyNames(Promise.prototype).join());
log(Promise.length, Promise.prototype.then.length, Promise.prototype.catch.length, Promise.prototype.finally.length);
log(Promise.all.length, Promise.race.length, Promise.resolve.length, Promise.reject.length, Promise.withResolvers.length, Promise.try.length);
log(Promise[Symbol.species] === Promise, Object.prototype.toString.call(Promise.resolve()), Promise.prototype[Symbol.toStringTag]);
log(typeof queueMicrotask, queueMicrotask.length, queueMicrotask.name);

tryIt(() => Promise());
tryIt(() => new Promise());
tryIt(() => new Promise(1));
tryIt(() => Promise.prototype.then.call({}));
tryIt(() => Promise.prototype.then.call(1));
tryIt(() => Promise.prototype.finally.call(1));
tryIt(() => Promise.resolve.call(1));
tryIt(() => Promise.reject.call(1));
tryIt(() => Promise.all.call(1, []));
tryIt(() => Promise.try.call(1, () => {}));
tryIt(() => Promise.withResolvers.call(1));
tryIt(() => Promise.resolve.call(function () {}, 1));
tryIt(() => queueMicrotask(1));
tryIt(() => queueMicrotask());
tryIt(() => queueMicrotask({}));
tryIt(() => queueMicrotask("s"));

// Resolving functions: anonymous, length 1, only the first call counts.
let res, rej;
const p = new Promise((a, b) => { res = a; rej = b; log(typeof a, a.length, JSON.stringify(a.name), b.length); });
res("first"); res("second"); rej(new Error("ignored"));
p.then((v) => log("settled with", v));

// Executor throwing after resolve is ignored; before resolve rejects.
new Promise((r) => { r("kept"); throw new Error("ignored"); }).then((v) => log(v));
new Promise(() => { throw new Error("thrown"); }).catch((e) => log("executor threw", e.message));

// Self resolution.
let resolveSelf;
const self = new Promise((r) => { resolveSelf = r; });
resolveSelf(self);
self.catch((e) => log(e.constructor.name, e.message));

// Promise.resolve returns the same promise for native promises.
const native = Promise.resolve(1);
log(Promise.resolve(native) === native, Promise.reject(1).catch(() => {}) !== native);

// Subclass: species constructor used by then.
class MyPromise extends Promise {
  constructor(ex) { super(ex); this.tag = "mine"; }
}
const mp = MyPromise.resolve(5);
const chained = mp.then((x) => x + 1);
log(mp instanceof MyPromise, chained instanceof MyPromise, chained.tag, MyPromise.resolve(mp) === mp, Promise.resolve(mp) === mp);
chained.then((v) => log("subclass value", v));
class NoSpecies extends Promise { static get [Symbol.species]() { return Promise; } }
const ns = NoSpecies.resolve(1).then(() => {});
log(ns instanceof NoSpecies, ns instanceof Promise);

// A custom thenable-constructor capability via Promise.resolve.call.
let execCalls = 0;
function Fake(executor) { execCalls++; executor((v) => log("Fake resolve", v), (e) => log("Fake reject", e)); }
Promise.resolve.call(Fake, 7);
Promise.reject.call(Fake, 8);
log("Fake executor calls", execCalls);
tryIt(() => Promise.resolve.call(function (ex) { ex(1, 2); ex(3, 4); }, 0));
tryIt(() => Promise.resolve.call(function (ex) { ex(undefined, undefined); }, 0));

// withResolvers and try.
const wr = Promise.withResolvers();
log(Object.keys(wr).join(), wr.promise instanceof Promise);
wr.resolve("wr value");
wr.promise.then((v) => log(v));
Promise.try((a, b) => a + b, 2, 3).then((v) => log("try ok", v));
Promise.try(() => { throw new Error("try threw"); }).catch((e) => log(e.message));

// finally: passes values and reasons through; its own throw / rejection wins.
Promise.resolve("kept").finally(() => "ignored").then((v) => log("finally passthrough", v));
Promise.reject(new Error("reason")).finally(() => {}).catch((e) => log("finally passthrough reason", e.message));
Promise.resolve(1).finally(() => { throw new Error("finally threw"); }).catch((e) => log(e.message));
Promise.resolve(1).finally(() => Promise.reject(new Error("finally rejected"))).catch((e) => log(e.message));
Promise.resolve(2).finally(5).then((v) => log("finally non-callable", v));
let finallyArgs;
Promise.resolve(3).finally(function () { finallyArgs = arguments.length; }).then(() => log("finally args", finallyArgs));

// catch calls this.then.
const fakeThen = { then(a, b) { log("then called with", a, typeof b); return "ret"; } };
log(Promise.prototype.catch.call(fakeThen, () => {}));
