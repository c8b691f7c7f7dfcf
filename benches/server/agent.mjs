// The benchmark agent: five tool calls in a row, each using the previous result.
let value = Number(process.argv[2] ?? 0);
for (let i = 0; i < 5; i++) value = await amber.call("step", { value, i });
console.log(value);
