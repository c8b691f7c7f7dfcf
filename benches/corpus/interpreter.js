// A small interpreter: a tokenizer and recursive-descent parser for a tiny imperative language
// (variables, arithmetic, comparisons, while, if, print), a tree-walking evaluator over the
// AST, and a compiler from the same AST to a stack bytecode run by a switch-dispatch VM.
var PROGRAM = [
  "n = 0; total = 0; i = 1;",
  "while (i < LIMIT) {",
  "  x = i; steps = 0;",
  "  while (x != 1) { if (x % 2 == 0) { x = x / 2; } else { x = 3 * x + 1; } steps = steps + 1; }",
  "  total = total + steps;",
  "  if (steps > n) { n = steps; }",
  "  i = i + 1;",
  "}",
  "print(total); print(n);",
].join("\n");

function tokenize(src) {
  var tokens = [], i = 0;
  while (i < src.length) {
    var ch = src[i];
    if (ch === " " || ch === "\n" || ch === "\t") { i++; continue; }
    if (ch >= "0" && ch <= "9") {
      var j = i; while (j < src.length && src[j] >= "0" && src[j] <= "9") j++;
      tokens.push({ t: "num", v: Number(src.slice(i, j)) }); i = j; continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      var k = i; while (k < src.length && /[A-Za-z_0-9]/.test(src[k])) k++;
      tokens.push({ t: "id", v: src.slice(i, k) }); i = k; continue;
    }
    var two = src.slice(i, i + 2);
    if (two === "==" || two === "!=" || two === "<=" || two === ">=") { tokens.push({ t: "op", v: two }); i += 2; continue; }
    tokens.push({ t: "op", v: ch }); i++;
  }
  tokens.push({ t: "eof", v: "" });
  return tokens;
}

function parse(tokens) {
  var pos = 0;
  function peek() { return tokens[pos]; }
  function expect(v) { var t = tokens[pos++]; if (t.v !== v) throw new Error("expected " + v + " got " + t.v); return t; }
  function block() { expect("{"); var body = []; while (peek().v !== "}") body.push(statement()); expect("}"); return body; }
  function statement() {
    var t = peek();
    if (t.v === "while") { pos++; expect("("); var c = expr(); expect(")"); return { k: "while", c: c, body: block() }; }
    if (t.v === "if") {
      pos++; expect("("); var cond = expr(); expect(")"); var then = block(), els = [];
      if (peek().v === "else") { pos++; els = block(); }
      return { k: "if", c: cond, then: then, els: els };
    }
    if (t.v === "print") { pos++; expect("("); var e = expr(); expect(")"); expect(";"); return { k: "print", e: e }; }
    var name = tokens[pos++].v; expect("="); var value = expr(); expect(";");
    return { k: "set", name: name, e: value };
  }
  var prec = { "==": 1, "!=": 1, "<": 2, ">": 2, "<=": 2, ">=": 2, "+": 3, "-": 3, "*": 4, "/": 4, "%": 4 };
  function expr(min) {
    min = min || 0;
    var left = primary();
    while (true) {
      var op = peek().v, p = prec[op];
      if (peek().t !== "op" || p === undefined || p <= min) return left;
      pos++;
      left = { k: "bin", op: op, l: left, r: expr(p) };
    }
  }
  function primary() {
    var t = tokens[pos++];
    if (t.t === "num") return { k: "num", v: t.v };
    if (t.t === "id") return { k: "var", name: t.v };
    if (t.v === "(") { var e = expr(); expect(")"); return e; }
    throw new Error("unexpected " + t.v);
  }
  var prog = [];
  while (peek().t !== "eof") prog.push(statement());
  return prog;
}

function binop(op, a, b) {
  switch (op) {
    case "+": return a + b; case "-": return a - b; case "*": return a * b;
    case "/": return Math.floor(a / b); case "%": return a % b;
    case "<": return a < b ? 1 : 0; case ">": return a > b ? 1 : 0;
    case "<=": return a <= b ? 1 : 0; case ">=": return a >= b ? 1 : 0;
    case "==": return a === b ? 1 : 0; case "!=": return a !== b ? 1 : 0;
  }
  throw new Error("bad op " + op);
}

function evaluate(prog, env, out) {
  function ev(e) {
    switch (e.k) {
      case "num": return e.v;
      case "var": return env[e.name];
      case "bin": return binop(e.op, ev(e.l), ev(e.r));
    }
  }
  function run(stmts) {
    for (var i = 0; i < stmts.length; i++) {
      var s = stmts[i];
      switch (s.k) {
        case "set": env[s.name] = ev(s.e); break;
        case "print": out.push(ev(s.e)); break;
        case "while": while (ev(s.c)) run(s.body); break;
        case "if": if (ev(s.c)) run(s.then); else run(s.els); break;
      }
    }
  }
  run(prog);
}

var OPS = { "+": 3, "-": 4, "*": 5, "/": 6, "%": 7, "<": 8, ">": 9, "<=": 10, ">=": 11, "==": 12, "!=": 13 };
function compile(prog) {
  var code = [], slots = {}, nslots = 0;
  function slot(name) { if (!(name in slots)) slots[name] = nslots++; return slots[name]; }
  function ex(e) {
    if (e.k === "num") code.push(0, e.v);
    else if (e.k === "var") code.push(1, slot(e.name));
    else { ex(e.l); ex(e.r); code.push(OPS[e.op]); }
  }
  function st(stmts) {
    for (var i = 0; i < stmts.length; i++) {
      var s = stmts[i];
      if (s.k === "set") { ex(s.e); code.push(2, slot(s.name)); }
      else if (s.k === "print") { ex(s.e); code.push(14); }
      else if (s.k === "while") {
        var top = code.length; ex(s.c); code.push(15, 0); var patch = code.length - 1;
        st(s.body); code.push(16, top); code[patch] = code.length;
      } else {
        ex(s.c); code.push(15, 0); var p1 = code.length - 1; st(s.then);
        code.push(16, 0); var p2 = code.length - 1; code[p1] = code.length; st(s.els); code[p2] = code.length;
      }
    }
  }
  st(prog);
  code.push(17);
  return { code: code, slots: slots, nslots: nslots };
}

function vm(compiled, limit, out) {
  var code = compiled.code, vars = new Array(compiled.nslots).fill(0), stack = [], sp = 0, pc = 0;
  vars[compiled.slots.LIMIT] = limit;
  for (;;) {
    var op = code[pc++], a, b;
    switch (op) {
      case 0: stack[sp++] = code[pc++]; break;
      case 1: stack[sp++] = vars[code[pc++]]; break;
      case 2: vars[code[pc++]] = stack[--sp]; break;
      case 3: b = stack[--sp]; stack[sp - 1] += b; break;
      case 4: b = stack[--sp]; stack[sp - 1] -= b; break;
      case 5: b = stack[--sp]; stack[sp - 1] *= b; break;
      case 6: b = stack[--sp]; stack[sp - 1] = Math.floor(stack[sp - 1] / b); break;
      case 7: b = stack[--sp]; stack[sp - 1] %= b; break;
      case 8: b = stack[--sp]; a = stack[sp - 1]; stack[sp - 1] = a < b ? 1 : 0; break;
      case 9: b = stack[--sp]; a = stack[sp - 1]; stack[sp - 1] = a > b ? 1 : 0; break;
      case 10: b = stack[--sp]; a = stack[sp - 1]; stack[sp - 1] = a <= b ? 1 : 0; break;
      case 11: b = stack[--sp]; a = stack[sp - 1]; stack[sp - 1] = a >= b ? 1 : 0; break;
      case 12: b = stack[--sp]; a = stack[sp - 1]; stack[sp - 1] = a === b ? 1 : 0; break;
      case 13: b = stack[--sp]; a = stack[sp - 1]; stack[sp - 1] = a !== b ? 1 : 0; break;
      case 14: out.push(stack[--sp]); break;
      case 15: if (stack[--sp]) pc++; else pc = code[pc]; break;
      case 16: pc = code[pc]; break;
      case 17: return;
    }
  }
}

var ast = parse(tokenize(PROGRAM));
var out1 = [];
evaluate(ast, { LIMIT: 2000 }, out1);
console.log("tree-walker: " + out1.join(" "));
var out2 = [];
vm(compile(ast), 8000, out2);
console.log("bytecode vm: " + out2.join(" "));
