// The agent of crates/cli/tests/serve.rs: two tool-worker calls, one call a person resolves
// through the API, an input for every third, a durable sleep for every fifth.
const n = Number(process.argv[2]);
const sum = await amber.call("add", { a: n, b: 1 });
const word = await amber.call("upper", { text: `item-${n}` });
const verdict = await amber.call("review", { n });
let who = "nobody";
if (n % 3 === 0) who = await amber.input(`name for ${n}?`);
if (n % 5 === 0) await amber.sleep(150);
console.log(JSON.stringify({ n, sum, word, verdict, who }));
console.error(`done ${n}`);
