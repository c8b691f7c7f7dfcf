// The fleet benchmark's agent (benches/server-fleet.sh): five tool calls, each using the
// previous result, with one durable sleep after the third.
let value = Number(process.argv[2] ?? 0);
for (let i = 0; i < 5; i++) {
  value = await amber.call("step", { value, i });
  if (i === 2) await amber.sleep(200);
}
console.log(value);
