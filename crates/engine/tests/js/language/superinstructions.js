// The fused instructions (GetPropCallee, GetThisProp, PutProp/PutElem, the register updates,
// JumpUnless…, the int-literal operators) on the values their fast paths leave to the
// general path: getters, setters, valueOf, strings, BigInts, NaN, -0, overflow.
"use strict";
const log = [];
const o = {
  n: 1,
  get g() { log.push("get g"); return 2; },
  set s(v) { log.push("set s " + v); },
  m() { return this.n; },
  ["k" + 1]() { return "computed " + this.n; },
};
console.log(o.m(), o["k1"](), o.g);
o.s = 5;
o["s"] = 6;
class C {
  constructor() { this.x = 1; }
  get y() { return this.x + 1; }
  sum() { return this.x + this.y + this.missing; }
}
console.log(new C().sum());
const frozen = Object.freeze({ a: 1 });
try { frozen.a = 2; } catch (e) { console.log(e.constructor.name, e.message); }
try { frozen["a"] = 2; } catch (e) { console.log(e.constructor.name, e.message); }

function updates() {
  let i = 0, s = "5", b = 10n, f = 1.5, big = 2147483647, neg = -2147483648;
  const obj = { valueOf() { log.push("valueOf"); return 41; } };
  let v = obj;
  i++; s++; b++; f++; big++; neg--;
  console.log(i, s, typeof s, b, f, big, neg);
  let x = v++;
  console.log(x, v);
  let t = "7";
  console.log(t--, t, --t, ++t);
  let n = null, u;
  n++; u++;
  console.log(n, u);
  let c = 10n;
  console.log(c--, c, --c);
}
updates();

function branches(a, b) {
  const out = [];
  if (a < b) out.push("lt"); else out.push("!lt");
  if (a <= b) out.push("le"); else out.push("!le");
  if (a > b) out.push("gt"); else out.push("!gt");
  if (a >= b) out.push("ge"); else out.push("!ge");
  if (a == b) out.push("eq"); else out.push("!eq");
  if (a != b) out.push("ne"); else out.push("!ne");
  if (a === b) out.push("seq"); else out.push("!seq");
  if (a !== b) out.push("sne"); else out.push("!sne");
  out.push(a < b ? "t" : "f");
  return out.join(" ");
}
const vals = [1, 2, 1.5, NaN, "1", "10", "9", null, undefined, 1n, { valueOf() { return 1; } }, -0, 0];
for (const a of vals) for (const b of vals) console.log(String(a), String(b), branches(a, b));
let k = 0;
while (k < 3) k++;
for (let j = 10; j >= 0; j -= 4) k += j;
do { k--; } while (k > 20);
console.log(k);

function ints(a) {
  return [a + 1, a - 1, a * 3, a * 0, a & 255, a | 1, a ^ 7, a << 3, a >> 1, a >>> 0, a + -1, a * -2];
}
for (const a of [5, -5, 0, -0, 2147483647, -2147483648, 1.5, "12", "x", 3n, null, undefined, true, { valueOf() { return 9; } }]) {
  try { console.log(String(a), ints(a).map((v) => Object.is(v, -0) ? "-0" : String(v)).join(",")); }
  catch (e) { console.log(String(a), e.constructor.name); }
}
console.log(log.join("; "));
