// The agent under node, for the expected output: `amber` answered the way the server test
// answers it (tools from examples/tools.mjs; review and input by the test's rules).
import * as tools from "../../../../examples/tools.mjs";

globalThis.amber = {
  call: async (name, args) => (name === "review" ? { ok: args.n % 2 === 0 } : tools[name](args)),
  input: async (prompt) => `user-${prompt.match(/\d+/)[0]}`,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
await import("./agent/agent.mjs");
