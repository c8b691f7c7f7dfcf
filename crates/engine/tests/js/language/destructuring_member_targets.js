// Destructuring assignment into member expressions: the target reference (object and key)
// is evaluated before the value it receives, and the value lands on that object and key.

// The swap idiom.
const a = [1, 2, 3];
[a[0], a[2]] = [a[2], a[0]];
console.log(a);

// Computed, static, rest and defaulted targets; object patterns too.
const o = {};
let i = 0;
[o[i++], o.second, ...o["r" + "est"]] = ["zero", "one", "two", "three"];
console.log(o, i);
({ x: o.fromX = "dflt", y: o[`k${i}`] } = { y: "why" });
console.log(o);
const { ...o2 } = { p: 1 };
const holder = {};
({ ...holder.copy } = o2);
console.log(holder);

// Private fields and super properties as targets.
class Base {}
class Point extends Base {
  #x = 0;
  move(values) {
    [this.#x, super.y] = values;
    return [this.#x, this.y];
  }
}
console.log(new Point().move([3, 4]));

// The order: the target's object and key expressions run before the iterator is stepped.
const log = [];
const iterable = {
  [Symbol.iterator]() {
    return {
      next() {
        log.push("next");
        return { value: "v", done: false };
      },
      return() {
        log.push("return");
        return {};
      },
    };
  },
};
const target = {};
[(log.push("object"), target)[(log.push("key"), "k")]] = iterable;
console.log(log, target);

// In a generator, a yield in the key runs before the value is taken.
const dest = {};
const gen = (function* () {
  [dest[yield "key?"]] = ["value"];
})();
console.log(gen.next().value, gen.next("chosen").done, dest);

// for-of heads with member targets.
const sink = {};
for (sink.last of [1, 2, 3]);
for ([sink.first] of [[7]]);
console.log(sink);

// A generator returned while suspended inside an array pattern closes the pattern's
// iterator (unless the iterator is already exhausted).
function tracked(values) {
  const events = [];
  const iterable = {
    [Symbol.iterator]() {
      let i = 0;
      return {
        next() {
          events.push("next");
          return i < values.length ? { value: values[i++], done: false } : { value: undefined, done: true };
        },
        return() {
          events.push("return");
          return {};
        },
      };
    },
  };
  return { events, iterable };
}
{
  const { events, iterable } = tracked([1, 2]);
  let first;
  const g = (function* () {
    [first, dest[yield]] = iterable;
  })();
  g.next();
  console.log(g.return("early"), events);
}
{
  const { events, iterable } = tracked([]);
  const g = (function* () {
    [...dest[yield]] = iterable;
  })();
  g.next();
  console.log(g.return("early"), events);
}
