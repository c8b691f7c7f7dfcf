// Iterator.concat (iterator sequencing) and Iterator.zip / Iterator.zipKeyed (joint
// iteration). Node 20 lacks them: the expected output was checked by hand against the spec.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" "));
const events = [];
function counting(values, name) {
  let i = 0;
  return {
    next() { events.push(name + ".next"); return i < values.length ? { value: values[i++], done: false } : { value: undefined, done: true }; },
    return() { events.push(name + ".return"); return {}; },
  };
}
const flush = (label) => { log(label, events.join(" ")); events.length = 0; };

log("concat", Iterator.concat([1, 2], new Set([3]), "xy".split("")).toArray(), Iterator.concat().toArray());
try { Iterator.concat([1], 2); } catch (e) { log("concat 2", e.constructor.name); }
const cc = Iterator.concat({ [Symbol.iterator]: () => counting([1, 2], "a") }, { [Symbol.iterator]: () => counting([3], "b") });
log(cc.next(), cc.return());
flush("concat return");
log(Object.prototype.toString.call(cc), Iterator.concat.length);

log("zip", Iterator.zip([[1, 2, 3], ["a", "b"]]).toArray());
log("longest", Iterator.zip([[1, 2, 3], ["a"]], { mode: "longest" }).toArray(),
  Iterator.zip([[1, 2], ["a"]], { mode: "longest", padding: ["p", "q"] }).toArray());
log("strict ok", Iterator.zip([[1], [2]], { mode: "strict" }).toArray());
try { Iterator.zip([[1], [2, 3]], { mode: "strict" }).toArray(); } catch (e) { log("strict", e.constructor.name); }
try { Iterator.zip([[1]], { mode: "long" }); } catch (e) { log("bad mode", e.constructor.name); }
try { Iterator.zip(["ab"]); } catch (e) { log("string", e.constructor.name); }

// "shortest" closes the others when one ends; return() closes every open iterator, last first.
const z = Iterator.zip([counting([1, 2], "x"), counting([1], "y"), counting([1, 2], "z")]);
log(z.next().value, z.next().done);
flush("shortest");
const z2 = Iterator.zip([counting([1], "x"), counting([1], "y")]);
z2.next();
z2.return();
flush("zip return");

log("zipKeyed", Iterator.zipKeyed({ a: [1, 2], b: ["x", "y", "z"] }).toArray());
log("zipKeyed longest", Iterator.zipKeyed({ a: [1], b: [2, 3] }, { mode: "longest", padding: { a: 0 } }).toArray());
const sym = Symbol("s");
const r = Iterator.zipKeyed({ [sym]: [1], skip: undefined }).next().value;
log(Object.getPrototypeOf(r), Reflect.ownKeys(r).length, r[sym]);
