export type Unit = "cm" | "in";
export interface Shape { kind: "square"; side: number }
export function area(s: Shape): number { return s.side * s.side; }
