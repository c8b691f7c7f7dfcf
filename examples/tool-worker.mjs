#!/usr/bin/env node
// A reference tool worker for `amber serve` (docs/server.md, "Tool workers"): it long-polls
// POST /v1/ops/claim for the operations it serves, runs each, and answers
// POST /v1/ops/{id}/complete with the result (or /fail with the error message).
//
//   node examples/tool-worker.mjs --server http://127.0.0.1:8470 [--token T] [--tools FILE.mjs]
//        [--names a,b] [--concurrency N] [--log FILE]
//
// Tools are the named exports of --tools (an ES module; each `async (args, op) => result`),
// else examples/tools.mjs. An operation interrupted by a crash is handed out again with
// the same idempotency key: a real tool uses it to avoid doing a side effect twice. --log
// appends one JSON line per execution ({"key", "name", "attempt"}) so a test can count them.
// The worker keeps polling through server restarts; SIGTERM stops it after the current ops.

import { appendFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const server = (option("server", process.env.AMBER_SERVER) || "http://127.0.0.1:8470").replace(/\/$/, "");
const token = option("token", process.env.AMBER_TOKEN);
const log = option("log");
const concurrency = Number(option("concurrency", "4"));

const toolsFile = option("tools");
const tools = await import(toolsFile ? pathToFileURL(resolve(toolsFile)).href : "./tools.mjs");
const names = (option("names") || Object.keys(tools).join(",")).split(",").filter(Boolean);

const headers = { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) };
async function post(path, body) {
  const response = await fetch(`${server}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, json, text };
}

let stopping = false;
process.on("SIGTERM", () => (stopping = true));
process.on("SIGINT", () => (stopping = true));
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

async function runOne(op) {
  if (log) appendFileSync(log, JSON.stringify({ key: op.idempotency_key, name: op.name, attempt: op.attempt }) + "\n");
  let answer;
  try {
    const tool = tools[op.name];
    if (typeof tool !== "function") throw new Error(`no tool ${op.name}`);
    answer = { path: `/v1/ops/${encodeURIComponent(op.id)}/complete`, body: { result: (await tool(op.args, op)) ?? null } };
  } catch (e) {
    answer = { path: `/v1/ops/${encodeURIComponent(op.id)}/fail`, body: { error: String(e && e.message ? e.message : e) } };
  }
  // Retry while the server is unreachable; a 409 (the claim expired and went to another
  // worker) or any other answer ends it.
  for (;;) {
    try {
      await post(answer.path, answer.body);
      return;
    } catch {
      if (stopping) return;
      await pause(200);
    }
  }
}

async function loop() {
  while (!stopping) {
    let claimed;
    try {
      claimed = await post("/v1/ops/claim", { names, wait_ms: 5000, max: 1 });
    } catch {
      await pause(200);
      continue;
    }
    if (claimed.status !== 200) {
      console.error(`tool-worker: claim answered ${claimed.status}: ${claimed.text}`);
      await pause(1000);
      continue;
    }
    for (const op of claimed.json.ops) await runOne(op);
  }
}

await Promise.all(Array.from({ length: concurrency }, loop));
