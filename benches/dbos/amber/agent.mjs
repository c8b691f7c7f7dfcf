// The side-by-side workflow (benches/dbos.sh), as Amber runs it: five memoized steps of
// trivial compute, each using the previous result, then completion. dbos-workflow.mjs is the
// same workflow as DBOS steps.
let value = Number(process.argv[2] ?? 0);
for (let i = 0; i < 5; i++) {
  const input = value;
  value = await amber.step(`step-${i}`, () => (input * 31 + i) % 1000003);
}
console.log(value);
