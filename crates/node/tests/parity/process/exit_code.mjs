process.on('exit', (code) => console.log('exiting with', code, process.exitCode));
console.log('before');
process.exitCode = 3;
setTimeout(() => console.log('timer still runs'), 1);
