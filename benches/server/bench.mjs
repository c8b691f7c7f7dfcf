// Drives benches/server.sh: creates SESSIONS sessions of agent.mjs, serves their "step" calls
// as a tool worker with CONCURRENCY claim loops, and reports sessions/s, ops/s and the resume
// path: for each session, the time from completing op k to claiming op k+1 (the server stores
// the result, wakes the session, restores its image, delivers, runs to the next call, commits,
// and the waiting claim returns it).
// With a sixth argument "serial", one session runs at a time (the resume path unloaded);
// otherwise every session is created at once (throughput at saturation, latency with queueing).
const [server, program, sessions, concurrency] = [process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5])];
const serial = process.argv[6] === "serial";
const prefix = serial ? "serial-" : "all-";
const post = async (path, body) => {
  const r = await fetch(`${server}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return r.json();
};
const completedAt = new Map();
const opsDone = new Map();
const latencies = [];
let ops = 0;
const started = performance.now();
let done = false;
if (!serial) {
  for (let n = 0; n < sessions; n++) await post("/v1/sessions", { program, entry: "agent.mjs", id: `${prefix}${n}`, argv: [String(n)] });
}
const created = performance.now();
async function worker() {
  while (!done) {
    const { ops: claimed } = await post("/v1/ops/claim", { names: ["step"], wait_ms: 1000, max: 1 });
    for (const op of claimed) {
      const now = performance.now();
      const last = completedAt.get(op.session);
      if (last !== undefined) latencies.push(now - last);
      await post(`/v1/ops/${encodeURIComponent(op.id)}/complete`, { result: op.args.value * 2 + op.args.i });
      completedAt.set(op.session, performance.now());
      opsDone.set(op.session, (opsDone.get(op.session) ?? 0) + 1);
      ops++;
    }
  }
}
const workers = Array.from({ length: concurrency }, worker);
if (serial) {
  for (let n = 0; n < sessions; n++) {
    await post("/v1/sessions", { program, entry: "agent.mjs", id: `${prefix}${n}`, argv: [String(n)] });
    while ((opsDone.get(`${prefix}${n}`) ?? 0) < 5) await new Promise((r) => setTimeout(r, 2));
  }
}
for (;;) {
  const r = await fetch(`${server}/v1/sessions?status=completed&limit=1000`).then((r) => r.json());
  let count = r.sessions.length;
  let cursor = r.next_cursor;
  while (cursor) {
    const more = await fetch(`${server}/v1/sessions?status=completed&limit=1000&cursor=${cursor}`).then((r) => r.json());
    count += more.sessions.length;
    cursor = more.next_cursor;
  }
  if (count >= sessions) break;
  await new Promise((r) => setTimeout(r, 100));
}
const finished = performance.now();
done = true;
await Promise.all(workers);
latencies.sort((a, b) => a - b);
const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
const seconds = (finished - started) / 1000;
console.log(JSON.stringify({
  mode: serial ? "serial" : "all at once", sessions, concurrency, ops,
  seconds: Number(seconds.toFixed(2)),
  create_seconds: Number(((created - started) / 1000).toFixed(2)),
  sessions_per_s: Number((sessions / seconds).toFixed(1)),
  ops_per_s: Number((ops / seconds).toFixed(1)),
  resume_ms: { p50: Number(q(0.5)), p90: Number(q(0.9)), p99: Number(q(0.99)), max: Number(latencies.at(-1).toFixed(1)) },
}));
