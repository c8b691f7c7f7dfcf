// Array sorting with comparators: numbers, strings with localeCompare-free ordering, records by
// several keys, a stability check, and sorting already sorted and reversed inputs.
var N = 100000;

var seed = 2024;
function rnd(n) { seed = (Math.imul(seed, 1664525) + 1013904223) | 0; return (seed >>> 8) % n; }

var nums = [];
for (var i = 0; i < N; i++) nums.push(rnd(1000000) - 500000);
var asc = nums.slice().sort(function (a, b) { return a - b; });
var desc = nums.slice().sort(function (a, b) { return b - a; });
console.log("nums " + asc[0] + " " + asc[N >> 1] + " " + asc[N - 1] + " " + desc[7]);

var strs = nums.map(function (n) { return "s" + (n >>> 0).toString(36); });
strs.sort();
console.log("strings " + strs[0] + " " + strs[N - 1] + " " + strs[12345]);

var people = [];
var names = ["ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal"];
for (var p = 0; p < N; p++) people.push({ name: names[rnd(8)], age: 18 + rnd(60), city: rnd(20), seq: p });
people.sort(function (a, b) {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  if (a.age !== b.age) return a.age - b.age;
  return 0;
});
var stable = true;
for (var q = 1; q < people.length; q++) {
  var x = people[q - 1], y = people[q];
  if (x.name === y.name && x.age === y.age && x.seq > y.seq) stable = false;
}
console.log("people " + people[0].name + people[0].age + " " + people[N - 1].name + people[N - 1].age + " stable " + stable);

var again = asc.slice().sort(function (a, b) { return a - b; });
var rev = asc.slice().reverse().sort(function (a, b) { return a - b; });
var same = 0;
for (var r = 0; r < N; r++) if (again[r] === rev[r]) same++;
console.log("same " + same);
var floats = nums.map(function (n) { return n / 7; }).sort(function (a, b) { return a - b; });
var byCity = people.slice(0, 20000).sort(function (a, b) { return a.city - b.city || b.seq - a.seq; });
console.log("floats " + floats[100].toFixed(4) + " city " + byCity[0].city + ":" + byCity[0].seq + " " + byCity[19999].city + ":" + byCity[19999].seq);
