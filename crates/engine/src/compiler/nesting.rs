//! How deeply a source text can make the front end recurse, measured before it sees the text.
//!
//! oxc's parser is recursive descent with no depth limit, and `oxc_semantic`'s visitor and
//! Amber's compiler recurse along the tree it builds. A text nested a million levels deep
//! (`"[".repeat(1e6)`, `"!".repeat(1e6)`, a long `else if` chain) would overflow any native
//! stack, and a stack overflow aborts the process: it cannot be caught. So before parsing, one
//! linear pass over the text computes a *nesting gauge*: an upper estimate of the depth of
//! constructs open at any point. A text whose gauge exceeds [`MAX_GAUGE`] is refused with a
//! SyntaxError; any other text is parsed on a stack sized for its gauge
//! ([`stack_for_gauge`]), whatever thread the VM runs on.
//!
//! The gauge counts, at each point, the bracket levels open around it (`(`, `[`, `{`, `${`,
//! and groups inside regular-expression literals) and, within each level, the constructs still
//! open in the current expression (unary, binary and assignment operators, `=>`, `?`, member
//! accesses, calls) and in the current statement (`if`, `else`, loops, `with`, labels). A `,`
//! ends the expression, a `;` (or a line break where automatic semicolon insertion applies)
//! ends the statement — except that an `else` after it continues the `if` chain. Everything
//! that really nests is counted, so the gauge can only over-estimate: a left-associative chain
//! `a + b * c` counts every operator, though the tree is shallower. Where the lexical grammar
//! is ambiguous (`/` as division or a regular expression) the usual previous-token rule
//! decides, with the paren context (`if (…) /re/`) and the brace context (`{}` as a block or
//! an object literal) that real lexers use.
//!
//! Architecture invariant: this is a bound, not a parser. It never rejects a text whose true
//! depth is within the compiler's own limit (`MAX_NESTING`), because the gauge limit is
//! several times that and the over-estimate is a small factor.

/// Largest nesting gauge a source may have. The compiler refuses nesting past 1,500 levels
/// anyway (`compiler::MAX_NESTING`); the gauge over-counts operator chains by a small factor,
/// so this leaves legitimate code far inside the limit while keeping the parse stack bounded.
pub const MAX_GAUGE: u32 = 10_000;

/// Native stack the front end (parser, semantic analysis, compiler) needs for a source of
/// nesting gauge `gauge`: measured at about 1.5 KiB per level for oxc's deepest constructs,
/// doubled for the semantic pass and the compiler, plus a fixed base.
pub fn stack_for_gauge(gauge: u32) -> usize {
    const PER_LEVEL: usize = 8 << 10;
    const BASE: usize = 1 << 20;
    BASE + gauge as usize * PER_LEVEL
}

/// The deepest nesting of `source` was over the limit; `offset` is where it first was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep {
    pub offset: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum LevelKind {
    Paren,
    /// The parenthesised head of `if`, `while`, `for`, `with`: a statement follows its `)`.
    HeadParen,
    Bracket,
    Block,
    Object,
    /// A template literal's `${ … }`.
    Substitution,
}

/// The previous significant token, as far as the regex-or-division question and automatic
/// semicolon insertion need to know it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Prev {
    /// Start of text, or a token after which an expression starts (operators, `(`, `,`, …).
    Operator,
    /// An identifier, literal, `this`, `]`, the end of a template: an expression just ended.
    Operand,
    /// `)` closing a call or grouping: an expression just ended.
    CloseParen,
    /// `)` closing the head of `if`/`while`/`for`/`with`: a statement starts.
    CloseHead,
    /// `}` closing a block: a statement starts.
    CloseBlock,
    /// `}` closing an object literal: an expression just ended.
    CloseObject,
    /// `++` / `--`: postfix or prefix, both end-capable.
    Update,
    /// A keyword after which an expression starts (`return`, `typeof`, `case`, …).
    KeywordExpr,
    /// `if`, `while`, `for`, `with`: a `(` head follows.
    KeywordHead,
    /// Any other keyword (`else`, `do`, `try`, `function`, …).
    Keyword,
}

impl Prev {
    /// Whether a `/` here starts a regular expression literal.
    fn regex_follows(self) -> bool {
        matches!(self, Prev::Operator | Prev::CloseHead | Prev::CloseBlock | Prev::KeywordExpr | Prev::Keyword)
    }
    /// Whether a statement may end right after this token (for automatic semicolon insertion).
    fn can_end(self) -> bool {
        matches!(self, Prev::Operand | Prev::CloseParen | Prev::CloseBlock | Prev::CloseObject | Prev::Update)
    }
    /// Whether a `{` here opens an object literal (an expression position) rather than a block.
    fn object_follows(self) -> bool {
        matches!(self, Prev::Operator | Prev::KeywordExpr)
    }
}

struct Level {
    kind: LevelKind,
    /// Depth of everything outside this level.
    base: u32,
    /// The enclosing level's chains when this one opened (restored when it closes).
    saved_expr: u32,
    saved_stmt: u32,
    saved_ternary: u32,
}

struct Gauge<'a> {
    src: &'a [u8],
    pos: usize,
    levels: Vec<Level>,
    /// Depth of everything outside the current level.
    base: u32,
    /// Constructs open in the current expression of the current level.
    expr: u32,
    /// Statements open around the current point in the current level (`if`, loops, labels).
    stmt: u32,
    /// `?` of conditionals awaiting their `:` in the current level.
    ternary: u32,
    /// The statement chain before the last `;` (an `else` right after it continues it).
    stmt_before_semicolon: Option<u32>,
    prev: Prev,
    /// The next token begins a statement (after `;`, a block's `{`, a label's `:`).
    statement_start: bool,
    /// A line break since the previous significant token.
    newline: bool,
    max: u32,
}

/// The nesting gauge of `source`, or where it first exceeds [`MAX_GAUGE`].
pub fn gauge(source: &str) -> Result<u32, TooDeep> {
    let mut g = Gauge {
        src: source.as_bytes(),
        pos: 0,
        levels: Vec::new(),
        base: 0,
        expr: 0,
        stmt: 0,
        ternary: 0,
        stmt_before_semicolon: None,
        prev: Prev::Operator,
        statement_start: true,
        newline: true,
        max: 0,
    };
    g.run()?;
    Ok(g.max)
}

const KEYWORDS_EXPR: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"void",
    b"delete",
    b"in",
    b"of",
    b"instanceof",
    b"new",
    b"case",
    b"throw",
    b"yield",
    b"await",
    b"extends",
];
const KEYWORDS_HEAD: &[&[u8]] = &[b"if", b"while", b"for", b"with"];
const KEYWORDS_OPERAND: &[&[u8]] = &[b"this", b"null", b"true", b"false", b"super", b"break", b"continue", b"debugger"];
/// Keywords that are plain statement keywords (neither operand nor expression prefix).
const KEYWORDS_OTHER: &[&[u8]] = &[
    b"else",
    b"do",
    b"try",
    b"catch",
    b"finally",
    b"function",
    b"class",
    b"var",
    b"let",
    b"const",
    b"switch",
    b"default",
    b"import",
    b"export",
    b"async",
    b"static",
    b"get",
    b"set",
];

impl Gauge<'_> {
    fn depth(&self) -> u32 {
        self.base + self.expr + self.stmt
    }

    fn note(&mut self) -> Result<(), TooDeep> {
        let d = self.depth();
        if d > self.max {
            self.max = d;
            if d > MAX_GAUGE {
                return Err(TooDeep { offset: self.pos as u32 });
            }
        }
        Ok(())
    }

    fn peek(&self, k: usize) -> u8 {
        self.src.get(self.pos + k).copied().unwrap_or(0)
    }

    fn run(&mut self) -> Result<(), TooDeep> {
        // A hashbang line is a comment.
        if self.src.starts_with(b"#!") {
            self.skip_line();
        }
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            match c {
                b'\n' | b'\r' => {
                    self.newline = true;
                    self.pos += 1;
                }
                b' ' | b'\t' | 0x0b | 0x0c => self.pos += 1,
                b'/' if self.peek(1) == b'/' => self.skip_line(),
                b'/' if self.peek(1) == b'*' => self.skip_block_comment(),
                b'/' if self.prev.regex_follows() => {
                    self.token_start(false);
                    self.regex()?;
                    self.prev = Prev::Operand;
                }
                b'\'' | b'"' => {
                    self.token_start(true);
                    self.string(c);
                    self.prev = Prev::Operand;
                }
                b'`' => {
                    self.token_start(false);
                    self.pos += 1;
                    self.template()?;
                }
                b'0'..=b'9' => {
                    self.token_start(true);
                    self.number();
                    self.prev = Prev::Operand;
                }
                b'.' if self.peek(1).is_ascii_digit() => {
                    self.token_start(true);
                    self.number();
                    self.prev = Prev::Operand;
                }
                b'(' | b'[' | b'{' => {
                    self.token_start(c == b'{');
                    self.pos += 1;
                    let kind = match c {
                        b'(' if self.prev == Prev::KeywordHead => LevelKind::HeadParen,
                        b'(' => LevelKind::Paren,
                        b'[' => LevelKind::Bracket,
                        _ if self.prev.object_follows() => LevelKind::Object,
                        _ => LevelKind::Block,
                    };
                    self.open(kind)?;
                    self.prev = Prev::Operator;
                }
                b')' | b']' | b'}' => {
                    self.pos += 1;
                    self.close(c)?;
                }
                _ if c == b'_' || c == b'$' || c == b'\\' || c == b'#' || c.is_ascii_alphabetic() || c >= 0x80 => {
                    self.word()?;
                }
                _ => self.punctuator()?,
            }
        }
        Ok(())
    }

    /// Before a token: apply automatic semicolon insertion at a line break (`starter`: the
    /// token can begin a statement but never continue an expression), and the `else` rule.
    /// Returns whether the token starts a statement.
    fn token_start(&mut self, starter: bool) -> bool {
        if self.newline && starter && self.prev.can_end() {
            self.end_statement();
        }
        self.newline = false;
        // Any token but `else` after a `;` forgets the statement chain it ended.
        self.stmt_before_semicolon = None;
        std::mem::take(&mut self.statement_start)
    }

    fn end_statement(&mut self) {
        self.statement_start = true;
        self.stmt_before_semicolon = Some(self.stmt);
        self.expr = 0;
        self.stmt = 0;
        self.ternary = 0;
    }

    fn open(&mut self, kind: LevelKind) -> Result<(), TooDeep> {
        // The opener nests in the enclosing expression (a call, an index, a group), and that
        // nesting lasts after it closes: `f()()()` is three calls deep.
        self.expr += 1;
        self.note()?;
        self.levels.push(Level {
            kind,
            base: self.base,
            saved_expr: self.expr,
            saved_stmt: self.stmt,
            saved_ternary: self.ternary,
        });
        self.base = self.depth();
        self.expr = 0;
        self.stmt = 0;
        self.ternary = 0;
        self.statement_start = kind == LevelKind::Block;
        self.note()
    }

    fn close(&mut self, c: u8) -> Result<(), TooDeep> {
        self.newline = false;
        self.stmt_before_semicolon = None;
        let Some(top) = self.levels.last() else {
            // An unmatched closer: the parser will report it; it opens nothing.
            self.prev = Prev::Operand;
            return Ok(());
        };
        let matches = match c {
            b')' => matches!(top.kind, LevelKind::Paren | LevelKind::HeadParen),
            b']' => top.kind == LevelKind::Bracket,
            _ => matches!(top.kind, LevelKind::Block | LevelKind::Object | LevelKind::Substitution),
        };
        if !matches {
            // A mismatched closer is a syntax error or a lexing guess gone wrong: ignoring it
            // can only over-estimate.
            self.prev = Prev::Operand;
            return Ok(());
        }
        let Some(level) = self.levels.pop() else { return Ok(()) };
        self.base = level.base;
        // A closed call, index or object literal stays nested in its expression (`f()()`);
        // a closed block is a finished statement: `{}{}{}` is a million siblings, not depth.
        self.expr = if level.kind == LevelKind::Block { level.saved_expr - 1 } else { level.saved_expr };
        self.stmt = level.saved_stmt;
        self.ternary = level.saved_ternary;
        self.prev = match level.kind {
            LevelKind::HeadParen => Prev::CloseHead,
            LevelKind::Paren => Prev::CloseParen,
            LevelKind::Bracket => Prev::Operand,
            LevelKind::Block => Prev::CloseBlock,
            LevelKind::Object => Prev::CloseObject,
            LevelKind::Substitution => {
                // Back inside the template literal.
                self.template()?;
                return Ok(());
            }
        };
        Ok(())
    }

    fn skip_line(&mut self) {
        while self.pos < self.src.len() && !matches!(self.src[self.pos], b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn skip_block_comment(&mut self) {
        self.pos += 2;
        while self.pos < self.src.len() {
            if self.src[self.pos] == b'*' && self.peek(1) == b'/' {
                self.pos += 2;
                return;
            }
            if matches!(self.src[self.pos], b'\n' | b'\r') {
                self.newline = true;
            }
            self.pos += 1;
        }
    }

    fn string(&mut self, quote: u8) {
        self.pos += 1;
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            self.pos += 1;
            if c == b'\\' {
                self.pos += 1;
            } else if c == quote || c == b'\n' {
                return;
            }
        }
    }

    /// The rest of a template literal after its opening backtick or a substitution's `}`.
    fn template(&mut self) -> Result<(), TooDeep> {
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            self.pos += 1;
            match c {
                b'\\' => self.pos += 1,
                b'`' => {
                    self.prev = Prev::Operand;
                    return Ok(());
                }
                b'$' if self.peek(0) == b'{' => {
                    self.pos += 1;
                    self.open(LevelKind::Substitution)?;
                    self.prev = Prev::Operator;
                    return Ok(());
                }
                _ => {}
            }
        }
        self.prev = Prev::Operand;
        Ok(())
    }

    /// A regular expression literal; its groups nest in the regex parser, so they count.
    fn regex(&mut self) -> Result<(), TooDeep> {
        self.pos += 1;
        let outer = self.depth();
        let mut groups = 0u32;
        let mut in_class = false;
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            self.pos += 1;
            match c {
                b'\\' => self.pos += 1,
                b'\n' | b'\r' => return Ok(()),
                b'[' if !in_class => in_class = true,
                b']' => in_class = false,
                b'(' if !in_class => {
                    groups += 1;
                    let d = outer + groups;
                    if d > self.max {
                        self.max = d;
                        if d > MAX_GAUGE {
                            return Err(TooDeep { offset: self.pos as u32 });
                        }
                    }
                }
                b')' if !in_class => groups = groups.saturating_sub(1),
                b'/' if !in_class => break,
                _ => {}
            }
        }
        // Flags.
        while self.pos < self.src.len() && (self.src[self.pos].is_ascii_alphanumeric() || self.src[self.pos] >= 0x80) {
            self.pos += 1;
        }
        Ok(())
    }

    fn number(&mut self) {
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn word(&mut self) -> Result<(), TooDeep> {
        let start = self.pos;
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80 || c == b'#' {
                self.pos += 1;
            } else if c == b'\\' {
                // A unicode escape inside the name: `\u0061` or `\u{61}`.
                self.pos += 2;
                if self.peek(0) == b'{' {
                    while self.pos < self.src.len() && self.src[self.pos] != b'}' {
                        self.pos += 1;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
        let word = &self.src[start..self.pos.min(self.src.len())];
        let continues = matches!(word, b"in" | b"instanceof" | b"of");
        if word == b"else" {
            // After a `;` the `if` chain that the semicolon seemed to end goes on.
            if let Some(chain) = self.stmt_before_semicolon.take() {
                self.stmt = self.stmt.max(chain);
            }
            self.newline = false;
            self.statement_start = true;
            self.stmt += 1;
            self.note()?;
            self.prev = Prev::Keyword;
            return Ok(());
        }
        let statement_start = self.token_start(!continues);
        if KEYWORDS_HEAD.contains(&word) || word == b"do" {
            self.stmt += 1;
            self.note()?;
            self.prev = if word == b"do" { Prev::Keyword } else { Prev::KeywordHead };
            self.statement_start = word == b"do";
        } else if KEYWORDS_EXPR.contains(&word) {
            if !matches!(word, b"return" | b"case" | b"throw" | b"extends") {
                // Prefix operators (`typeof`, `new`, `await`, …) and binary ones (`in`, …).
                self.expr += 1;
                self.note()?;
            }
            self.prev = Prev::KeywordExpr;
        } else if KEYWORDS_OPERAND.contains(&word) {
            self.prev = Prev::Operand;
        } else if KEYWORDS_OTHER.contains(&word) {
            self.prev = Prev::Keyword;
        } else {
            // A label (`name:` where a statement starts) nests the statement it labels.
            let label = (statement_start || matches!(self.prev, Prev::CloseBlock | Prev::CloseHead | Prev::Keyword))
                && self.label_follows();
            self.prev = Prev::Operand;
            if label {
                self.stmt += 1;
                self.note()?;
            }
        }
        Ok(())
    }

    /// Whether the identifier just read is a label: a `:` follows, in a block or at the top
    /// level, with no conditional awaiting its `:`.
    fn label_follows(&self) -> bool {
        if self.ternary > 0 {
            return false;
        }
        if let Some(level) = self.levels.last() {
            if level.kind != LevelKind::Block {
                return false;
            }
        }
        let mut p = self.pos;
        while p < self.src.len() && matches!(self.src[p], b' ' | b'\t') {
            p += 1;
        }
        self.src.get(p) == Some(&b':') && self.src.get(p + 1) != Some(&b':')
    }

    fn punctuator(&mut self) -> Result<(), TooDeep> {
        let rest = &self.src[self.pos..];
        // Longest first.
        const PUNCT: &[&[u8]] = &[
            b">>>=", b"...", b"===", b"!==", b"**=", b"<<=", b">>=", b">>>", b"&&=", b"||=", b"??=", b"=>", b"==",
            b"!=", b"<=", b">=", b"&&", b"||", b"??", b"?.", b"++", b"--", b"+=", b"-=", b"*=", b"/=", b"%=", b"&=",
            b"|=", b"^=", b"**", b"<<", b">>",
        ];
        let len = PUNCT.iter().find(|p| rest.starts_with(p)).map_or(1, |p| p.len());
        let tok = &rest[..len];
        // `?.` followed by a digit is `?` then a number (`a?.5:b`).
        let (tok, len) = if tok == b"?." && self.peek(2).is_ascii_digit() { (&rest[..1], 1) } else { (tok, len) };
        match tok {
            b";" => {
                self.newline = false;
                self.pos += 1;
                self.end_statement();
                self.prev = Prev::Operator;
                return Ok(());
            }
            b"," => {
                self.token_start(false);
                self.expr = 0;
                self.ternary = 0;
            }
            b"++" | b"--" => {
                self.token_start(true);
                self.expr += 1;
                self.note()?;
                self.pos += len;
                self.prev = Prev::Update;
                return Ok(());
            }
            b"!" | b"~" => {
                self.token_start(true);
                self.expr += 1;
                self.note()?;
            }
            b"?" => {
                self.token_start(false);
                self.ternary += 1;
                self.expr += 1;
                self.note()?;
            }
            b":" => {
                self.token_start(false);
                if self.ternary > 0 {
                    self.ternary -= 1;
                } else if self.levels.last().is_none_or(|l| l.kind == LevelKind::Block) {
                    // A label's or a `case`'s colon: a statement starts after it.
                    self.pos += 1;
                    self.prev = Prev::Operator;
                    self.statement_start = true;
                    return Ok(());
                }
            }
            _ => {
                self.token_start(false);
                self.expr += 1;
                self.note()?;
            }
        }
        self.pos += len;
        self.prev = Prev::Operator;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> u32 {
        gauge(s).unwrap_or(u32::MAX)
    }

    #[test]
    fn every_nesting_construct_is_counted() {
        let n = 20_000;
        for (open, close) in [
            ("[", "]"),
            ("(", ")"),
            ("{", "}"),
            ("!", "x"),
            ("- ", "x"),
            ("typeof ", "x"),
            ("new ", "X"),
            ("x=>", "x"),
            ("a?", "b:c"),
            ("a=", "b"),
            ("if(1)", ";"),
            ("while(0)", ";"),
            ("l: ", ";"),
            ("`${", "}`"),
            ("a**", "b"),
            ("f(", ")"),
            ("async ()=>", "1"),
        ] {
            let src = format!("{}{}", open.repeat(n), close.repeat(n));
            assert!(gauge(&src).is_err(), "{open}…{close} not refused");
        }
        for chain in ["a+", "a.b", "a()", "a[0]", "a||"] {
            let src = format!("{}a", chain.repeat(n));
            assert!(gauge(&src).is_err(), "chain {chain} not refused");
        }
        let else_if = format!("if(a)x;{}", "else if(a)x,y;".repeat(n));
        assert!(gauge(&else_if).is_err(), "else-if chain with semicolons");
        let else_if_nl = format!("if(a)x\n{}", "else if(a)x\n".repeat(n));
        assert!(gauge(&else_if_nl).is_err(), "else-if chain with line breaks");
        let bang_lines = format!("{}x", "!\n".repeat(n));
        assert!(gauge(&bang_lines).is_err(), "unary operators across lines");
        let regex = format!("x = /{}{}/", "(".repeat(n), ")".repeat(n));
        assert!(gauge(&regex).is_err(), "regex groups");
    }

    #[test]
    fn ordinary_code_stays_shallow() {
        assert!(g("var a = 1; var b = 2;") <= 2);
        // Long flat sequences are not nesting.
        let statements = "x = a + b * c;\n".repeat(10_000);
        assert!(g(&statements) < 10, "{}", g(&statements));
        let asi = "x = a + b\ny = c\n".repeat(10_000);
        assert!(g(&asi) < 10, "{}", g(&asi));
        let object = format!("o = {{{}}}", "a: 1, ".repeat(10_000));
        assert!(g(&object) < 10, "{}", g(&object));
        let array = format!("a = [{}]", "1, ".repeat(10_000));
        assert!(g(&array) < 10);
        let switch = format!("switch (x) {{ {} }}", "case 1: f(); break;\n".repeat(5_000));
        assert!(g(&switch) < 10, "{}", g(&switch));
        let labels_in_objects = format!("f({{{}}})", "key: value, ".repeat(5_000));
        assert!(g(&labels_in_objects) < 10);
        let blocks = "{}".repeat(1 << 21);
        assert!(g(&blocks) < 4, "{}", g(&blocks));
        let ifs = "if (a) b(); else c();\n".repeat(5_000);
        assert!(g(&ifs) < 10, "{}", g(&ifs));
        // Regular expressions and strings hide their brackets.
        assert!(g(r#"var s = "((((((((("; var r = /[(]/; var t = `((( ${a} (((`;"#) < 6);
        assert!(g("if (x) /(/.test(y); a = b / c / d;") < 8);
        assert!(g("{} /(/.test(y)") < 8);
        assert!(g("x = {} / 2; y = ((a)) / (b)") < 8);
    }

    #[test]
    fn stack_grows_with_the_gauge() {
        assert!(stack_for_gauge(MAX_GAUGE) > stack_for_gauge(10));
    }
}
