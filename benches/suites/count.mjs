// Reads run.sh's outputs (out/<package>.<engine>.{out,err,status,seconds}) and prints
// RESULTS.md: per package, the tests passed under node and, of those, how many also pass
// under Amber, with the reason for any gap (reasons.tsv, else Amber's first error line).
//
// A test is a TAP `ok`/`not ok` line (tape: an assertion; mocha: a test; node:test: a test
// or suite, nested ones indented). Its identity is (indent, description, n-th occurrence),
// so renumbering after a failure does not misattribute a pass. SKIP and TODO are not passes.
import fs from "node:fs";
import path from "node:path";

const here = process.argv[2];
const out = path.join(here, "out");
const read = (f) => (fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "");

function passed(tap) {
  const seen = new Map();
  const ids = new Set();
  for (const line of tap.split("\n")) {
    const m = /^(\s*)(not )?ok\b\s*\d*\s*(?:-\s*)?(.*)$/.exec(line);
    if (!m) continue;
    const [, indent, not, rest] = m;
    const desc = rest.replace(/\s+#\s*(SKIP|TODO)\b.*$/i, "");
    const key = `${indent.length}\u0000${desc}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (!not && !/#\s*(SKIP|TODO)\b/i.test(rest)) ids.add(`${key}\u0000${n}`);
  }
  return ids;
}

function firstError(err) {
  const lines = err.split("\n").map((l) => l.trim()).filter(Boolean);
  const hit = lines.find((l) => /^(Uncaught |error:)|Error\b.*:|ERR_/.test(l));
  return (hit ?? lines[0] ?? "").slice(0, 160);
}

const reasons = new Map();
for (const line of read(path.join(here, "reasons.tsv")).split("\n")) {
  if (!line || line.startsWith("#")) continue;
  const [pkg, why] = line.split("\t");
  reasons.set(pkg, why);
}

const rows = [];
for (const line of read(path.join(here, "suites.tsv")).split("\n")) {
  if (!line || line.startsWith("#")) continue;
  const [pkg, runner] = line.split("\t");
  const base = path.join(out, pkg.replace(/\//g, "+"));
  if (!fs.existsSync(`${base}.node.out`)) continue;
  // ../stress holds the harness's own programs (no package.json): shown by path.
  const manifest = read(path.join(here, "node_modules", pkg, "package.json"));
  const version = manifest ? JSON.parse(manifest).version : "(harness)";
  const node = passed(read(`${base}.node.out`));
  const amber = passed(read(`${base}.amber.out`));
  let both = 0;
  for (const id of node) if (amber.has(id)) both++;
  const status = read(`${base}.amber.status`).trim();
  const seconds = [read(`${base}.node.seconds`).trim(), read(`${base}.amber.seconds`).trim()];
  let why = "";
  if (both < node.size) {
    why = reasons.get(pkg) ?? `exit ${status}: ${firstError(read(`${base}.amber.err`) + read(`${base}.amber.out`))}`;
  }
  rows.push({ pkg: `${pkg} ${version}`, runner, node: node.size, amber: both, seconds, why });
}

// The harness's own stress programs are shown apart from the packages' totals.
const harness = rows.filter((r) => r.pkg.endsWith("(harness)"));
const packages = rows.filter((r) => !r.pkg.endsWith("(harness)"));
const full = packages.filter((r) => r.node > 0 && r.amber === r.node).length;
const sum = (k) => packages.reduce((a, r) => a + r[k], 0);
const esc = (s) => String(s).replace(/\|/g, "\\|");
const lines = [
  "# npm packages' own test suites: node 20 vs Amber",
  "",
  "Written by `benches/suites/run.sh` (how to run it is in its header); do not edit by hand",
  "except `reasons.tsv`. \"amber passed\" counts the tests node passes that also pass under Amber.",
  "",
  "| package | runner | node passed | amber passed | seconds (node / amber) | reason for the gap |",
  "|---|---|---:|---:|---|---|",
  ...rows.map((r) => `| ${r.pkg} | ${r.runner} | ${r.node} | ${r.amber} | ${r.seconds.join(" / ")} | ${esc(r.why)} |`),
  "",
  `Packages whose every node-passing test passes under Amber: **${full} of ${packages.length}**.`,
  `Tests passed: node **${sum("node")}**, Amber **${sum("amber")}** (${((100 * sum("amber")) / Math.max(1, sum("node"))).toFixed(1)}%).`,
  ...harness.map((r) => `Harness stress program ${r.pkg.replace(" (harness)", "")}: node ${r.node}, Amber ${r.amber}.`),
];
console.log(lines.join("\n"));
