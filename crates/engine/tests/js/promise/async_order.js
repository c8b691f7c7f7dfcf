// async/await and promise jobs interleaving.
const log = (s) => console.log(s);

async function f1() { log("f1 start"); await undefined; log("f1 after await 1"); await null; log("f1 after await 2"); return "f1 done"; }
async function f2() { log("f2 start"); const v = await Promise.resolve("v"); log("f2 got " + v); throw new Error("f2 fail"); }
async function f3() { return Promise.resolve("f3 value"); }

f1().then((v) => log(v));
f2().catch((e) => log("f2 caught " + e.message));
f3().then((v) => log(v));
Promise.resolve().then(() => log("p1")).then(() => log("p2")).then(() => log("p3")).then(() => log("p4")).then(() => log("p5"));

(async () => {
  try {
    await Promise.reject(new Error("awaited rejection"));
  } catch (e) {
    log("caught " + e.message);
  }
  const thenable = { then(r) { log("thenable then"); r(42); } };
  log("thenable gave " + (await thenable));
})();
log("sync end");
