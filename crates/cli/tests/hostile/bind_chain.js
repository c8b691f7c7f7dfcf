// A chain of 100,000 bound functions calls through without recursing.
// exit: 0
// stdout: 1 600001
let g = function () { return 1; };
for (let i = 0; i < 1e5; i++) g = g.bind(null);
console.log(g(), g.name.length);
