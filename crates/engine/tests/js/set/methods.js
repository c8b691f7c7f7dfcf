// ES2025 set methods with sets and set-like objects.
const log = (...a) => console.log(a.map(String).join(" "));
const show = (s) => "{" + [...s].join(",") + "}";

const a = new Set([1, 2, 3, 4]);
const b = new Set([3, 4, 5]);
log(show(a.union(b)), show(a.intersection(b)), show(a.difference(b)), show(a.symmetricDifference(b)));
log(show(b.union(a)), show(b.intersection(a)), show(b.difference(a)), show(b.symmetricDifference(a)));
log(a.isSubsetOf(b), new Set([3]).isSubsetOf(b), a.isSupersetOf(new Set([1, 2])), a.isSupersetOf(b));
log(a.isDisjointFrom(b), a.isDisjointFrom(new Set([9])), new Set().isSubsetOf(new Set()));
log(a.union(b) !== a, Object.getPrototypeOf(a.union(b)) === Set.prototype);

// A set-like: size, has, keys are used and logged.
function setLike(items, size = items.length) {
  return {
    size,
    has(v) { log("  has", v); return items.includes(v); },
    keys() {
      log("  keys");
      let i = 0;
      return {
        next() { const done = i >= items.length; const r = { value: items[i++], done }; log("  next ->", r.value, done); return r; },
        return() { log("  return"); return {}; },
      };
    },
  };
}
log("intersection small this");
log(show(new Set([1, 2]).intersection(setLike([2, 3, 4]))));
log("intersection big this");
log(show(new Set([1, 2, 3, 4]).intersection(setLike([2, 9]))));
log("difference small this");
log(show(new Set([1, 2]).difference(setLike([2, 3, 4]))));
log("difference big this");
log(show(new Set([1, 2, 3]).difference(setLike([2]))));
log("isSupersetOf early exit");
log(new Set([1, 2, 3]).isSupersetOf(setLike([1, 7, 2])));
log("isDisjointFrom big this");
log(new Set([1, 2, 3]).isDisjointFrom(setLike([5, 3])));
log("isSubsetOf");
log(new Set([1, 2]).isSubsetOf(setLike([2, 1, 0])));
log("symmetricDifference");
log(show(new Set([1, 2]).symmetricDifference(setLike([2, 3, 3]))));
log("union with -0");
const u = new Set([1]).union(setLike([-0]));
log(Object.is([...u][1], 0));
log("Infinity size");
log(new Set([1]).isSubsetOf({ size: Infinity, has: () => true, keys() { throw new Error("unused"); } }));

// Mutation of this during has().
const victim = new Set([1, 2, 3]);
const r = victim.intersection({ size: 10, has(v) { if (v === 1) { victim.delete(2); victim.add(4); } return true; }, keys() {} });
log(show(r));

// GetSetRecord errors, in order.
const tryIt = (f) => { try { f(); log("no error"); } catch (e) { log(e.constructor.name + ": " + e.message); } };
tryIt(() => a.union(5));
tryIt(() => a.union({}));
tryIt(() => a.union({ size: -1, has() {}, keys() {} }));
tryIt(() => a.union({ size: 1 }));
tryIt(() => a.union({ size: 1, has() {} }));
tryIt(() => a.union([1, 2]));
tryIt(() => Set.prototype.union.call({}, a));
tryIt(() => a.union({ size: "2", has() {}, keys() { return 1; } }));
log(show(a.union({ size: { valueOf() { log("  valueOf"); return 1; } }, has() {}, keys() { return [7][Symbol.iterator](); } })));
log(show(a.union(new Map([[8, "x"]]))));
log(Set.prototype.union.length, Set.prototype.isDisjointFrom.name);
