// JSON.parse of arrays and objects a million levels deep ends in a RangeError (node parses
// them; the engine stops at a documented depth), never a native stack overflow.
// exit: 0
// stdout: RangeError
for (const [open, close] of [['[', ']'], ['{"a":', '}']]) {
  const text = open.repeat(1e6) + (open === '[' ? '' : '1') + close.repeat(1e6);
  try { JSON.parse(text); console.log('parsed'); } catch (e) { console.log(e.name); }
  try { JSON.parse(text, (k, v) => v); console.log('parsed'); } catch (e) { console.log(e.name); }
}
