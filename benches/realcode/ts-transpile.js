// ts-transpile: load the TypeScript compiler, then ts.transpileModule over a generated
// ~2,000-line module; prints the output length and a checksum.
const ts = require("typescript");
console.log("typescript " + ts.version);
function tsSource(sections) {
  var out = ["// Generated input for the typescript transpile benchmark.", "import { EventEmitter } from \"events\";", "import type { Readable } from \"stream\";", ""];
  for (var i = 0; i < sections; i++) {
    out.push(
      "export enum Kind" + i + " { Alpha = " + i + ", Beta, Gamma = \"gamma" + i + "\" }",
      "export const enum Flag" + i + " { None = 0, A = 1 << 0, B = 1 << 1, AB = A | B }",
      "export interface Record" + i + "<T extends object = {}> {",
      "  readonly id: number;",
      "  name?: string;",
      "  payload: T;",
      "  tags: Array<string | number>;",
      "  nested: { depth: number; parent?: Record" + i + "<T> | null };",
      "}",
      "export type Mapped" + i + "<T> = { [K in keyof T as `get${Capitalize<string & K>}`]: () => T[K] };",
      "type Pick" + i + "<T, K extends keyof T> = T extends unknown ? { [P in K]: T[P] } : never;",
      "export abstract class Base" + i + "<T> extends EventEmitter {",
      "  protected static count: number = 0;",
      "  private readonly items: Map<string, T> = new Map();",
      "  constructor(public readonly label: string, protected limit: number = " + (i + 10) + ") { super(); Base" + i + ".count++; }",
      "  abstract score(item: T): number;",
      "  get size(): number { return this.items.size; }",
      "  add(key: string, item: T): this {",
      "    if (this.items.size >= this.limit) throw new RangeError(`limit ${this.limit} reached in ${this.label}`);",
      "    this.items.set(key, item); this.emit(\"add\", key); return this;",
      "  }",
      "  best(): T | undefined {",
      "    let top: T | undefined, topScore = -Infinity;",
      "    for (const [, item] of this.items) { const s = this.score(item); if (s > topScore) { topScore = s; top = item; } }",
      "    return top;",
      "  }",
      "}",
      "export class Impl" + i + " extends Base" + i + "<Record" + i + "<{ weight: number }>> {",
      "  #secret = " + i + ";",
      "  score(item: Record" + i + "<{ weight: number }>): number { return item.payload.weight * (item.nested?.depth ?? 1) + this.#secret; }",
      "  static create(label: string): Impl" + i + " { return new Impl" + i + "(label); }",
      "}",
      "export function convert" + i + "(value: string): number;",
      "export function convert" + i + "(value: number): string;",
      "export function convert" + i + "(value: string | number): string | number {",
      "  return typeof value === \"string\" ? parseInt(value, 10) + " + i + " : String(value * " + (i + 1) + ");",
      "}",
      "export namespace Util" + i + " {",
      "  export const prefix = \"u" + i + "\";",
      "  export function join<T>(xs: readonly T[], sep = \",\"): string { return xs.map((x, j) => `${prefix}${j}:${String(x)}`).join(sep); }",
      "  export async function later<T>(x: T, stream?: Readable): Promise<T> { await Promise.resolve(stream); return x as T; }",
      "}",
      "declare const ambient" + i + ": unique symbol;",
      ""
    );
  }
  return out.join("\n");
}
const source = tsSource(45);
const result = ts.transpileModule(source, {
  compilerOptions: { target: ts.ScriptTarget.ES2017, module: ts.ModuleKind.CommonJS },
  fileName: "input.ts",
  reportDiagnostics: true,
});
let hash = 0;
for (let i = 0; i < result.outputText.length; i++) hash = (Math.imul(hash, 31) + result.outputText.charCodeAt(i)) | 0;
console.log("input " + source.split("\n").length + " lines " + source.length + " chars");
console.log("output " + result.outputText.length + " chars hash " + hash + " diagnostics " + result.diagnostics.length);
