// One Amber round of benches/dbos.sh: WORKFLOWS sessions of amber/agent.mjs created on the
// `amber serve` at SERVER (deployed as PROGRAM), CONCURRENCY at a time; each client creates
// its session and waits on the session's event stream until it completes. Prints one JSON
// line like dbos-workflow.mjs: wall seconds and per-workflow latencies (ms); the outputs are
// checked after the clock stops.
//
//   node amber-workflow.mjs SERVER PROGRAM WORKFLOWS CONCURRENCY ROUND
const [server, program, workflowsArg, concurrencyArg, round] = process.argv.slice(2);
const WORKFLOWS = Number(workflowsArg), CONCURRENCY = Number(concurrencyArg);

async function untilFinished(id) {
  const controller = new AbortController();
  const response = await fetch(`${server}/v1/sessions/${id}/events`, { signal: controller.signal });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${id}: event stream ended`);
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const kind = /^event: ?(.*)$/m.exec(event)?.[1];
        const data = /^data: ?(.*)$/m.exec(event)?.[1];
        if (kind === "lagged") return untilFinishedByPolling(id);
        if (kind !== "status" || !data) continue;
        const status = JSON.parse(data).status;
        if (status === "completed" || status === "failed" || status === "cancelled") return status;
      }
    }
  } finally {
    controller.abort();
  }
}

async function untilFinishedByPolling(id) {
  for (;;) {
    const status = (await (await fetch(`${server}/v1/sessions/${id}`)).json()).status;
    if (status === "completed" || status === "failed" || status === "cancelled") return status;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const latencies = [];
let next = 0, failed = 0;
const t0 = performance.now();
await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
  while (next < WORKFLOWS) {
    const n = next++;
    const id = `r${round}-${n}`;
    const t = performance.now();
    const created = await fetch(`${server}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id, program, entry: "agent.mjs", argv: [String(n)] }),
    });
    if (created.status !== 201) throw new Error(`${id}: create answered ${created.status} ${await created.text()}`);
    if ((await untilFinished(id)) !== "completed") failed++;
    latencies.push(performance.now() - t);
  }
}));
const wall = (performance.now() - t0) / 1000;

const expected = (n) => { let v = n; for (let i = 0; i < 5; i++) v = (v * 31 + i) % 1000003; return v; };
let wrong = failed;
for (let n = 0; n < WORKFLOWS; n++) {
  const out = await (await fetch(`${server}/v1/sessions/r${round}-${n}/output`)).json();
  if (out.stdout !== `${expected(n)}\n`) wrong++;
}
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
console.log(JSON.stringify({ system: "amber", workflows: WORKFLOWS, wrong, wall, p50: q(latencies, 0.5), p99: q(latencies, 0.99) }));
