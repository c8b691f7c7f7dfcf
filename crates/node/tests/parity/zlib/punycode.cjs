// node:punycode (what whatwg-url and tr46 require).
const punycode = require('punycode');
console.log(punycode.version, punycode.toASCII('mañana.com'), punycode.toUnicode('xn--maana-pta.com'));
console.log(punycode.encode('ü'), punycode.decode('tda'), punycode.ucs2.decode('𝌆'), punycode.ucs2.encode([0x1D306]));
console.log(punycode.toASCII('例え.テスト'), punycode.toUnicode('xn--r8jz45g.xn--zckzah'), punycode.toASCII('user@bücher.de'));
try { punycode.decode('\u0081-'); } catch (e) { console.log(e.name, e.message); }
