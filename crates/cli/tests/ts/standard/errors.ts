// A decorator's return value that is neither undefined nor a function (an object for an
// accessor) is a TypeError; addInitializer after decoration is one too.
function bad(v: any) { return () => v; }
function attempt(r: any) {
  try {
    class C { @bad(r) m() {} }
    console.log("no error", C.name);
  } catch (e: any) { console.log(e.constructor.name, e.message); }
}
attempt(1);
attempt("s");
attempt(null);
attempt({});
try {
  class D { @((v: any, c: any) => 5 as any) accessor x = 1; }
  console.log(D.name);
} catch (e: any) { console.log(e.constructor.name, e.message); }
let saved: any;
class E { @((v: any, c: any) => { saved = c; }) m() {} }
try { saved.addInitializer(() => {}); } catch (e: any) { console.log(e.constructor.name, e.message); }
try {
  class F { @((v: any, c: any) => { c.addInitializer(7); }) m() {} }
  console.log(F.name);
} catch (e: any) { console.log(e.constructor.name, e.message); }
console.log(E.name);
