// A small research agent, made durable by Amber.
//
// It plans a task, calls a search tool (a host operation the CLI or embedder serves),
// ranks the results in a memoized step, asks a human for approval, waits on a durable
// timer, and prints a summary. Every await on `amber.*` is a point where the process may
// exit and the run continue later — in another process, after `amber resume`.
//
//   amber run examples/agent.js --session demo                # suspends on the search
//   amber resume demo --resolve 1='{"results":["a","b"]}'     # suspends on the approval
//   amber resume demo --input yes                             # completes
//   amber replay demo                                         # re-checks the journal

const TASK = "Find sources on durable execution for long-running AI agents";

class Agent {
  constructor(task) {
    this.task = task;
    this.started = Date.now();
    this.notes = new Map();
  }

  say(message) {
    console.log(`[agent] ${message}`);
  }

  plan() {
    const words = this.task.toLowerCase().split(/\W+/).filter((w) => w.length > 4);
    return { query: words.slice(0, 4).join(" "), limit: 3 };
  }
}

async function main() {
  const agent = new Agent(TASK);
  const plan = agent.plan();
  agent.say(`task: ${agent.task}`);
  agent.say(`plan: search for "${plan.query}" (at most ${plan.limit} results)`);

  // A host operation. Unless `--host search=CMD` serves it, the run suspends here.
  const found = await amber.call("search", { query: plan.query, limit: plan.limit });
  const results = Array.isArray(found && found.results) ? found.results.slice(0, plan.limit) : [];
  agent.notes.set("results", results);
  agent.say(`search returned ${results.length} result(s)`);

  // A pure computation memoized in the journal: replay returns the recorded ranking
  // without running the function again.
  const ranked = await amber.step("rank", () =>
    results
      .map((title, i) => ({ title: String(title), score: Math.round(100 / (i + 1)) }))
      .sort((a, b) => b.score - a.score),
  );

  // A human in the loop. The answer may come days later, from another process.
  const answer = await amber.input(`Publish ${ranked.length} source(s)? (yes/no)`);
  if (!/^y(es)?$/i.test(answer.trim())) {
    agent.say(`not approved (answer: ${JSON.stringify(answer)}); stopping`);
    return;
  }

  // A durable timer: it survives restarts, and `amber resume` continues it once due.
  agent.say("approved; publishing in 1 second");
  await amber.sleep(1000);

  // Ordinary timers run on the same logical clock.
  await new Promise((resolve) => setTimeout(resolve, 250));

  console.log("\nSummary");
  for (const { title, score } of ranked) {
    console.log(`  ${String(score).padStart(3)}  ${title}`);
  }
  console.log(`  ${ranked.length} source(s) published`);
}

main();
