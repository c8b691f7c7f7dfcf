// Regular expressions over generated text: global matching, capture groups, replace with a
// function, split, test, and sticky-free lastIndex loops over a log-like document.
var LINES = 40000;

var levels = ["INFO", "WARN", "ERROR", "DEBUG"];
var words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
var lines = [];
var seed = 7;
function rnd(n) { seed = (Math.imul(seed, 1664525) + 1013904223) | 0; return (seed >>> 8) % n; }
for (var i = 0; i < LINES; i++) {
  var ip = (10 + rnd(240)) + "." + rnd(256) + "." + rnd(256) + "." + rnd(256);
  lines.push("2024-0" + (1 + rnd(9)) + "-" + (10 + rnd(18)) + "T" + (10 + rnd(13)) + ":" + (10 + rnd(49)) + ":" + (10 + rnd(49)) +
    " [" + levels[rnd(4)] + "] " + ip + " user=" + words[rnd(8)] + rnd(100) + " took " + rnd(5000) + "ms path=/api/v" + rnd(3) + "/" + words[rnd(8)] +
    (rnd(5) === 0 ? " email=" + words[rnd(8)] + "." + words[rnd(8)] + "@example.org" : ""));
}
var text = lines.join("\n");

var counts = {};
var re = /\[(INFO|WARN|ERROR|DEBUG)\] (\d+)\.(\d+)\.\d+\.\d+/g, m;
while ((m = re.exec(text)) !== null) {
  var key = m[1] + (Number(m[2]) < 128 ? "-low" : "-high");
  counts[key] = (counts[key] || 0) + 1;
}
var keys = Object.keys(counts).sort();
for (var k = 0; k < keys.length; k++) console.log(keys[k] + " " + counts[keys[k]]);

var emails = text.match(/[a-z]+\.[a-z]+@[a-z]+\.org/g);
console.log("emails " + emails.length);
var slow = 0;
text.split("\n").forEach(function (line) { if (/took ([4-9]\d{3})ms/.test(line)) slow++; });
console.log("slow " + slow);
var redacted = text.replace(/user=([a-z]+)(\d+)/g, function (all, name, num) { return "user=" + name.charAt(0).toUpperCase() + "#" + (Number(num) * 2); });
var h = 0;
for (var c = 0; c < redacted.length; c += 7) h = (Math.imul(h, 33) + redacted.charCodeAt(c)) | 0;
console.log("redacted " + redacted.length + " hash " + h);
var dates = text.replace(/(\d{4})-(\d{2})-(\d{2})T/g, "$3/$2/$1 ");
console.log("dates " + dates.length + " " + dates.slice(0, 20));
var paths = {};
text.replace(/path=\/api\/v(\d)\/(\w+)/g, function (_, v, w) { paths[w] = (paths[w] || 0) + Number(v); return ""; });
console.log(JSON.stringify(paths));
