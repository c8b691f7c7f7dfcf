// os.tmpdir() and os.homedir() exist and are writable directories.
const fs = require('fs');
const os = require('os');
const path = require('path');
for (const dir of [os.tmpdir(), os.homedir()]) {
  const file = path.join(dir, `amber-parity-${process.pid}.txt`);
  fs.writeFileSync(file, 'ok');
  console.log(fs.statSync(dir).isDirectory(), fs.readFileSync(file, 'utf8'));
  fs.unlinkSync(file);
}
const made = fs.mkdtempSync(path.join(os.tmpdir(), 'x-'));
console.log(fs.existsSync(made));
fs.rmdirSync(made);
