// The Iterator constructor, Iterator.from, %Iterator.prototype%'s accessors and
// Symbol.dispose, %AsyncIteratorPrototype%[Symbol.asyncDispose] (ES2025 §27.1, ES2026 explicit
// resource management). Node 20 lacks them: the expected output was checked by hand.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" "));

try { Iterator(); } catch (e) { log("call", e.constructor.name); }
try { new Iterator(); } catch (e) { log("new", e.constructor.name); }
class Counter extends Iterator {
  constructor(n) { super(); this.n = n; }
  next() { return this.n > 0 ? { value: this.n--, done: false } : { value: undefined, done: true }; }
}
const c = new Counter(3);
log(c instanceof Iterator, c.map((x) => x * 2).toArray());
log(Iterator.length, Iterator.name, typeof Iterator.prototype.map, Iterator.prototype === Object.getPrototypeOf(Object.getPrototypeOf([].values())));

// Iterator.from returns iterators that inherit from Iterator.prototype as they are, and wraps others.
const arrIt = [1, 2].values();
log(Iterator.from(arrIt) === arrIt, Iterator.from("ab").toArray(), Iterator.from(new Set([1])).toArray());
const plain = { next() { return { value: 1, done: false }; }, return() { return { closed: true }; } };
const wrapped = Iterator.from(plain);
log(wrapped === plain, wrapped instanceof Iterator, wrapped.next(), wrapped.return(), Iterator.from({ next() {} }).return());
try { Iterator.from(5); } catch (e) { log("from 5", e.constructor.name); }

// The constructor and Symbol.toStringTag accessors ignore writes to Iterator.prototype itself
// but act like data properties on instances.
log(Iterator.prototype.constructor === Iterator, Iterator.prototype[Symbol.toStringTag]);
try { Iterator.prototype[Symbol.toStringTag] = "x"; } catch (e) { log("set on prototype", e.constructor.name); }
const inst = Object.create(Iterator.prototype);
inst[Symbol.toStringTag] = "Mine";
inst.constructor = 42;
log(Object.prototype.toString.call(inst), inst.constructor, Object.getOwnPropertyNames(inst), Iterator.prototype[Symbol.toStringTag]);

// Symbol.dispose calls return(); [Symbol.asyncDispose] awaits it.
const disp = Object.create(Iterator.prototype);
disp.return = function () { log("return called with", arguments.length, "args"); return {}; };
log(disp[Symbol.dispose]() === undefined);
const AsyncIteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf((async function* () {}).prototype));
const ai = Object.create(AsyncIteratorPrototype);
ai.return = async () => { log("async return"); };
const p = ai[Symbol.asyncDispose]();
log(p instanceof Promise);
p.then((v) => log("asyncDispose resolved", v));
const noReturn = Object.create(AsyncIteratorPrototype);
noReturn[Symbol.asyncDispose]().then((v) => log("no return resolved", v));
const throwing = Object.create(AsyncIteratorPrototype);
throwing.return = () => { throw new Error("sync throw"); };
throwing[Symbol.asyncDispose]().catch((e) => log("rejected", e.message));
