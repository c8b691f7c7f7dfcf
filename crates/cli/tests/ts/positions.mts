// An error thrown at a known position: after an enum, a multi-line interface and types,
// so the TypeScript offsets differ from the JavaScript output's.
enum Level {
  Low = 1,
  High = 10,
}

interface Options {
  level: Level;
  label: string;
  retries?: number;
}

function check(o: Options): number {
  if (o.level > Level.Low) {
    throw new RangeError(`too high: ${o.label}`);
  }
  return o.level;
}

const where = (e: Error): string =>
  (e.stack ?? "").split("\n").slice(0, 2).map((l) => l.replace(/\(?\/.*\//, "(")).join("\n");

try {
  check({ level: Level.High, label: "x" } as Options);
} catch (e) {
  console.log(where(e as Error));
}
