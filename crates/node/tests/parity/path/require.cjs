const path = require('path');
console.log(require('node:path') === path, require('path/posix') === path, require('path').posix === path);
console.log(path.join('a', 'b', '..', 'c'), path.basename(__filename), path.extname(__filename));
console.log(path.dirname(__filename) === __dirname, path.isAbsolute(__dirname));
console.log(path.win32.sep, path.win32.delimiter, typeof path.win32.join);
