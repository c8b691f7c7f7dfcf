// 2,000 synchronous tape tests, each with a synchronous subtest: tape drives every one
// through its own stream and nextTick chain, which is where deep native recursion shows.
const test = require('tape');
for (let i = 0; i < 2000; i++) {
  test(`test ${i}`, (t) => {
    t.equal(i % 7, i % 7);
    t.test(`subtest ${i}`, (st) => {
      st.ok(true);
      st.end();
    });
    t.end();
  });
}
