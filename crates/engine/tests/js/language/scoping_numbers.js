// scoping edge cases
console.log(typeof hoisted, hoisted2());
var hoisted = 1; function hoisted2() { return 'fn hoisted'; }
try { tdz; let tdz = 1; } catch (e) { console.log(e.name, e.message); }
{ function blockFn() { return 'block'; } } console.log(typeof blockFn);
const obj = { method() { return this; }, arrow: () => typeof this };
console.log(obj.method() === obj, obj.arrow());
function outerThis() { return (() => this)(); } console.log(outerThis.call('x') == 'x');
// closures in loops with var/let & setTimeout-free
let fns = []; for (const x of [1, 2]) fns.push(() => x); console.log(fns.map(f => f()));
// default param scope
function dflt(a, b = a * 2, c = () => a + b) { return c(); } console.log(dflt(3));
// computed members & symbols
const sym = Symbol('k'); const co = { [sym]: 1, ['a' + 'b']: 2, 3: 'three' }; console.log(co[sym], co.ab, co[3], co);
// getter/setter inheritance & super in object literal
const protoObj = { greet() { return 'proto'; } }; const lit = { __proto__: protoObj, greet() { return 'lit>' + super.greet(); } };
console.log(lit.greet());
// exceptions across frames, finally overriding return
function f1() { try { throw new Error('x'); } finally { return 'finally wins'; } } console.log(f1());
function f2() { try { return 'a'; } finally { console.log('cleanup2'); } } console.log(f2());
function nested() { try { try { throw 1; } finally { console.log('inner finally'); } } catch (e) { return 'caught ' + e; } } console.log(nested());
// deep recursion (stackless)
function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1); } console.log(depth(5000));
// string concatenation in loop
let big = ''; for (let i = 0; i < 10000; i++) big += 'ab'; console.log(big.length);
// array holes and length
const holes = [1, , 3]; console.log(holes.length, 1 in holes, holes); holes.length = 1; console.log(holes);
const arr2 = []; arr2[5] = 1; console.log(arr2.length, arr2);
// numeric edge
console.log(0.1 * 3, 2 ** 53 + 1, 5 % -3, -5 % 3, 1 / -0, Math.round(-0.5), (-7) >> 1, -7 >>> 28, 1 << 31);
console.log(Number('  12  '), Number(''), Number('0x10'), Number('1e3'), +[], +{}, [] + {}, [1,2] + '');
console.log(parseInt('08'), parseInt('1e3'), (12.345).toFixed(1), (0.000001234).toPrecision(2), (1234.5678).toExponential(2));
// equality
console.log(null == undefined, null == 0, '' == 0, '1' == 1, NaN == NaN, [1] == 1, Object.is(-0, 0));
// bigint
console.log(2n ** 64n, -7n / 2n, BigInt(10) * 3n, typeof 1n, 10n > 5, 5n == 5);
// spread strings, sets, maps into arrays
console.log([...new Set('aabbc')].join(''), Object.fromEntries(new Map([['a', 1]])));
// json edge
console.log(JSON.stringify([undefined, function(){}, Symbol()]), JSON.stringify({ u: undefined, d: new Date(0) }));
console.log(JSON.stringify('\u2028\ud800'), JSON.parse('[1,"2",{"a":null}]'));
// getter error stack first line
try { null.f(); } catch (e) { console.log(e.stack.split('\n')[0]); }
console.log([1, 2, 3].toString(), String([1, [2, 3]]), String({}), `${[1, 2]}`);
console.log(Array.isArray([]), Array.prototype.concat.call(1, 2), [3, 2, 1].toSorted(), [1,2,3].with(1, 9));
