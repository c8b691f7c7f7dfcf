// Intl.Segmenter in en-US, de-DE, ja-JP and ar-EG: grapheme, word (with isWordLike) and
// sentence boundaries, containing(), and iteration.
const texts = {
  "en-US": "Hello, world! It's 3.5 o'clock. 👩‍👩‍👧 e\u0301",
  "de-DE": "Grüße aus München. Das Öl kostet 1.234,50 €! Straße?",
  "ja-JP": "今日は良い天気です。明日も晴れるでしょう！",
  "ar-EG": "مرحبا بالعالم. كيف حالك؟ ١٢٣",
};
for (const [locale, text] of Object.entries(texts)) {
  for (const granularity of ["grapheme", "word", "sentence"]) {
    const segmenter = new Intl.Segmenter(locale, { granularity });
    const segments = [...segmenter.segment(text)];
    console.log(locale, granularity, segments.map((s) => (granularity === "word" ? `${s.segment}:${s.isWordLike ? 1 : 0}` : s.segment)).join("|"));
    const at = segmenter.segment(text).containing(7);
    console.log(locale, granularity, "containing(7)", at.segment, at.index, at.input === text);
  }
  console.log(locale, JSON.stringify(new Intl.Segmenter(locale, { granularity: "word" }).resolvedOptions()));
}
const it = new Intl.Segmenter("en").segment("ab")[Symbol.iterator]();
console.log(Object.prototype.toString.call(it), JSON.stringify(it.next()), JSON.stringify(it.next()), JSON.stringify(it.next()));
console.log(new Intl.Segmenter("en").segment("abc").containing(-1), new Intl.Segmenter("en").segment("abc").containing(3));
for (const bad of [() => Intl.Segmenter(), () => new Intl.Segmenter("en", { granularity: "line" }), () => new Intl.Segmenter("en", "x")]) {
  try {
    bad();
  } catch (e) {
    console.log(e.constructor.name);
  }
}
