// URL setters with the standard's state overrides; searchParams bound both ways.
const show = (u) =>
  JSON.stringify([u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash]);
const bases = ['https://user:pw@example.com:8080/a/b?x=1#h', 'foo://h/p', 'mailto:a@b', 'file:///C:/dir/f', 'sc:opaque  ', 'http://[::1]/'];
const sets = {
  href: ['http://other.org/x', 'not a url', ''],
  protocol: ['http', 'HTTPS:', 'ws:junk', 'file', 'foo', '1abc', 'ftp://x', ''],
  username: ['me', 'a b@c:d', '', '\u00e9'],
  password: ['secret', 'p:w/x', ''],
  host: ['new.org', 'new.org:99', 'new.org:abc', 'new.org:443', '[::2]:1', 'a b', '', 'x/y', 'EX%41MPLE.com', '1.2.3'],
  hostname: ['new.org', 'new.org:99', '', 'x?y', '0x10', '[1::]'],
  port: ['99', '443', '8080abc', 'abc', '', '65536', '0', ' 1'],
  pathname: ['/x/y', 'x y', '../../z', '/%2e/q', '', 'a?b#c', '\\w\\v'],
  search: ['?a=b', 'c=d e', '', '?', '#x', '?\u00e9\''],
  hash: ['#frag', 'f g', '', '#', '#\u00e9`'],
};
for (const base of bases) {
  for (const [prop, values] of Object.entries(sets)) {
    for (const v of values) {
      const u = new URL(base);
      let r;
      try {
        u[prop] = v;
        r = show(u);
      } catch (e) {
        r = `${e.name} ${e.code} ${e.message}`;
      }
      console.log(base, prop, JSON.stringify(v), r);
    }
  }
}

// searchParams <-> search
const u = new URL('http://h/p?a=1&b=2&a=3#x');
const sp = u.searchParams;
console.log(sp === u.searchParams, sp.get('a'), sp.getAll('a'), sp.size);
sp.append('c', 'x y&z');
console.log(u.href);
sp.delete('a');
console.log(u.href);
u.search = '?k=v&k=w';
console.log(sp.toString(), sp.getAll('k'));
u.href = 'http://h/?z=9';
console.log(sp.get('z'), [...sp]);
sp.delete('z');
console.log(u.href, JSON.stringify(u.search));
const o = new URL('sc:opaque   ?q');
o.searchParams.delete('q');
console.log(JSON.stringify(o.href), JSON.stringify(o.pathname));
const o2 = new URL('sc:op   #f');
o2.hash = '';
console.log(JSON.stringify(o2.href));
console.log(JSON.stringify(new URL('http://a.com/x')), String(new URL('http://a.com/x')), new URL('http://a.com').toJSON());
console.log(Object.prototype.toString.call(new URL('http://a')), Object.prototype.toString.call(sp));
console.log(Object.keys(new URL('http://a')));
console.log(new URL('blob:https://a.com:8/x').origin, new URL('blob:ftp://a/x').origin, new URL('file:///x').origin);
