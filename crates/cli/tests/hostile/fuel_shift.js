// A native loop over a 2^32-1 sparse array stops under the instruction budget.
// args: --max-instructions 1000000
// exit: 5
// stderr: instruction limit exceeded
new Array(2 ** 32 - 1).shift();
