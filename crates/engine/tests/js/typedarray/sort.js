// sort and toSorted: numeric default order, comparators, stability, odd comparators.
const log = (...a) => console.log(a.map(String).join(" "));
const show = (t) => Array.prototype.map.call(t, (x) => Object.is(x, -0) ? "-0" : String(x)).join(",");

log(show(new Float64Array([3, -1, NaN, 0, -0, -Infinity, 10, 2, NaN, 0]).sort()));
log(show(new Int32Array([10, 9, 1, 100, -5]).sort()), show(new Uint8Array([10, 9, 1, 100]).sort()));
log(show(new BigInt64Array([5n, -3n, 2n ** 62n, 0n]).sort()), show(new BigUint64Array([2n ** 64n - 1n, 0n, 5n]).sort()));
log(show(new Int8Array([1, 5, 3, 2]).sort((x, y) => y - x)));
const pairs = new Float64Array([1.1, 2.1, 1.2, 2.2, 1.3, 2.3, 1.4]);
log(show(pairs.sort((x, y) => Math.floor(x) - Math.floor(y))));
log(show(new Int8Array([3, 1, 2]).sort(() => NaN)), show(new Int8Array([3, 1, 2]).sort(() => 0)));
let calls = 0;
new Uint16Array(50).map((_, i) => (i * 37) % 50).sort((x, y) => { calls++; return Math.random() < 2 ? x - y : 0; });
log(calls > 0);
const weird = new Uint8Array([5, 4, 3, 2, 1, 0, 9, 8]);
weird.sort(() => 1);
log(weird.length, [...weird].sort().join());
weird.sort((x, y) => ({ valueOf() { return x < y ? -1 : 1; } }));
log(show(weird));
const orig = new Int16Array([3, 1, 2]);
const sorted = orig.toSorted();
log(show(orig), show(sorted), sorted !== orig, show(orig.toSorted((x, y) => y - x)));
try { orig.sort("nope"); } catch (e) { log(e.constructor.name); }
try { orig.toSorted({}); } catch (e) { log(e.constructor.name); }
try { orig.sort((x, y) => { throw new Error("cmp"); }); } catch (e) { log(e.message, show(orig)); }
