//! The structure-aware generator: an `arbitrary`-derived little AST (statements and
//! expressions over a few variables, functions, bounded loops, try/catch, objects, arrays,
//! classes, generators, async/await, string operations) rendered to JS that always parses, so
//! the fuzzer spends its time in the compiler and interpreter rather than the parser.
//!
//! Rendering, not the AST, keeps the program valid: `return` only in functions, `break` and
//! `continue` only in loops, `await` only in async code, `yield` only in generators, every
//! loop bounded by a counter. Anything out of place renders as a harmless expression.

use arbitrary::{Arbitrary, Unstructured};
use std::fmt::Write;

/// What the program may use besides plain JS.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// A bare VM: no host bridge.
    Plain,
    /// A durable runtime: `amber.call`, `amber.input`, `amber.sleep`, `amber.step`, timers.
    Durable,
}

/// A generated program.
#[derive(Arbitrary, Debug)]
pub struct Program {
    pub funcs: Vec<Func>,
    pub classes: Vec<Class>,
    pub body: Vec<Stmt>,
    pub main_async: bool,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum FuncKind {
    Plain,
    Generator,
    Async,
    AsyncGenerator,
}

#[derive(Arbitrary, Debug)]
pub struct Func {
    pub kind: FuncKind,
    pub body: Vec<Stmt>,
    pub ret: Expr,
}

#[derive(Arbitrary, Debug)]
pub struct Class {
    pub extends_previous: bool,
    pub field: Expr,
    pub static_field: Expr,
    pub ctor: Vec<Stmt>,
    pub method: Vec<Stmt>,
    pub method_ret: Expr,
    pub gen_yield: Expr,
    pub async_ret: Expr,
}

#[derive(Arbitrary, Debug)]
pub enum Stmt {
    Expr(Expr),
    Assign(u8, AssignOp, Expr),
    Log(Vec<Expr>),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    For(u8, Vec<Stmt>),
    While(u8, Expr, Vec<Stmt>),
    DoWhile(u8, Vec<Stmt>),
    ForOf(Expr, Vec<Stmt>),
    ForIn(Expr, Vec<Stmt>),
    Let(u8, bool, Expr, Vec<Stmt>),
    Try(Vec<Stmt>, Vec<Stmt>, Option<Vec<Stmt>>),
    Throw(Expr),
    Return(Option<Expr>),
    Break,
    Continue,
    Switch(Expr, Vec<(Expr, Vec<Stmt>)>, Option<Vec<Stmt>>),
    Yield(Expr),
    Await(Expr),
    Destructure(u8, u8, Expr),
    Delete(Expr, u8),
    Timer(u8, Vec<Stmt>),
    Microtask(Expr, Vec<Stmt>),
    HostCall(u8, u8, Expr),
    HostInput(u8, u8),
    HostSleep(u8),
    HostStep(u8, u8, Expr),
    Freeze(u8),
    DefineProperty(u8, u8, Expr),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
    Mul,
    Or,
    Nullish,
    Shl,
}

#[derive(Arbitrary, Debug)]
pub enum Expr {
    Int(i8),
    Num(u8),
    Str(u8),
    Var(u8),
    Local(u8),
    Lit(u8),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Update(u8, bool, bool),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Array(Vec<Elem>),
    Object(Vec<(u8, Expr)>),
    ObjectComputed(Box<Expr>, Box<Expr>, Option<Box<Expr>>),
    Member(Box<Expr>, u8),
    OptMember(Box<Expr>, u8),
    Index(Box<Expr>, Box<Expr>),
    Call(u8, Vec<Expr>),
    CallSpread(u8, Box<Expr>),
    Method(Box<Expr>, u8, Vec<Expr>),
    Arrow(Box<Expr>),
    Closure(Vec<Stmt>, Box<Expr>),
    New(u8, Vec<Expr>),
    NewBuiltin(u8, Box<Expr>),
    ClassMember(Box<Expr>, u8, Box<Expr>),
    Template(Vec<(u8, Expr)>),
    Await(Box<Expr>),
    Yield(Box<Expr>, bool),
    Collect(u8, Vec<Expr>),
    Json(Box<Expr>),
    Assign(u8, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    BigInt(i16),
    This,
    StaticCall(u8, Box<Expr>),
}

#[derive(Arbitrary, Debug)]
pub enum Elem {
    Item(Expr),
    Spread(Expr),
    Hole,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Exp,
    Eq,
    StrictEq,
    Ne,
    Lt,
    Le,
    Gt,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    UShr,
    And,
    Or,
    Nullish,
    In,
    InstanceOf,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    TypeOf,
    Void,
}

/// Global variables every program declares.
const VARS: &[&str] = &["v0", "v1", "v2", "v3", "v4", "v5"];
const VAR_INIT: &str =
    "var v0 = 0, v1 = \"ab\", v2 = [1, 2, 3], v3 = { a: 1, b: \"x\", c: [4] }, v4 = null, v5 = undefined;\n";
const NUMS: &[&str] = &[
    "0",
    "-0",
    "NaN",
    "Infinity",
    "-Infinity",
    "1.5",
    "2147483647",
    "2147483648",
    "-2147483649",
    "9007199254740993",
    "1e21",
    "5e-324",
    "0.1",
    "255",
    "4294967295",
    "65536",
];
const STRS: &[&str] = &[
    "\"\"",
    "\"a\"",
    "\"abc\"",
    "\"h\\u00e9llo\"",
    "\"\\u{1F600}x\"",
    "\"\\uD800\"",
    "\"0\"",
    "\"1e3\"",
    "\"true\"",
    "\"constructor\"",
    "\"__proto__\"",
    "\"length\"",
    "\" x y \"",
    "\"a,b,,c\"",
    "\"\\n\\t\"",
    "\"-12.50\"",
];
const LITS: &[&str] = &[
    "true",
    "false",
    "null",
    "undefined",
    "/a+(b)?/g",
    "/(\\d+)-(?<n>\\d+)/",
    "/[^]*?x/su",
    "/\\p{L}+/gu",
    "Symbol.iterator",
    "Symbol(\"s\")",
    "Math",
    "JSON",
    "globalThis",
    "Object.prototype",
    "Array.prototype",
    "new Map([[1, 2], [\"k\", v3]])",
    "new Set([1, \"a\", 1])",
    "Promise.resolve(7)",
    "Promise.reject(new Error(\"no\"))",
    "new Uint8Array([1, 2, 300])",
    "new Date(0)",
    "new Proxy({}, { get(t, k) { return k; } })",
    "Object.create(null)",
    r#"[..."abc"]"#,
    "arguments_like()",
    "function () { return this; }",
    "class {}",
    "new WeakMap()",
    "new ArrayBuffer(8)",
    "Array.from({ length: 3 }, (_, i) => i * i)",
];
const KEYS: &[&str] = &[
    "a",
    "b",
    "c",
    "length",
    "0",
    "1",
    "constructor",
    "prototype",
    "size",
    "next",
    "then",
    "value",
    "done",
    "x",
    "toString",
    "__proto__",
];
const METHODS: &[(&str, &str)] = &[
    // (name, how its arguments render: e = expressions as given, f = a callback first)
    ("slice", "e"),
    ("split", "e"),
    ("repeat", "small"),
    ("padStart", "small"),
    ("indexOf", "e"),
    ("replace", "e"),
    ("replaceAll", "e"),
    ("at", "e"),
    ("charCodeAt", "e"),
    ("codePointAt", "e"),
    ("toUpperCase", "e"),
    ("trim", "e"),
    ("normalize", "e"),
    ("localeCompare", "e"),
    ("concat", "e"),
    ("includes", "e"),
    ("startsWith", "e"),
    ("match", "e"),
    ("matchAll", "e"),
    ("search", "e"),
    ("push", "e"),
    ("pop", "e"),
    ("shift", "e"),
    ("unshift", "e"),
    ("map", "f"),
    ("filter", "f"),
    ("reduce", "f"),
    ("forEach", "f"),
    ("some", "f"),
    ("find", "f"),
    ("findLastIndex", "f"),
    ("flatMap", "f"),
    ("sort", "f"),
    ("toSorted", "e"),
    ("join", "e"),
    ("reverse", "e"),
    ("splice", "e"),
    ("flat", "e"),
    ("fill", "e"),
    ("keys", "e"),
    ("entries", "e"),
    ("with", "e"),
    ("toString", "e"),
    ("valueOf", "e"),
    ("toFixed", "small"),
    ("toPrecision", "small"),
    ("hasOwnProperty", "e"),
    ("then", "f"),
    ("catch", "f"),
    ("finally", "f"),
    ("next", "e"),
    ("return", "e"),
    ("throw", "e"),
    ("get", "e"),
    ("set", "e"),
    ("has", "e"),
    ("add", "e"),
    ("delete", "e"),
    ("call", "e"),
    ("apply", "e"),
    ("bind", "e"),
];
const STATICS: &[&str] = &[
    "Object.keys",
    "Object.entries",
    "Object.assign.bind(null, {})",
    "Object.getOwnPropertyNames",
    "Object.fromEntries",
    "Array.from",
    "Array.isArray",
    "Array.of",
    "JSON.stringify",
    "String",
    "Number",
    "Boolean",
    "BigInt",
    "Math.max",
    "Math.floor",
    "Math.random() + ",
    "Date.now() + ",
    "parseInt",
    "parseFloat",
    "Reflect.ownKeys",
    "Promise.all",
    "Promise.allSettled",
    "Promise.race",
    "structuredClone",
    "encodeURIComponent",
    "escape",
    "Symbol.for",
    "Object.getPrototypeOf",
    "Error",
    "new Error(\"e\", { cause: 1 }).stack.length + ",
    "Array.prototype.concat.call",
    "String.raw.bind(null, { raw: [\"a\", \"b\"] })",
];
const BUILTIN_CTORS: &[&str] = &[
    "Map",
    "Set",
    "Array",
    "Error",
    "RangeError",
    "Uint8Array",
    "Float64Array",
    "Date",
    "RegExp",
    "WeakSet",
    "Number",
    "String",
    "Object",
    "Promise",
];
const HOST_NAMES: &[&str] = &["search", "fetch", "ask", "store"];

/// Largest rendered program; generation stops adding statements past it.
const MAX_SOURCE: usize = 64 * 1024;
/// Deepest nesting rendered; deeper expressions become `0`, deeper statements vanish.
const MAX_DEPTH: usize = 10;
/// Most elements of any list rendered.
const MAX_LIST: usize = 8;

/// Renders the program `data` describes, or None if the bytes do not describe one.
pub fn generate(data: &[u8], mode: Mode) -> Option<String> {
    let mut u = Unstructured::new(data);
    let program = Program::arbitrary(&mut u).ok()?;
    Some(render(&program, mode))
}

/// JS for `program`.
pub fn render(program: &Program, mode: Mode) -> String {
    let mut r =
        Renderer { out: String::new(), mode, funcs: Vec::new(), classes: 0, ctx: Ctx::default(), depth: 0, fresh: 0 };
    r.out.push_str(VAR_INIT);
    r.out.push_str("function arguments_like() { return arguments; }\n");
    r.out.push_str(
        "function J(x) { try { const s = JSON.stringify(x); return s === undefined ? null : JSON.parse(s); } catch { return null; } }\n",
    );
    r.funcs = program.funcs.iter().take(MAX_LIST).map(|f| f.kind).collect();
    r.classes = program.classes.len().min(MAX_LIST);
    for (i, f) in program.funcs.iter().take(MAX_LIST).enumerate() {
        r.func(i, f);
    }
    for (i, c) in program.classes.iter().take(MAX_LIST).enumerate() {
        r.class(i, c);
    }
    let wrap = program.main_async || mode == Mode::Durable;
    if wrap {
        r.out.push_str("(async () => {\n");
        r.ctx = Ctx { function: true, is_async: true, ..Ctx::default() };
    }
    r.stmts(&program.body);
    if wrap {
        r.out.push_str(
            "})().catch((e) => console.log(\"main rejected\", typeof e === \"object\" && e !== null ? e.name : e));\n",
        );
    }
    r.out.push_str("console.log(typeof v0, typeof v1, typeof v2, typeof v3, String(v0).length);\n");
    r.out
}

/// What the code being rendered is inside of.
#[derive(Clone, Default)]
struct Ctx {
    function: bool,
    is_async: bool,
    generator: bool,
    /// A loop or switch `break` may leave.
    breakable: bool,
    /// A loop `continue` may go to.
    continuable: bool,
    /// Names in scope besides the globals: parameters, loop counters, catch parameters.
    locals: Vec<String>,
}

struct Renderer {
    out: String,
    mode: Mode,
    funcs: Vec<FuncKind>,
    classes: usize,
    ctx: Ctx,
    depth: usize,
    fresh: usize,
}

impl Renderer {
    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn full(&self) -> bool {
        self.out.len() > MAX_SOURCE
    }

    /// Renders `f` inside a fresh function context.
    fn in_fn(&mut self, ctx: Ctx, f: impl FnOnce(&mut Self)) {
        let saved = std::mem::replace(&mut self.ctx, ctx);
        f(self);
        self.ctx = saved;
    }

    fn func(&mut self, i: usize, f: &Func) {
        let (prefix, star, is_async, generator) = match f.kind {
            FuncKind::Plain => ("", "", false, false),
            FuncKind::Generator => ("", "*", false, true),
            FuncKind::Async => ("async ", "", true, false),
            FuncKind::AsyncGenerator => ("async ", "*", true, true),
        };
        let _ = writeln!(self.out, "{prefix}function{star} f{i}(a, b) {{");
        let ctx = Ctx { function: true, is_async, generator, locals: vec!["a".into(), "b".into()], ..Ctx::default() };
        self.in_fn(ctx, |r| {
            r.stmts(&f.body);
            r.out.push_str("return ");
            r.expr(&f.ret);
            r.out.push_str(";\n");
        });
        self.out.push_str("}\n");
    }

    fn class(&mut self, i: usize, c: &Class) {
        let extends = c.extends_previous && i > 0;
        let _ = write!(self.out, "class C{i}");
        if extends {
            let _ = write!(self.out, " extends C{}", i - 1);
        }
        self.out.push_str(" {\n#p = ");
        let method = Ctx { function: true, locals: vec!["a".into(), "b".into()], ..Ctx::default() };
        self.in_fn(method.clone(), |r| r.expr(&c.field));
        self.out.push_str(";\nstatic s = ");
        self.in_fn(method.clone(), |r| r.expr(&c.static_field));
        self.out.push_str(";\nconstructor(a, b) {\n");
        if extends {
            self.out.push_str("super(a, b);\n");
        }
        self.out.push_str("this.x = a;\n");
        self.in_fn(method.clone(), |r| r.stmts(&c.ctor));
        self.out.push_str("}\nm(a, b) {\n");
        self.in_fn(method.clone(), |r| {
            r.stmts(&c.method);
            r.out.push_str("return ");
            r.expr(&c.method_ret);
            r.out.push_str(";\n");
        });
        self.out.push_str("}\nget g() { return this.#p; }\nset g(v) { this.#p = v; }\n");
        self.out.push_str("static sm(a) { return [this.s, a]; }\n*gen(a, b) { yield ");
        self.in_fn(Ctx { generator: true, ..method.clone() }, |r| r.expr(&c.gen_yield));
        self.out.push_str("; yield* [a, b]; }\nasync am(a, b) { return ");
        self.in_fn(Ctx { is_async: true, ..method }, |r| r.expr(&c.async_ret));
        self.out.push_str("; }\n");
        if extends {
            self.out.push_str("m2() { return super.m(1, 2); }\n");
        }
        self.out.push_str("}\n");
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        if self.depth > MAX_DEPTH {
            return;
        }
        self.depth += 1;
        for s in stmts.iter().take(MAX_LIST) {
            if self.full() {
                break;
            }
            self.stmt(s);
        }
        self.depth -= 1;
    }

    /// `{ stmts }` with `ctx` changes applied inside.
    fn block(&mut self, stmts: &[Stmt], change: impl FnOnce(&mut Ctx)) {
        let saved = self.ctx.clone();
        change(&mut self.ctx);
        self.out.push_str("{\n");
        self.stmts(stmts);
        self.out.push_str("}\n");
        self.ctx = saved;
    }

    fn var(&self, v: u8) -> &'static str {
        VARS[v as usize % VARS.len()]
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Expr(e) => {
                // An expression statement may not start with `{`, `function`, `class` or `let [`.
                self.out.push('(');
                self.expr(e);
                self.out.push_str(");\n");
            }
            Stmt::Assign(v, op, e) => {
                let op = match op {
                    AssignOp::Set => "=",
                    AssignOp::Add => "+=",
                    AssignOp::Sub => "-=",
                    AssignOp::Mul => "*=",
                    AssignOp::Or => "||=",
                    AssignOp::Nullish => "??=",
                    AssignOp::Shl => "<<=",
                };
                let _ = write!(self.out, "{} {op} ", self.var(*v));
                self.expr(e);
                self.out.push_str(";\n");
            }
            Stmt::Log(args) => {
                self.out.push_str("console.log(");
                self.list(args);
                self.out.push_str(");\n");
            }
            Stmt::If(c, t, e) => {
                self.out.push_str("if (");
                self.expr(c);
                self.out.push_str(") ");
                self.block(t, |_| {});
                self.out.push_str("else ");
                self.block(e, |_| {});
            }
            Stmt::For(n, body) => {
                let i = self.name("i");
                let _ = write!(self.out, "for (let {i} = 0; {i} < {}; {i}++) ", n % 12);
                self.block(body, |c| {
                    c.breakable = true;
                    c.continuable = true;
                    c.locals.push(i.clone());
                });
            }
            Stmt::While(n, cond, body) => {
                let w = self.name("w");
                let _ = write!(self.out, "{{ let {w} = 0; while ({w}++ < {} && (", n % 12);
                self.expr(cond);
                self.out.push_str(")) ");
                self.block(body, |c| {
                    c.breakable = true;
                    c.continuable = true;
                    c.locals.push(w.clone());
                });
                self.out.push_str("}\n");
            }
            Stmt::DoWhile(n, body) => {
                let w = self.name("w");
                let _ = write!(self.out, "{{ let {w} = 0; do ");
                self.block(body, |c| {
                    c.breakable = true;
                    c.continuable = true;
                    c.locals.push(w.clone());
                });
                let _ = writeln!(self.out, "while (++{w} < {}); }}", n % 12);
            }
            Stmt::ForOf(it, body) => {
                let x = self.name("x");
                let _ = write!(self.out, "for (const {x} of ");
                self.expr(it);
                self.out.push_str(") ");
                self.block(body, |c| {
                    c.breakable = true;
                    c.continuable = true;
                    c.locals.push(x.clone());
                });
            }
            Stmt::ForIn(obj, body) => {
                let k = self.name("k");
                let _ = write!(self.out, "for (const {k} in ");
                self.expr(obj);
                self.out.push_str(") ");
                self.block(body, |c| {
                    c.breakable = true;
                    c.continuable = true;
                    c.locals.push(k.clone());
                });
            }
            Stmt::Let(v, constant, init, body) => {
                // Shadows a global in a block; `let v = v + 1` is a TDZ error, on purpose.
                let name = self.var(*v);
                let _ = write!(self.out, "{{ {} {name} = ", if *constant { "const" } else { "let" });
                self.expr(init);
                self.out.push_str(";\n");
                self.stmts(body);
                self.out.push_str("}\n");
            }
            Stmt::Try(body, handler, finalizer) => {
                self.out.push_str("try ");
                self.block(body, |_| {});
                let e = self.name("e");
                let _ = write!(self.out, "catch ({e}) ");
                self.block(handler, |c| c.locals.push(e.clone()));
                if let Some(f) = finalizer {
                    self.out.push_str("finally ");
                    self.block(f, |_| {});
                }
            }
            Stmt::Throw(e) => {
                self.out.push_str("throw ");
                self.expr(e);
                self.out.push_str(";\n");
            }
            Stmt::Return(e) => {
                if self.ctx.function {
                    self.out.push_str("return");
                    if let Some(e) = e {
                        self.out.push(' ');
                        self.expr(e);
                    }
                    self.out.push_str(";\n");
                }
            }
            Stmt::Break => {
                if self.ctx.breakable {
                    self.out.push_str("break;\n");
                }
            }
            Stmt::Continue => {
                if self.ctx.continuable {
                    self.out.push_str("continue;\n");
                }
            }
            Stmt::Switch(d, cases, default) => {
                self.out.push_str("switch (");
                self.expr(d);
                self.out.push_str(") {\n");
                let saved = self.ctx.clone();
                self.ctx.breakable = true;
                for (test, body) in cases.iter().take(MAX_LIST) {
                    self.out.push_str("case ");
                    self.expr(test);
                    self.out.push_str(": ");
                    self.block(body, |_| {});
                }
                if let Some(body) = default {
                    self.out.push_str("default: ");
                    self.block(body, |_| {});
                }
                self.ctx = saved;
                self.out.push_str("}\n");
            }
            Stmt::Yield(e) => {
                self.out.push_str(if self.ctx.generator { "yield (" } else { "void (" });
                self.expr(e);
                self.out.push_str(");\n");
            }
            Stmt::Await(e) => {
                self.out.push_str(if self.ctx.is_async { "await (" } else { "void (" });
                self.expr(e);
                self.out.push_str(");\n");
            }
            Stmt::Destructure(a, b, e) => {
                let (a, b) = (self.var(*a), self.var(*b));
                if a == b {
                    let _ = write!(self.out, "({{ a: {a} = 1, ...{b} }} = ");
                    self.expr(e);
                    self.out.push_str(");\n");
                } else {
                    let _ = write!(self.out, "[{a}, , ...{b}] = ");
                    self.expr(e);
                    self.out.push_str(";\n");
                }
            }
            Stmt::Delete(e, k) => {
                self.out.push_str("delete (");
                self.expr(e);
                let _ = writeln!(self.out, ")[{:?}];", KEYS[*k as usize % KEYS.len()]);
            }
            Stmt::Timer(ms, body) => {
                let kind = if ms % 3 == 0 { "setImmediate(" } else { "setTimeout(" };
                self.out.push_str(kind);
                self.out.push_str("() => ");
                let ctx = Ctx { function: true, locals: self.ctx.locals.clone(), ..Ctx::default() };
                self.in_fn(ctx, |r| r.block(body, |_| {}));
                if ms % 3 != 0 {
                    let _ = write!(self.out, ", {}", ms % 50);
                }
                self.out.push_str(");\n");
            }
            Stmt::Microtask(e, body) => {
                let x = self.name("r");
                self.out.push_str("Promise.resolve(");
                self.expr(e);
                let _ = write!(self.out, ").then(({x}) => ");
                let mut locals = self.ctx.locals.clone();
                locals.push(x);
                let ctx = Ctx { function: true, locals, ..Ctx::default() };
                self.in_fn(ctx, |r| r.block(body, |_| {}));
                self.out.push_str(");\n");
            }
            Stmt::HostCall(v, name, args) => {
                if self.mode == Mode::Durable && self.ctx.is_async {
                    let _ = write!(
                        self.out,
                        "{} = await amber.call({:?}, J(",
                        self.var(*v),
                        HOST_NAMES[*name as usize % HOST_NAMES.len()]
                    );
                    self.expr(args);
                    self.out.push_str("));\n");
                }
            }
            Stmt::HostInput(v, prompt) => {
                if self.mode == Mode::Durable && self.ctx.is_async {
                    let _ = writeln!(self.out, "{} = await amber.input(\"question {}\");", self.var(*v), prompt % 4);
                }
            }
            Stmt::HostSleep(ms) => {
                if self.mode == Mode::Durable && self.ctx.is_async {
                    let _ = writeln!(self.out, "await amber.sleep({});", ms % 100);
                }
            }
            Stmt::HostStep(v, name, e) => {
                if self.mode == Mode::Durable && self.ctx.is_async {
                    // The value is computed outside the step: a step must be pure (replay does
                    // not call it), and generated expressions have side effects.
                    let s = self.name("s");
                    let _ = write!(self.out, "{{ const {s} = J(");
                    self.expr(e);
                    let _ = writeln!(
                        self.out,
                        "); {} = await amber.step(\"step{}\", () => {s}); }}",
                        self.var(*v),
                        name % 4
                    );
                }
            }
            Stmt::Freeze(v) => {
                let _ = writeln!(self.out, "Object.freeze({});", self.var(*v));
            }
            Stmt::DefineProperty(v, k, e) => {
                let _ = write!(
                    self.out,
                    "try {{ Object.defineProperty({}, {:?}, {{ get() {{ return ",
                    self.var(*v),
                    KEYS[*k as usize % KEYS.len()]
                );
                let ctx = Ctx { function: true, locals: self.ctx.locals.clone(), ..Ctx::default() };
                self.in_fn(ctx, |r| r.expr(e));
                self.out.push_str("; }, configurable: true }); } catch {}\n");
            }
        }
    }

    fn list(&mut self, items: &[Expr]) {
        for (i, e) in items.iter().take(MAX_LIST).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(e);
        }
    }

    fn expr(&mut self, e: &Expr) {
        if self.depth > MAX_DEPTH || self.full() {
            self.out.push('0');
            return;
        }
        self.depth += 1;
        self.expr_inner(e);
        self.depth -= 1;
    }

    fn paren(&mut self, e: &Expr) {
        self.out.push('(');
        self.expr(e);
        self.out.push(')');
    }

    fn expr_inner(&mut self, e: &Expr) {
        match e {
            Expr::Int(n) => {
                let _ = write!(self.out, "({n})");
            }
            Expr::Num(i) => {
                let _ = write!(self.out, "({})", NUMS[*i as usize % NUMS.len()]);
            }
            Expr::Str(i) => self.out.push_str(STRS[*i as usize % STRS.len()]),
            Expr::Var(v) => self.out.push_str(self.var(*v)),
            Expr::Local(i) => {
                if self.ctx.locals.is_empty() {
                    self.out.push_str("v0");
                } else {
                    let name = self.ctx.locals[*i as usize % self.ctx.locals.len()].clone();
                    self.out.push_str(&name);
                }
            }
            Expr::Lit(i) => {
                let _ = write!(self.out, "({})", LITS[*i as usize % LITS.len()]);
            }
            Expr::Bin(op, a, b) => {
                let op = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    BinOp::Mul => "*",
                    BinOp::Div => "/",
                    BinOp::Rem => "%",
                    BinOp::Exp => "**",
                    BinOp::Eq => "==",
                    BinOp::StrictEq => "===",
                    BinOp::Ne => "!=",
                    BinOp::Lt => "<",
                    BinOp::Le => "<=",
                    BinOp::Gt => ">",
                    BinOp::BitAnd => "&",
                    BinOp::BitOr => "|",
                    BinOp::BitXor => "^",
                    BinOp::Shl => "<<",
                    BinOp::Shr => ">>",
                    BinOp::UShr => ">>>",
                    BinOp::And => "&&",
                    BinOp::Or => "||",
                    BinOp::Nullish => "??",
                    BinOp::In => "in",
                    BinOp::InstanceOf => "instanceof",
                };
                self.out.push('(');
                self.paren(a);
                let _ = write!(self.out, " {op} ");
                self.paren(b);
                self.out.push(')');
            }
            Expr::Unary(op, a) => {
                let op = match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    UnOp::Not => "!",
                    UnOp::BitNot => "~",
                    UnOp::TypeOf => "typeof ",
                    UnOp::Void => "void ",
                };
                let _ = write!(self.out, "({op}");
                self.paren(a);
                self.out.push(')');
            }
            Expr::Update(v, pre, inc) => {
                let op = if *inc { "++" } else { "--" };
                let v = self.var(*v);
                if *pre {
                    let _ = write!(self.out, "({op}{v})");
                } else {
                    let _ = write!(self.out, "({v}{op})");
                }
            }
            Expr::Cond(c, a, b) => {
                self.out.push('(');
                self.paren(c);
                self.out.push_str(" ? ");
                self.paren(a);
                self.out.push_str(" : ");
                self.paren(b);
                self.out.push(')');
            }
            Expr::Array(elems) => {
                self.out.push('[');
                for el in elems.iter().take(MAX_LIST) {
                    match el {
                        Elem::Item(e) => self.expr(e),
                        Elem::Spread(e) => {
                            self.out.push_str("...");
                            self.paren(e);
                        }
                        Elem::Hole => {}
                    }
                    self.out.push_str(", ");
                }
                self.out.push(']');
            }
            Expr::Object(props) => {
                self.out.push_str("({");
                let mut proto_set = false;
                for (k, v) in props.iter().take(MAX_LIST) {
                    let key = KEYS[*k as usize % KEYS.len()];
                    if key == "__proto__" && std::mem::replace(&mut proto_set, true) {
                        // A second `__proto__: v` is an early error; computed, it is a property.
                        let _ = write!(self.out, "[{key:?}]: ");
                    } else {
                        let _ = write!(self.out, "{key:?}: ");
                    }
                    self.expr(v);
                    self.out.push_str(", ");
                }
                self.out.push_str("})");
            }
            Expr::ObjectComputed(k, v, spread) => {
                self.out.push_str("({ [");
                self.expr(k);
                self.out.push_str("]: ");
                self.expr(v);
                if let Some(s) = spread {
                    self.out.push_str(", ...");
                    self.paren(s);
                }
                self.out.push_str(", get g() { return this; }, m(a) { return a; } })");
            }
            Expr::Member(o, k) => {
                self.paren(o);
                let _ = write!(self.out, "[{:?}]", KEYS[*k as usize % KEYS.len()]);
            }
            Expr::OptMember(o, k) => {
                self.paren(o);
                let _ = write!(self.out, "?.[{:?}]", KEYS[*k as usize % KEYS.len()]);
            }
            Expr::Index(o, i) => {
                self.paren(o);
                self.out.push('[');
                self.expr(i);
                self.out.push(']');
            }
            Expr::Call(f, args) => {
                if self.funcs.is_empty() {
                    self.out.push_str("arguments_like(");
                } else {
                    let _ = write!(self.out, "f{}(", *f as usize % self.funcs.len());
                }
                self.list(args);
                self.out.push(')');
            }
            Expr::CallSpread(f, arg) => {
                if self.funcs.is_empty() {
                    self.out.push_str("Math.max(...");
                } else {
                    let _ = write!(self.out, "f{}(...", *f as usize % self.funcs.len());
                }
                self.paren(arg);
                self.out.push(')');
            }
            Expr::Method(recv, m, args) => {
                let (name, how) = METHODS[*m as usize % METHODS.len()];
                self.paren(recv);
                let _ = write!(self.out, ".{name}(");
                match how {
                    "f" => {
                        self.out.push_str("(a, b) => ");
                        let mut locals = self.ctx.locals.clone();
                        locals.extend(["a".to_string(), "b".to_string()]);
                        let ctx = Ctx { function: true, locals, ..Ctx::default() };
                        let first = args.first();
                        self.in_fn(ctx, |r| match first {
                            Some(e) => r.paren(e),
                            None => r.out.push('a'),
                        });
                        if args.len() > 1 {
                            self.out.push_str(", ");
                            self.list(&args[1..]);
                        }
                    }
                    "small" => {
                        self.out.push('(');
                        match args.first() {
                            Some(e) => self.paren(e),
                            None => self.out.push('3'),
                        }
                        self.out.push_str(") % 20");
                    }
                    _ => self.list(args),
                }
                self.out.push(')');
            }
            Expr::Arrow(body) => {
                self.out.push_str("((a, b) => ");
                let mut locals = self.ctx.locals.clone();
                locals.extend(["a".to_string(), "b".to_string()]);
                let ctx = Ctx { function: true, locals, ..Ctx::default() };
                self.in_fn(ctx, |r| r.paren(body));
                self.out.push(')');
            }
            Expr::Closure(body, ret) => {
                self.out.push_str("(function (a, b) {\n");
                let mut locals = self.ctx.locals.clone();
                locals.extend(["a".to_string(), "b".to_string()]);
                let ctx = Ctx { function: true, locals, ..Ctx::default() };
                self.in_fn(ctx, |r| {
                    r.stmts(body);
                    r.out.push_str("return ");
                    r.expr(ret);
                    r.out.push_str(";\n");
                });
                self.out.push_str("})");
            }
            Expr::New(c, args) => {
                if self.classes == 0 {
                    self.out.push_str("new Array(");
                    self.out.push('3');
                } else {
                    let _ = write!(self.out, "new C{}(", *c as usize % self.classes);
                    self.list(args);
                }
                self.out.push(')');
            }
            Expr::NewBuiltin(c, arg) => {
                let _ = write!(self.out, "new {}(", BUILTIN_CTORS[*c as usize % BUILTIN_CTORS.len()]);
                self.expr(arg);
                self.out.push(')');
            }
            Expr::ClassMember(recv, which, arg) => {
                self.paren(recv);
                match which % 6 {
                    0 => self.out.push_str(".m(1, "),
                    1 => self.out.push_str(".gen("),
                    2 => self.out.push_str(".am("),
                    3 => self.out.push_str(".constructor.sm("),
                    4 => self.out.push_str(".m2?.("),
                    _ => {
                        self.out.push_str(".g = (");
                        self.expr(arg);
                        self.out.push(')');
                        return;
                    }
                }
                self.expr(arg);
                self.out.push(')');
            }
            Expr::Template(parts) => {
                self.out.push('`');
                for (s, e) in parts.iter().take(MAX_LIST) {
                    let _ = write!(self.out, "t{s}${{");
                    self.expr(e);
                    self.out.push('}');
                }
                self.out.push('`');
            }
            Expr::Await(e) => {
                if self.ctx.is_async {
                    self.out.push_str("(await ");
                    self.paren(e);
                    self.out.push(')');
                } else {
                    self.paren(e);
                }
            }
            Expr::Yield(e, delegate) => {
                if self.ctx.generator {
                    self.out.push_str(if *delegate { "(yield* " } else { "(yield " });
                    self.paren(e);
                    self.out.push(')');
                } else {
                    self.paren(e);
                }
            }
            Expr::Collect(f, args) => {
                if self.funcs.is_empty() {
                    self.out.push_str("[...\"xyz\"]");
                } else {
                    let f = *f as usize % self.funcs.len();
                    let _ = write!(self.out, "[...f{f}(");
                    self.list(args);
                    self.out.push_str(")]");
                }
            }
            Expr::Json(e) => {
                self.out.push_str("JSON.parse(JSON.stringify(");
                self.expr(e);
                self.out.push_str(") ?? \"null\")");
            }
            Expr::Assign(v, e) => {
                let _ = write!(self.out, "({} = ", self.var(*v));
                self.expr(e);
                self.out.push(')');
            }
            Expr::Comma(a, b) => {
                self.out.push('(');
                self.expr(a);
                self.out.push_str(", ");
                self.expr(b);
                self.out.push(')');
            }
            Expr::BigInt(n) => {
                let _ = write!(self.out, "({n}n)");
            }
            Expr::This => self.out.push_str("this"),
            Expr::StaticCall(f, arg) => {
                let name = STATICS[*f as usize % STATICS.len()];
                let _ = write!(self.out, "{name}(");
                self.expr(arg);
                self.out.push(')');
            }
        }
    }
}
