// util.inspect / console.log of proxies (shown as their targets, no trap run; a revoked one as
// <Revoked Proxy>) and of '__proto__' keys (quoted as ['__proto__']).
console.log(new Proxy({ a: 1 }, {}), new Proxy([1, 2], {}), new Proxy(function f() {}, {}));
const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); console.log(proxy, [proxy]);
let trapped = 0;
const t = new Proxy({ x: { y: 1 } }, { get() { trapped++; return 1; }, ownKeys() { trapped++; return []; }, getPrototypeOf() { trapped++; return null; } });
console.log(t, { inner: t }, trapped);
console.log({ ['__proto__']: 1, a: { ['__proto__']: [] } }, JSON.parse('{"__proto__": {"a": 1}}'));
