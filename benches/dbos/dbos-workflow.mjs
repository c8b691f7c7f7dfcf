// One DBOS round of benches/dbos.sh: WORKFLOWS runs of the five-step workflow (the same
// compute as amber/agent.mjs, as DBOS steps), CONCURRENCY at a time, in this process, on the
// PostgreSQL at DB_URL. Each step is checkpointed by DBOS before the next begins. Prints one
// JSON line: wall seconds, per-workflow latencies and per-step latencies (ms, sorted
// quantiles), and the checked results.
//
//   node dbos-workflow.mjs DB_URL WORKFLOWS CONCURRENCY ROUND
import { DBOS } from "@dbos-inc/dbos-sdk";

const [dbUrl, workflowsArg, concurrencyArg, round] = process.argv.slice(2);
const WORKFLOWS = Number(workflowsArg), CONCURRENCY = Number(concurrencyArg);

DBOS.setConfig({ name: "amber-bench", systemDatabaseUrl: dbUrl, logLevel: "error" });

const stepLatencies = [];
const fiveSteps = DBOS.registerWorkflow(async function fiveSteps(start) {
  let value = start;
  for (let i = 0; i < 5; i++) {
    const input = value;
    const t = performance.now();
    value = await DBOS.runStep(async () => (input * 31 + i) % 1000003, { name: `step-${i}` });
    stepLatencies.push(performance.now() - t);
  }
  return value;
}, { name: "fiveSteps" });

await DBOS.launch();

const expected = (n) => { let v = n; for (let i = 0; i < 5; i++) v = (v * 31 + i) % 1000003; return v; };
const latencies = [];
let next = 0, wrong = 0;
const t0 = performance.now();
await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
  while (next < WORKFLOWS) {
    const n = next++;
    const t = performance.now();
    // A workflow id per run, so each is a new durable workflow (not a cached result).
    const handle = await DBOS.startWorkflow(fiveSteps, { workflowID: `r${round}-${n}` })(n);
    const result = await handle.getResult();
    latencies.push(performance.now() - t);
    if (result !== expected(n)) wrong++;
  }
}));
const wall = (performance.now() - t0) / 1000;
await DBOS.shutdown();

const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
console.log(JSON.stringify({
  system: "dbos", workflows: WORKFLOWS, wrong, wall,
  p50: q(latencies, 0.5), p99: q(latencies, 0.99),
  step_p50: q(stepLatencies, 0.5), step_p99: q(stepLatencies, 0.99),
}));
process.exit(0);
