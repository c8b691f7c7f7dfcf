console.log(btoa('hello'), btoa(''), btoa('\xff\xfe'), btoa(12), atob('aGVsbG8='), atob(' aGVs bG8 '), atob('aGk'), atob(''));
for (const bad of ['€', '\u0100']) {
  try {
    btoa(bad);
  } catch (e) {
    console.log(e.name, e.message, e instanceof Error);
  }
}
for (const bad of ['a', 'aGk==x', 'aGk===', '****', 'aG=k', 'aGVsbG8==']) {
  try {
    console.log(JSON.stringify(atob(bad)));
  } catch (e) {
    console.log(JSON.stringify(bad), e.name, e.message);
  }
}
try {
  atob();
} catch (e) {
  console.log(e.name, e.code, e.message);
}
const { atob: a2, btoa: b2 } = await import('node:buffer');
console.log(a2 === atob, b2 === btoa, typeof TextEncoder, typeof TextDecoder);
