import path from 'node:path';
const cases = [['a/b/c.js', 'a/**/*.js'], ['a/c.js', 'a/**/*.js'], ['a/b/c.ts', 'a/**/*.js'], ['x.js', '*.js'],
  ['d/x.js', '*.js'], ['abc', 'a?c'], ['abc', 'a[bc]c'], ['aXc', 'a[!b]c'], ['file.md', '*.{md,txt}'],
  ['file.txt', '*.{md,txt}'], ['file.js', '*.{md,txt}'], ['a/b', 'a/*'], ['a/b/c', 'a/*']];
for (const [p, g] of cases) console.log(p, g, path.matchesGlob(p, g));
