// The research agent of agent.js, in TypeScript: Amber runs it directly (types are
// stripped, nothing is type-checked; run `tsc --noEmit` for that), and every position it
// reports — stack traces, replay divergences — is a position in this file.
//
//   amber run examples/agent.ts --session demo-ts             # suspends on the search
//   amber resume demo-ts --resolve 1='{"results":["a","b"]}'  # suspends on the approval
//   amber resume demo-ts --input yes                          # completes
//   amber replay demo-ts                                      # re-checks the journal

import { call, input, sleep, step } from "amber";

const TASK = "Find sources on durable execution for long-running AI agents";

interface Plan {
  query: string;
  limit: number;
}

interface Ranked {
  title: string;
  score: number;
}

enum Decision {
  Publish = "publish",
  Stop = "stop",
}

class Agent {
  readonly notes = new Map<string, unknown>();
  constructor(readonly task: string) {}

  say(message: string): void {
    console.log(`[agent] ${message}`);
  }

  plan(): Plan {
    const words = this.task.toLowerCase().split(/\W+/).filter((w) => w.length > 4);
    return { query: words.slice(0, 4).join(" "), limit: 3 };
  }
}

function decide(answer: string): Decision {
  return /^y(es)?$/i.test(answer.trim()) ? Decision.Publish : Decision.Stop;
}

async function main(): Promise<void> {
  const agent = new Agent(TASK);
  const plan = agent.plan();
  agent.say(`task: ${agent.task}`);
  agent.say(`plan: search for "${plan.query}" (at most ${plan.limit} results)`);

  // A host operation. Unless `--host search=CMD` serves it, the run suspends here.
  const found = (await call("search", { query: plan.query, limit: plan.limit })) as { results?: unknown[] } | null;
  const results = Array.isArray(found?.results) ? found.results.slice(0, plan.limit) : [];
  agent.notes.set("results", results);
  agent.say(`search returned ${results.length} result(s)`);

  // A pure computation memoized in the journal.
  const ranked: Ranked[] = await step("rank", () =>
    results
      .map((title, i): Ranked => ({ title: String(title), score: Math.round(100 / (i + 1)) }))
      .sort((a, b) => b.score - a.score),
  );

  // A human in the loop.
  const answer = await input(`Publish ${ranked.length} source(s)? (yes/no)`);
  if (decide(answer) === Decision.Stop) {
    agent.say(`not approved (answer: ${JSON.stringify(answer)}); stopping`);
    return;
  }

  // A durable timer.
  agent.say("approved; publishing in 1 second");
  await sleep(1000);

  console.log("\nSummary");
  for (const { title, score } of ranked) {
    console.log(`  ${String(score).padStart(3)}  ${title}`);
  }
  console.log(`  ${ranked.length} source(s) published`);
}

main();
