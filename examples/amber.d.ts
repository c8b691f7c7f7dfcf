// Types of the `amber` module (and the global `amber`) for editors and `tsc --noEmit`.
// Copy it beside your agent, or reference it: /// <reference path="amber.d.ts" />
declare module "amber" {
  /** Calls host operation `name` with JSON `args`; journaled, and the run may suspend here. */
  export function call<T = unknown>(name: string, args?: unknown): Promise<T>;
  /** Asks a human; the answer may come days later, from another process. */
  export function input(prompt: string): Promise<string>;
  /** A durable timer. */
  export function sleep(ms: number): Promise<void>;
  /** A pure synchronous computation memoized in the journal. */
  export function step<T>(name: string, fn: () => T): Promise<T>;
  const amber: { call: typeof call; input: typeof input; sleep: typeof sleep; step: typeof step };
  export default amber;
}
declare const amber: typeof import("amber").default;
