// Zero-width joiners in a host: kept and allowed only after a virama (UTS #46 CheckJoiners);
// the ignored zero-width characters and soft hyphen vanish.
const url = require('url');
const hosts = ['\u200d.example', 'a\u200db.example', '\u0915\u094d\u200d.example', 'a\u200cb.com',
  '\u0915\u094d\u200cx.com', '\u200b.com', 'a\u00adb.com', '\u2060x.com', '\ufeffx.com', 'b\u00fccher.de'];
for (const h of hosts) {
  let parsed;
  try {
    parsed = new URL(`http://${h}/`).host;
  } catch (e) {
    parsed = `throws ${e.code}`;
  }
  console.log(JSON.stringify(h), parsed, JSON.stringify(url.domainToASCII(h)));
}
