// String building: concatenation in loops, array join, template literals, padStart, repeat,
// slicing, indexOf scans, case mapping and charCodeAt checksums.
var N = 150000;

function checksum(str) {
  var h = 0;
  for (var i = 0; i < str.length; i++) h = (Math.imul(h, 31) + str.charCodeAt(i)) | 0;
  return h;
}

var s = "";
for (var i = 0; i < N; i++) s += String.fromCharCode(97 + (i % 26));
console.log("concat " + s.length + " " + checksum(s));

var parts = [];
for (var j = 0; j < N; j++) parts.push(`${j}:${(j * 7) % 13}`);
var joined = parts.join(",");
console.log("join " + joined.length + " " + checksum(joined));

var table = "";
for (var r = 0; r < N / 10; r++) {
  table += String(r).padStart(6, "0") + "|" + "x".repeat(r % 10) + "|" + ("name" + r).toUpperCase() + "\n";
}
console.log("table " + table.length + " " + checksum(table));

var found = 0, pos = 0;
while ((pos = joined.indexOf(":7", pos)) !== -1) { found++; pos += 2; }
console.log("found " + found);

var words = joined.split(",");
var rebuilt = [];
for (var w = 0; w < words.length; w += 3) {
  var word = words[w];
  rebuilt.push(word.slice(0, 2) + word.substring(word.length - 1) + word.charAt(1).toLowerCase());
}
var out = rebuilt.join("");
console.log("rebuilt " + out.length + " " + checksum(out));

var rev = "";
for (var k = s.length - 1; k >= s.length - 30000; k--) rev += s[k];
console.log("reverse " + rev.slice(0, 10) + " " + checksum(rev) + " " + s.lastIndexOf("xyz") + " " + s.includes("zab"));
var trimmed = "  \t" + s.slice(0, 1000) + "\n ";
console.log("trim " + trimmed.trim().length + " " + s.slice(0, 52).split("").reverse().join("").replace("a", "A"));
