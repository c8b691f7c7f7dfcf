// Assigning to a private method throws a TypeError (PrivateSet on a method); so does assigning
// to a private getter without a setter. The messages name the private member.
class C {
  #m() {}
  get #g() { return 1; }
  a() { return this.#m -= 1; }
  b() { this.#m = 1; }
  c() { return this.#g += 1; }
  d() { this.#g = 5; }
}
const o = new C();
for (const k of ['a', 'b', 'c', 'd']) { try { o[k](); console.log(k, 'no throw'); } catch (e) { console.log(k, e.constructor.name, e.message); } }
class D { static #sm() { return 1; } static t() { try { D.#sm = 2; } catch (e) { return e.constructor.name + ' ' + e.message; } } m() { return D.#sm(); } }
console.log(D.t(), new D().m());
