// toLocaleUpperCase / toLocaleLowerCase with locales: the languages with case mappings of their own
// (tr, az, lt, el), the root mapping for the rest (hy stays as ICU4C maps it), lone surrogates kept.
console.log("I".toLocaleLowerCase("tr"), "i".toLocaleUpperCase("az-Latn-AZ"), "ΆΛΦΑ".toLocaleLowerCase("el"), "άλφα".toLocaleUpperCase("el"));
console.log("\u00cc".toLocaleLowerCase("lt").length, "i\u0307".toLocaleUpperCase("lt"), "և".toLocaleUpperCase("hy"), "ΌΣΟΣ".toLocaleLowerCase());
console.log("a\ud800I".toLocaleLowerCase("tr").length, ["TR", "x"].length, "I".toLocaleLowerCase(["tr", "en"]), "I".toLocaleLowerCase([]));
try { "a".toLocaleLowerCase("x-"); } catch (e) { console.log(e.constructor.name); }
try { "a".toLocaleUpperCase(5); } catch (e) { console.log(e.constructor.name); }
