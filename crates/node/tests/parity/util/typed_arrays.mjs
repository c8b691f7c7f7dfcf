// util.inspect of typed arrays: length prefix, elements, extra keys, subclasses, depth.
console.log(new Uint8Array(2), new Uint8Array(0), new Float64Array([1.5, -0, NaN]), new BigInt64Array([1n, -2n]));
console.log(new Uint8Array(30), new Int16Array(200));
const u = new Uint8Array(3); u.extra = 'x'; console.log(u, [new Uint8Array([1])], { a: new Uint16Array([7]) });
console.log(Buffer.from('ab'), new Uint8Array(new ArrayBuffer(8), 2, 3));
class My extends Uint8Array {} console.log(new My(2));
import util from "node:util"; console.log(util.inspect(new Uint8Array(5), { depth: 0 }), [[new Uint8Array(1)]], { x: { y: { z: new Uint8Array(1) } } });
