// Uint8Array base64 and hex.
const log = (...a) => console.log(a.map(String).join(" "));
const err = (f) => { try { const r = f(); return "ok " + r; } catch (e) { return e.constructor.name; } };
const bytes = (u) => Array.from(u).join(",");

const hello = Uint8Array.from("hello world!?", (c) => c.charCodeAt(0));
log(hello.toBase64(), hello.toBase64({ alphabet: "base64url" }), hello.subarray(0, 5).toBase64({ omitPadding: true }));
log(new Uint8Array([0xfb, 0xff, 0xfe]).toBase64(), new Uint8Array([0xfb, 0xff, 0xfe]).toBase64({ alphabet: "base64url" }), new Uint8Array(0).toBase64());
log(bytes(Uint8Array.fromBase64("aGVsbG8=")), bytes(Uint8Array.fromBase64(" aGVs\nbG8 ")), bytes(Uint8Array.fromBase64("aGVsbG8")));
log(bytes(Uint8Array.fromBase64("-_-_", { alphabet: "base64url" })), err(() => Uint8Array.fromBase64("-_-_")), err(() => Uint8Array.fromBase64("+/+/", { alphabet: "base64url" })));
log(err(() => Uint8Array.fromBase64("aGVsbG8", { lastChunkHandling: "strict" })), bytes(Uint8Array.fromBase64("aGVsbG8", { lastChunkHandling: "stop-before-partial" })));
log(err(() => Uint8Array.fromBase64("aGVsbG9=", { lastChunkHandling: "strict" })), bytes(Uint8Array.fromBase64("aGVsbG9=")));
log(err(() => Uint8Array.fromBase64("a")), err(() => Uint8Array.fromBase64("aG=")), err(() => Uint8Array.fromBase64("aGVsbG8=x")), err(() => Uint8Array.fromBase64("aGV*")));
log(err(() => Uint8Array.fromBase64(5)), err(() => Uint8Array.fromBase64("", 5)), err(() => Uint8Array.fromBase64("", { alphabet: "hex" })), err(() => Uint8Array.fromBase64("", { lastChunkHandling: "lax" })));
log(new Uint8Array([0, 15, 16, 255]).toHex(), bytes(Uint8Array.fromHex("cafeBABE")), err(() => Uint8Array.fromHex("abc")), err(() => Uint8Array.fromHex("zz")), err(() => Uint8Array.fromHex(1)));
const target = new Uint8Array(4);
log(JSON.stringify(target.setFromBase64("aGVsbG8=")), bytes(target));
const t2 = new Uint8Array(8);
log(JSON.stringify(t2.setFromBase64("aGVs bG8=")), bytes(t2));
const t3 = new Uint8Array(3);
log(JSON.stringify(t3.setFromHex("0102030405")), bytes(t3));
const t4 = new Uint8Array(4);
log(err(() => t4.setFromHex("01zz")), bytes(t4));
const t5 = new Uint8Array(6);
log(err(() => t5.setFromBase64("aGVsbG8=!")), bytes(t5));
log(err(() => Uint8Array.prototype.toHex.call(new Int8Array(1))), err(() => Uint8Array.prototype.toBase64.call([])), err(() => new Uint8Array(1).toBase64(1)));
log(Uint8Array.fromBase64.length, Uint8Array.prototype.setFromBase64.length, Uint8Array.prototype.toBase64.length, Int8Array.fromBase64, Int8Array.prototype.toHex);
