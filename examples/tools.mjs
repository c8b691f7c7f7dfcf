// The reference tool worker's built-in tools (examples/tool-worker.mjs): each takes the
// operation's args and returns its result (a thrown error fails the operation).

export async function add({ a, b }) {
  return a + b;
}

export async function upper({ text }) {
  return String(text).toUpperCase();
}

export async function echo(args) {
  return args;
}

export async function fail({ message }) {
  throw new Error(message || "failed on purpose");
}
