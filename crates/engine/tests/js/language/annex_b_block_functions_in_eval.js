// Annex B.3.3 in eval code: a block-level function is also assigned to a var of its name,
// unless a `var` there would clash with a lexical declaration between the block and the eval's
// var scope (then no var binding exists at all, before or after the block runs).
globalThis.results = [];
(0, eval)("{ function hoisted() { return 'h'; } }");
results.push(typeof hoisted);

(0, eval)(
  "try { blockedFor; results.push('bound'); } catch (e) { results.push(e.name); }" +
    "for (let blockedFor; ; ) { { function blockedFor() {} } break; }" +
    "results.push(typeof blockedFor);"
);
(0, eval)("let blockedIf = 123; if (true) function blockedIf() {} results.push(blockedIf);");
(0, eval)(
  "try { throw {}; } catch ({ blockedCatch }) { { function blockedCatch() {} } }" +
    "results.push(typeof blockedCatch);"
);
// A simple catch parameter does not block it (B.3.4).
(0, eval)("try { throw 1; } catch (simpleCatch) { { function simpleCatch() {} } } results.push(typeof simpleCatch);");

function inFunction() {
  eval("{ let shadow; { function shadow() {} } } results.push(typeof shadow);");
  eval("{ function fine() {} } results.push(typeof fine);");
}
inFunction();
console.log(results.join(' '));
