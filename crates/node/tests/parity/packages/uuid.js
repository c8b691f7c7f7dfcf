// uuid: name-based UUIDs (deterministic: SHA-1 and MD5 via node:crypto), parsing,
// validation; random v4 only by shape.
const { v1, v3, v4, v5, validate, version, parse, stringify, NIL } = require('uuid');
console.log(v5('hello', v5.URL), v5('amber', v5.DNS), v3('hello', v3.URL));
const r = v4();
console.log(validate(r), version(r), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(r));
console.log(validate('not-a-uuid'), validate(NIL), version('6ba7b810-9dad-11d1-80b4-00c04fd430c8'));
const bytes = parse('6ba7b810-9dad-11d1-80b4-00c04fd430c8');
console.log(Array.from(bytes).join(','), stringify(bytes));
console.log(v1({ node: [1, 2, 3, 4, 5, 6], clockseq: 0x1234, msecs: Date.UTC(2020, 0, 1), nsecs: 0 }));
console.log(v4({ random: Array.from({ length: 16 }, (_, i) => i * 7) }));
