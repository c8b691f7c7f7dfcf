// Headers: validation errors as undici throws them, sorted and combined iteration,
// getSetCookie, the immutable guard, and inspection.
const log = (...a) => console.log(...a);
const show = (f) => {
  try { log('ok', f()); } catch (e) { log(e.name, e.message); }
};

show(() => new Headers([['a']]));
show(() => new Headers([['a b', 'x']]));
show(() => new Headers({ x: 'a\nb' }));
show(() => new Headers(1));
show(() => new Headers('str'));
show(() => new Headers().get('a b'));
show(() => new Headers().append('a', '\0'));
show(() => new Headers().get());
show(() => new Headers().set('a'));
show(() => new Headers({ ' a': 'b' }));
show(() => new Headers({ a: ' b\t' }).get('a'));
show(() => new Headers().has('x'));
show(() => new Headers().get('missing'));
show(() => Response.error().headers.set('a', 'b'));
show(() => Response.error().headers.append('a', 'b'));
show(() => Response.error().headers.delete('a'));
show(() => new Headers({ 'é': 'x' }));

const h = new Headers([['Set-Cookie', 'a=1'], ['b', '2'], ['set-cookie', 'b=2'], ['A', 'x'], ['a', 'y']]);
log([...h]);
log(h.getSetCookie(), h.get('set-cookie'), h.get('A'), h.has('SET-COOKIE'));
log(h);
log([...h.keys()], [...h.values()]);
h.forEach(function (value, name, self) { log('forEach', name, value, self === h, this.tag); }, { tag: 't' });
h.set('set-cookie', 'only=1');
h.delete('b');
log([...h.entries()], h.getSetCookie());

// Iterators see changes made while iterating.
const live = new Headers({ b: '1' });
const it = live[Symbol.iterator]();
live.append('a', '0');
log(it.next(), it.next(), it.next(), Object.prototype.toString.call(it));

// Copying: from a Headers, from a record, from a Map.
log([...new Headers(h)], [...new Headers(new Map([['k', 'v']]))], [...new Headers({ Z: '1', y: '2' })]);
log(new Headers(), Object.prototype.toString.call(new Headers()));
