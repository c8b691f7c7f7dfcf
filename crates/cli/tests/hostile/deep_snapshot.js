// A session holding an object chain and an array chain a million levels deep suspends:
// the collector's mark phase and the image's canonical walk are iterative.
// args: --session deep
// exit: 75
// stdout: built
let o = { end: true };
for (let i = 0; i < 1e6; i++) o = { next: o };
let a = [];
for (let i = 0; i < 1e6; i++) a = [a];
console.log('built');
amber.input('go?').then(() => {
  let n = 0;
  for (let p = o; p.next; p = p.next) n++;
  console.log(n, a.length);
});
