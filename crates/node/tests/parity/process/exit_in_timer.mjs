let n = 0;
const id = setInterval(() => {
  n++;
  console.log('tick', n);
  if (n === 3) process.exit();
}, 10);
process.on('exit', (c) => console.log('exit', c, typeof id));
