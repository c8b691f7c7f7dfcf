// Legacy url.parse / url.format (Url objects and WHATWG URLs with options).
const url = require('url');
const inputs = ['http://user:pw@Host.com:8080/p/a/t/h?query=string#hash', '/a?x=1&y=2', '//a/b', 'HTTP://X.COM', 'http://x.com', 'mailto:a@b.com', 'javascript:alert(1)', 'http://a b.com/x', 'http://[::1]:3000/p', 'http://a.com/p a"th?q r#h s', 'http:\\\\a.com\\b\\c?d\\e', 'a/b/c', '?q', '#h', 'http://a.com?x#y', 'file:///etc/x', 'file:/x', 'http://münchen.de/', 'http://x.com:/a', 'http://a.com/p?q=1#h?x', 'foo://bar/baz', 'foo:bar', 'http://user@host', 'http://a.com:abc/', '  http://trim.com/  ', 'http://a_b.com/', 'http://a*b.com/c'];
for (const i of inputs) { try { console.log(JSON.stringify(i), JSON.stringify(url.parse(i))); } catch (e) { console.log(e.code); } }
console.log(url.parse('//a/b', false, true));
console.log(url.parse('/p?a=1&a=2&b', true).query);
console.log(url.parse('http://x?', true).query, url.parse('http://x', true).search);
console.log(url.format({ protocol: 'http', host: 'a.com', pathname: 'x y#z', query: { a: 1, b: [2, 3] } }));
console.log(url.format({ protocol: 'https:', hostname: 'a.com', port: 8, auth: 'u:p w@', search: 'q=1', hash: 'h' }));
console.log(url.format({ protocol: 'file', pathname: '/x' }), url.format({ hostname: '::1', port: 2 }), url.format('http://A.com/x'));
const u = new URL('https://u:p@münchen.de:8/p?q#h');
console.log(url.format(u), url.format(u, { auth: false, fragment: false, search: false, unicode: true }));
for (const [a, b] of [['/one/two/three', 'four'], ['http://example.com/', '/one'], ['http://example.com/one', '/two'], ['http://a.com/b/c', '../d'], ['http://a.com/b/c', '//x.com/y'], ['http://a.com/b/c?q', '?r'], ['http://a.com/b/c?q', '#f'], ['http://a.com/b/c', 'https://z/'], ['http://a.com', 'x'], ['http://a.com/b/c/', './../../../e'], ['a/b', 'c'], ['http://a.com/b', ''], ['mailto:a@b', 'c']]) console.log(a, b, url.resolve(a, b));
console.log(url.parse('http://x/') instanceof url.Url, typeof url.resolveObject);
try { url.parse(5) } catch (e) { console.log(e.code, e.message) }
