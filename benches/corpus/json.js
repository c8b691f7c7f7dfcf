// JSON round trips: build a nested document of records, then stringify and parse it again
// and again (with and without indentation, with a reviver and a replacer), checking it survives.
var ROUNDS = 30;

function makeDoc(n) {
  var users = [];
  for (var i = 0; i < n; i++) {
    users.push({
      id: i,
      name: "user" + i,
      email: "user" + i + "@example.com",
      active: i % 3 !== 0,
      score: (i * 37) % 1000 / 7,
      tags: ["t" + (i % 5), "g" + (i % 7), i % 2 ? "odd" : "even"],
      address: { street: i + " Main St", city: ["Oslo", "Lyon", "Quito", "Pune"][i % 4], zip: String(10000 + i) },
      history: [{ at: 1700000000 + i, kind: "login" }, { at: 1700000500 + i, kind: "view", page: "/p/" + (i % 13) }],
      note: i % 11 === 0 ? "quote \" backslash \\ newline \n tab \t unicode \u00e9\u4e2d" : null,
    });
  }
  return { version: 3, generated: "2024-01-01T00:00:00Z", users: users };
}

function checksum(str) {
  var h = 0;
  for (var i = 0; i < str.length; i++) h = (Math.imul(h, 31) + str.charCodeAt(i)) | 0;
  return h;
}

var doc = makeDoc(2000);
var text = JSON.stringify(doc);
console.log("length " + text.length + " hash " + checksum(text));
var pretty = "", total = 0;
for (var r = 0; r < ROUNDS; r++) {
  var parsed = JSON.parse(text);
  parsed.users[r].score += 1;
  text = JSON.stringify(parsed);
  if (r % 10 === 0) {
    pretty = JSON.stringify(parsed, null, 2);
    var again = JSON.parse(pretty, function (k, v) { return k === "at" ? v - 1700000000 : v; });
    total += again.users[5].history[1].at;
    total += JSON.stringify(again, ["users", "id", "tags"]).length;
  }
}
console.log("final " + text.length + " hash " + checksum(text));
console.log("pretty " + pretty.length + " hash " + checksum(pretty) + " total " + total);
