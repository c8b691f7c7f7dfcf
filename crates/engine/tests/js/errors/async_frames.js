// Async stack traces as V8 (node 20) writes them: after the synchronous frames, each async
// function awaiting the running one's promise, as `at async name (file:line:col)` placed at
// its `await`; through Promise.all / allSettled as `at async Promise.all (index N)`; none
// for the synchronous part of an async function (its caller is a real frame). Directories
// are stripped so the expected text does not depend on where the checkout lives.
function frames(label, stack) {
  console.log(label + ": " + stack.split("\n").slice(1).map((l) => l.trim().replace(/[^ (]*\//g, "")).join(" | "));
}
async function inner() {
  await null;
  throw new Error("inner");
}
async function middle() {
  const v = await inner();
  return v;
}
async function outer() {
  try {
    await middle();
  } catch (e) {
    frames("chain", e.stack);
  }
}
class K {
  async m() {
    await 1;
    return new Error("method").stack;
  }
  static async s() {
    return await new K().m();
  }
}
async function early() {
  return new Error("sync part").stack;
}
async function callsEarly() {
  return await early();
}
async function element() {
  await null;
  return new Error("element").stack;
}
async function viaThen() {
  await null;
  return await Promise.resolve().then(function cb() {
    return new Error("then").stack;
  });
}
const arrow = async () => {
  await null;
  return new Error("arrow").stack;
};
async function loop() {
  let last;
  for (let i = 0; i < 2; i++) {
    last = await arrow();
  }
  return last;
}
async function main() {
  await outer();
  frames("method", await K.s());
  frames("sync part", await callsEarly());
  frames("all", (await Promise.all([element()]))[0]);
  frames("allSettled", (await Promise.allSettled([1, element()]))[1].value);
  frames("then", await viaThen());
  frames("loop", await loop());
}
main();
