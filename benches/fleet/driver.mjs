// Drives benches/server-fleet.sh: SERVERS `amber serve --database` processes on one
// PostgreSQL, WORKERS tool workers (each a set of claim loops, talking to any live server),
// SESSIONS sessions of agent.mjs spread over the servers. A chaos loop SIGKILLs a random
// server every few seconds and restarts it, and restarts PostgreSQL itself once. At the end
// it checks every session completed with the right value, every operation has exactly one
// completion in its journal, every tool call ran (re-executions counted: only a crash
// between a claim and its completion may cause one), and — over the journal's lease columns
// — that no two servers ever committed for one session under one epoch and that epochs only
// grow along a journal. Prints one JSON line of figures.
//
//   node driver.mjs AMBER DB_URL PG_RESTART_CMD SESSIONS SERVERS WORKERS CACHE_DIR
import { spawn, execFileSync } from "node:child_process";
import { appendFileSync } from "node:fs";

const [amber, dbUrl, pgRestart, sessionsArg, serversArg, workersArg, cache] = process.argv.slice(2);
const SESSIONS = Number(sessionsArg), SERVERS = Number(serversArg), WORKERS = Number(workersArg);
const LOOPS_PER_WORKER = 8;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (m) => console.error(`[fleet ${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const t0 = performance.now();

// --- servers -------------------------------------------------------------------------------
const servers = [];
function startServer(k) {
  const port = 21000 + Math.floor(Math.random() * 20000);
  const child = spawn(amber, ["serve", "--listen", `127.0.0.1:${port}`, "--store", `${cache}/cache-${k}`, "--workers", "2",
    "--database", dbUrl, "--lease-ms", "3000"], { stdio: ["ignore", "ignore", "pipe"] });
  const s = { k, port, child, up: false, url: `http://127.0.0.1:${port}` };
  child.stderr.on("data", (d) => {
    appendFileSync(`${cache}/serve-${k}.log`, d);
    if (String(d).includes("serving on")) s.up = true;
  });
  child.on("exit", () => { s.up = false; });
  servers[k] = s;
  return s;
}
for (let k = 0; k < SERVERS; k++) startServer(k);
while (!servers.every((s) => s.up)) await sleep(50);
const live = () => { const up = servers.filter((s) => s.up); return up[Math.floor(Math.random() * up.length)]; };

async function call(method, path, body, tries = 200) {
  for (let attempt = 0; ; attempt++) {
    const s = live();
    try {
      if (!s) throw new Error("no server up");
      const r = await fetch(`${s.url}${path}`, { method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body), signal: AbortSignal.timeout(15000) });
      const text = await r.text();
      if (r.status >= 500) throw new Error(`${r.status} ${text}`);
      return { status: r.status, json: text ? JSON.parse(text) : null };
    } catch (e) {
      if (attempt >= tries) throw e;
      await sleep(100);
    }
  }
}

// --- deploy and create ---------------------------------------------------------------------
const program = execFileSync(amber, ["deploy", new URL(".", import.meta.url).pathname, "--server", servers[0].url]).toString().trim();
const created0 = performance.now();
for (let n = 0; n < SESSIONS; n += 50) {
  await Promise.all(Array.from({ length: Math.min(50, SESSIONS - n) }, (_, j) =>
    call("POST", "/v1/sessions", { id: `job-${n + j}`, program, entry: "agent.mjs", argv: [String(n + j)] })));
}
log(`created ${SESSIONS} sessions in ${((performance.now() - created0) / 1000).toFixed(1)} s`);

// --- tool workers --------------------------------------------------------------------------
const executions = new Map(); // idempotency key -> times run
let done = false;
async function claimLoop() {
  while (!done) {
    let claimed;
    try {
      claimed = (await call("POST", "/v1/ops/claim", { names: ["step"], wait_ms: 1000, max: 4 }, 5)).json.ops;
    } catch { await sleep(100); continue; }
    for (const op of claimed) {
      executions.set(op.idempotency_key, (executions.get(op.idempotency_key) ?? 0) + 1);
      try {
        await call("POST", `/v1/ops/${encodeURIComponent(op.id)}/complete`, { result: op.args.value * 2 + op.args.i }, 50);
      } catch { /* the claim expires and is handed out again */ }
    }
  }
}
const loops = Array.from({ length: WORKERS * LOOPS_PER_WORKER }, claimLoop);

// --- chaos ---------------------------------------------------------------------------------
let kills = 0, pgRestarts = 0;
const chaos = (async () => {
  while (!done) {
    await sleep(2000 + Math.random() * 3000);
    if (done) break;
    if (pgRestarts === 0 && kills >= 3) {
      log("restarting PostgreSQL");
      execFileSync("sh", ["-c", pgRestart], { stdio: "ignore" });
      pgRestarts++;
      continue;
    }
    const victim = servers[Math.floor(Math.random() * SERVERS)];
    if (!victim.up) continue;
    victim.child.kill("SIGKILL");
    kills++;
    log(`killed server ${victim.k}`);
    await sleep(300);
    startServer(victim.k);
  }
})();

// --- wait for the end ----------------------------------------------------------------------
async function countCompleted() {
  let count = 0, cursor = null;
  do {
    const r = (await call("GET", `/v1/sessions?status=completed&limit=1000${cursor ? `&cursor=${cursor}` : ""}`)).json;
    count += r.sessions.length;
    cursor = r.next_cursor;
  } while (cursor);
  return count;
}
const deadline = performance.now() + 1800_000;
for (;;) {
  const completed = await countCompleted();
  if (completed >= SESSIONS) break;
  if (performance.now() > deadline) throw new Error(`only ${completed} of ${SESSIONS} completed`);
  await sleep(500);
}
const finished = performance.now();
done = true;
await chaos;
await Promise.all(loops);
log("all completed; checking");

// --- checks --------------------------------------------------------------------------------
const failures = [];
let completions = 0;
for (let n = 0; n < SESSIONS; n++) {
  let expected = n;
  for (let i = 0; i < 5; i++) expected = expected * 2 + i;
  const id = `job-${n}`;
  const out = (await call("GET", `/v1/sessions/${id}/output`)).json;
  if (out.stdout !== `${expected}\n`) failures.push(`${id}: stdout ${JSON.stringify(out.stdout)}, expected ${expected}`);
  const records = (await call("GET", `/v1/sessions/${id}/journal`)).json.records;
  const byIntent = new Map();
  for (const r of records.filter((r) => (r.kind ?? "").endsWith("-completion"))) byIntent.set(r.parent_seq, (byIntent.get(r.parent_seq) ?? 0) + 1);
  completions += byIntent.size;
  if (byIntent.size !== 6 || [...byIntent.values()].some((c) => c !== 1)) failures.push(`${id}: completions ${JSON.stringify([...byIntent])}`);
}
const psql = (sql) => execFileSync("psql", [dbUrl, "-Atqc", sql]).toString().trim();
const sharedEpochs = Number(psql("SELECT COUNT(*) FROM (SELECT session, lease_epoch FROM amber.journal GROUP BY 1, 2 HAVING COUNT(DISTINCT lease_owner) > 1) x"));
const epochsBack = Number(psql("SELECT COUNT(*) FROM (SELECT lease_epoch, LAG(lease_epoch) OVER (PARTITION BY session ORDER BY seq) AS prev FROM amber.journal) x WHERE lease_epoch < prev"));
const owners = Number(psql("SELECT COUNT(DISTINCT lease_owner) FROM amber.journal"));
const takeovers = Number(psql("SELECT COUNT(*) FROM (SELECT session FROM amber.journal GROUP BY session HAVING COUNT(DISTINCT lease_owner) > 1) x"));
const ran = executions.size;
const reruns = [...executions.values()].filter((c) => c > 1).length;
if (ran !== SESSIONS * 5) failures.push(`the tool workers ran ${ran} distinct operations, expected ${SESSIONS * 5}`);
if (sharedEpochs) failures.push(`${sharedEpochs} (session, epoch) pairs committed by two servers`);
if (epochsBack) failures.push(`${epochsBack} journal records under an older epoch than the record before them`);
const seconds = (finished - t0) / 1000;
console.log(JSON.stringify({
  sessions: SESSIONS, servers: SERVERS, tool_workers: WORKERS, kills, postgres_restarts: pgRestarts,
  seconds: Number(seconds.toFixed(1)), sessions_per_s: Number((SESSIONS / seconds).toFixed(1)),
  op_completions_journaled: completions, tool_operations_run: ran, tool_operations_rerun: reruns,
  lease_owners_seen: owners, sessions_moved_between_servers: takeovers,
  epochs_shared_by_two_servers: sharedEpochs, epochs_going_back: epochsBack, failures: failures.slice(0, 10), failure_count: failures.length,
}));
for (const s of servers) s.child.kill("SIGTERM");
process.exit(failures.length ? 1 : 0);
