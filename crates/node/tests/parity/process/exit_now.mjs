console.log('start');
setTimeout(() => console.log('never'), 0);
Promise.resolve().then(() => console.log('never either'));
try {
  process.exit(7);
} finally {
  console.log('finally does not run');
}
console.log('not reached');
