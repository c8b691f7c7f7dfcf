//! The source text a TypeError names, rendered the way V8's `CallPrinter`
//! (src/ast/prettyprinter.cc) prints the expression at the error's position: `o.foo is not a
//! function`, `fn(...) is not a function`, `o.k` for `o["k"]`, `(x + 1)`, and
//! `(intermediate value)` for what it does not print (function and class literals, `super`,
//! `await`, conditionals, optional chains in parentheses, object literal values). The
//! compiler renders it once per site into the code block's `error_sites`; nothing of it runs
//! unless the error is thrown.

use oxc_ast::ast::*;
use oxc_syntax::operator::UnaryOperator;

use crate::runtime::convert::number_to_string;

/// V8's text for an expression it cannot print.
const INTERMEDIATE: &str = "(intermediate value)";

/// Render `e` as V8 names a callee, an iterable or a destructured value. `iterator`: the
/// error is a sync iteration's (V8 prints calls there without their `(...)`).
pub(crate) fn render(e: &Expression<'_>, iterator: bool) -> String {
    let mut p = Printer { out: String::new(), prints: 0, iterator };
    p.find(e, true);
    p.out
}

/// Whether `e` is a call's result as V8's iteration hint sees it (`fn()`, `new C()`, a tag):
/// the message then reads `… is not a function or its return value is not iterable`.
pub(crate) fn is_call(e: &Expression<'_>) -> bool {
    matches!(
        e.without_parentheses(),
        Expression::CallExpression(_) | Expression::NewExpression(_) | Expression::TaggedTemplateExpression(_)
    )
}

struct Printer {
    out: String,
    /// Calls of `print`: a visit that printed nothing leaves `(intermediate value)`.
    prints: u32,
    iterator: bool,
}

impl Printer {
    fn print(&mut self, s: &str) {
        self.prints += 1;
        self.out.push_str(s);
    }

    /// V8's `Find(node, print)`: visit `e` when printing, and stand `(intermediate value)`
    /// for it when it printed nothing or is not to be printed.
    fn find(&mut self, e: &Expression<'_>, print: bool) {
        if print {
            let before = self.prints;
            self.visit(e);
            if self.prints != before {
                return;
            }
        }
        self.print(INTERMEDIATE);
    }

    fn visit(&mut self, e: &Expression<'_>) {
        match e {
            Expression::Identifier(id) => self.print(id.name.as_str()),
            Expression::ThisExpression(_) => self.print("this"),
            Expression::BooleanLiteral(b) => self.print(if b.value { "true" } else { "false" }),
            Expression::NullLiteral(_) => self.print("null"),
            Expression::NumericLiteral(n) => self.print(&number_to_string(n.value)),
            Expression::StringLiteral(s) => self.print(&format!("\"{}\"", s.value.as_str())),
            Expression::RegExpLiteral(r) => {
                self.print(&format!("/{}/{}", r.regex.pattern.text.as_str(), r.regex.flags))
            }
            Expression::TemplateLiteral(t) => match no_substitution(t) {
                // V8's parser makes a template without substitutions a string literal.
                Some(s) => self.print(&format!("\"{s}\"")),
                None => {
                    for sub in &t.expressions {
                        self.find(sub, true);
                    }
                }
            },
            Expression::ArrayExpression(a) => {
                self.print("[");
                for (i, el) in a.elements.iter().enumerate() {
                    if i != 0 {
                        self.print(",");
                    }
                    match el {
                        ArrayExpressionElement::SpreadElement(s) => {
                            self.print("(...");
                            self.find(&s.argument, true);
                            self.print(")");
                        }
                        ArrayExpressionElement::Elision(_) => self.print(INTERMEDIATE),
                        other => match other.as_expression() {
                            Some(x) => self.find(x, true),
                            None => self.print(INTERMEDIATE),
                        },
                    }
                }
                self.print("]");
            }
            // V8 visits each property's value without printing it.
            Expression::ObjectExpression(o) => {
                self.print("{");
                for _ in &o.properties {
                    self.print(INTERMEDIATE);
                }
                self.print("}");
            }
            Expression::CallExpression(c) => {
                self.find(&c.callee, true);
                if !self.iterator {
                    self.print("(...)");
                }
            }
            Expression::TaggedTemplateExpression(t) => {
                self.find(&t.tag, true);
                if !self.iterator {
                    self.print("(...)");
                }
            }
            Expression::NewExpression(n) => self.find(&n.callee, self.iterator),
            Expression::StaticMemberExpression(m) => {
                self.find(&m.object, true);
                self.print(if m.optional { "?." } else { "." });
                self.print(m.property.name.as_str());
            }
            Expression::ComputedMemberExpression(m) => {
                self.find(&m.object, true);
                match string_key(&m.expression) {
                    Some(k) => {
                        self.print(if m.optional { "?." } else { "." });
                        self.print(&k);
                    }
                    None => {
                        self.print(if m.optional { "?.[" } else { "[" });
                        self.find(&m.expression, true);
                        self.print("]");
                    }
                }
            }
            Expression::PrivateFieldExpression(p) => {
                self.find(&p.object, true);
                self.print(if p.optional { "?.[#" } else { "[#" });
                self.print(p.field.name.as_str());
                self.print("]");
            }
            Expression::BinaryExpression(b) => {
                self.binary(&b.left, b.operator.as_str(), &b.right);
            }
            Expression::LogicalExpression(l) => {
                self.binary(&l.left, l.operator.as_str(), &l.right);
            }
            Expression::SequenceExpression(s) => {
                self.print("(");
                for (i, x) in s.expressions.iter().enumerate() {
                    if i != 0 {
                        self.print(" , ");
                    }
                    self.find(x, true);
                }
                self.print(")");
            }
            Expression::UnaryExpression(u) => match (&u.argument, u.operator) {
                // V8's parser folds a negated number literal into the literal.
                (Expression::NumericLiteral(n), UnaryOperator::UnaryNegation) => {
                    self.print(&number_to_string(-n.value));
                }
                (arg, op) => {
                    self.print("(");
                    self.print(op.as_str());
                    if matches!(op, UnaryOperator::Delete | UnaryOperator::Typeof | UnaryOperator::Void) {
                        self.print(" ");
                    }
                    self.find(arg, true);
                    self.print(")");
                }
            },
            Expression::UpdateExpression(u) => {
                self.print("(");
                if u.prefix {
                    self.print(u.operator.as_str());
                }
                self.simple_target(&u.argument);
                if !u.prefix {
                    self.print(u.operator.as_str());
                }
                self.print(")");
            }
            // V8 prints an assignment found inside the text as its target.
            Expression::AssignmentExpression(a) => match a.left.as_simple_assignment_target() {
                Some(t) => self.simple_target(t),
                None => self.print(INTERMEDIATE),
            },
            // Each part visited without printing.
            Expression::ConditionalExpression(_) => {
                for _ in 0..3 {
                    self.print(INTERMEDIATE);
                }
            }
            Expression::ParenthesizedExpression(p) => self.find(&p.expression, true),
            Expression::TSAsExpression(t) => self.find(&t.expression, true),
            Expression::TSSatisfiesExpression(t) => self.find(&t.expression, true),
            Expression::TSTypeAssertion(t) => self.find(&t.expression, true),
            Expression::TSNonNullExpression(t) => self.find(&t.expression, true),
            Expression::TSInstantiationExpression(t) => self.find(&t.expression, true),
            // V8's internal variable.
            Expression::NewTarget(_) => self.print(".new.target"),
            Expression::ImportExpression(i) => {
                self.print("ImportCall(");
                self.find(&i.source, true);
                self.print(")");
            }
            // Function and class literals, `super`, `await`, `yield`, an optional chain as a
            // whole, `import.meta`, BigInt literals: nothing printed.
            _ => {}
        }
    }

    fn binary(&mut self, left: &Expression<'_>, op: &str, right: &Expression<'_>) {
        self.print("(");
        self.find(left, true);
        self.print(" ");
        self.print(op);
        self.print(" ");
        self.find(right, true);
        self.print(")");
    }

    fn simple_target(&mut self, t: &SimpleAssignmentTarget<'_>) {
        match t {
            SimpleAssignmentTarget::AssignmentTargetIdentifier(id) => self.print(id.name.as_str()),
            other => match other.as_member_expression() {
                Some(m) => {
                    let before = self.prints;
                    match m {
                        MemberExpression::StaticMemberExpression(s) => {
                            self.find(&s.object, true);
                            self.print(".");
                            self.print(s.property.name.as_str());
                        }
                        MemberExpression::ComputedMemberExpression(c) => {
                            self.find(&c.object, true);
                            match string_key(&c.expression) {
                                Some(k) => {
                                    self.print(".");
                                    self.print(&k);
                                }
                                None => {
                                    self.print("[");
                                    self.find(&c.expression, true);
                                    self.print("]");
                                }
                            }
                        }
                        MemberExpression::PrivateFieldExpression(p) => {
                            self.find(&p.object, true);
                            self.print("[#");
                            self.print(p.field.name.as_str());
                            self.print("]");
                        }
                    }
                    if self.prints == before {
                        self.print(INTERMEDIATE);
                    }
                }
                None => self.print(INTERMEDIATE),
            },
        }
    }
}

/// A computed key V8 prints as `.k`: a string literal (or a template without substitutions).
fn string_key(e: &Expression<'_>) -> Option<String> {
    match e.without_parentheses() {
        Expression::StringLiteral(s) => Some(s.value.to_string()),
        Expression::TemplateLiteral(t) => no_substitution(t),
        _ => None,
    }
}

fn no_substitution(t: &TemplateLiteral<'_>) -> Option<String> {
    if !t.expressions.is_empty() {
        return None;
    }
    let q = t.quasis.first()?;
    q.value.cooked.as_ref().map(|c| c.to_string())
}

/// Whether V8 finds the initialiser of an array pattern declaration at its error position,
/// and so names it (`x is not iterable`): a name, a literal, a call of one; not a member
/// access, a call of a method, or a sequence, which it names by value.
pub(crate) fn starts_at_own_position(e: &Expression<'_>) -> bool {
    match e {
        Expression::Identifier(_)
        | Expression::ThisExpression(_)
        | Expression::BooleanLiteral(_)
        | Expression::NullLiteral(_)
        | Expression::NumericLiteral(_)
        | Expression::StringLiteral(_)
        | Expression::TemplateLiteral(_)
        | Expression::ArrayExpression(_)
        | Expression::ObjectExpression(_) => true,
        Expression::CallExpression(c) => starts_at_own_position(&c.callee),
        Expression::NewExpression(n) => starts_at_own_position(&n.callee),
        _ => false,
    }
}
