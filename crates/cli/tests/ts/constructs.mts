// Type-only constructs, enums, namespaces, parameter properties, declare, overloads.
import type { Shape } from "./lib/shapes.mjs";
import { area, type Unit } from "./lib/shapes.mjs";

enum Color { Red, Green = 5, Blue }
const enum Flag { A = 1, B = 2, C = A | B }
enum Named { X = "x", Y = "y" }

interface Point {
  x: number;
  y: number;
}

namespace Geometry {
  export const origin: Point = { x: 0, y: 0 };
  export namespace Inner { export const depth = 2; }
}

class Account {
  declare tag: string;
  count = 3;
  constructor(public owner: string, private balance: number, readonly id?: number) {}
  deposit(n: number): this { this.balance += n; return this; }
  get total(): number { return this.balance; }
}

function pick(a: string): string;
function pick(a: number): number;
function pick(a: string | number): string | number { return a; }

const s: Shape = { kind: "square", side: 3 };
const u: Unit = "cm";
const cfg = { retries: 2 } satisfies Record<string, number>;
const maybe: string | undefined = "yes";
const acct = new Account("ada", 10).deposit(5);
console.log(Color.Green, Color[6], Flag.C, Named.Y, Object.keys(Color).join(","));
console.log(Geometry.origin, Geometry.Inner.depth);
console.log(acct.owner, acct.total, acct.count, "tag" in acct, Object.keys(acct).join(","));
console.log(pick("a"), pick(2), area(s), u, cfg.retries, maybe!.length, (acct as unknown as { owner: string }).owner);
