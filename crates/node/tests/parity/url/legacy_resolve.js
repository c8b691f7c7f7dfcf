// Legacy url.resolve over slashed-scheme and path-only bases (RFC 3986 examples and more).
const url = require('url');
const bases = ['http://a/b/c/d;p?q', 'http://a.com', 'http://a.com/', '/x/y', 'x/y', 'file:///a/b', 'http://u:p@h:8/a?b#c'];
const rels = ['g', './g', 'g/', '/g', '//g', '?y', 'g?y', '#s', 'g#s', ';x', '', '.', './', '..', '../', '../g', '../..', '../../g', '../../../g', '/./g', '/../g', 'g.', '.g', 'g..', '..g', './../g', 'g/./h', 'g/../h', 'http:g', 'https:g', 'http://x/y', 'mailto:z@w', 'ftp://f', 'javascript:x', '//u@v/w', 'a b'];
for (const b of bases) for (const r of rels) console.log(JSON.stringify([b, r]), url.resolve(b, r));
