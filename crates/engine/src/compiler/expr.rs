//! Expressions. Every `compile_expr` leaves exactly one value on the operand stack.

use oxc_ast::ast::*;
use oxc_span::GetSpan;
use oxc_syntax::operator::{BinaryOperator, LogicalOperator, UnaryOperator};

use super::{CResult, Compiler, Label};
use crate::atoms::atom;
use crate::bytecode::{Op, TemplateSite};
use crate::string::JsStr;

/// Decode oxc's lone-surrogate escaping (`\u{FFFD}XXXX`) into UTF-16 units.
pub(crate) fn string_literal_units(value: &str, lone_surrogates: bool) -> JsStr {
    if !lone_surrogates {
        return JsStr::from_str(value);
    }
    let mut units: Vec<u16> = Vec::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{FFFD}' {
            let hex: String = chars.clone().take(4).collect();
            if let Ok(u) = u16::from_str_radix(&hex, 16) {
                for _ in 0..4 {
                    chars.next();
                }
                units.push(u);
                continue;
            }
        }
        let mut buf = [0u16; 2];
        units.extend_from_slice(c.encode_utf16(&mut buf));
    }
    JsStr::from_units(units)
}

/// Is this an anonymous function or class definition (named by its binding context)?
pub(crate) fn is_anonymous_fn(e: &Expression) -> bool {
    match e {
        Expression::FunctionExpression(f) => f.id.is_none(),
        Expression::ArrowFunctionExpression(_) => true,
        Expression::ClassExpression(c) => c.id.is_none(),
        Expression::ParenthesizedExpression(p) => is_anonymous_fn(&p.expression),
        _ => false,
    }
}

impl<'s> Compiler<'s, '_> {
    /// Compile `e` for its effects only (an expression statement, a `for` update, the
    /// operands of a comma before the last): nothing is left on the stack. An assignment or
    /// update of a binding then stores without the `Dup` that keeps its value and the `Pop`
    /// that drops it, which in a loop such as `for (…; …; i++) x = …` is a third of the work.
    pub(crate) fn compile_effect(&mut self, e: &'s Expression<'s>) -> CResult<()> {
        let kept = match e {
            Expression::AssignmentExpression(a) => self.compile_assignment_value(a, false)?,
            Expression::UpdateExpression(u) => self.compile_update_value(u, false)?,
            Expression::SequenceExpression(s) => {
                for e in &s.expressions {
                    self.compile_effect(e)?;
                }
                false
            }
            _ => {
                self.compile_expr(e)?;
                true
            }
        };
        if kept {
            self.emit(Op::Pop);
        }
        Ok(())
    }

    pub(crate) fn compile_expr(&mut self, e: &'s Expression<'s>) -> CResult<()> {
        self.compile_expr_named(e, None)
    }

    /// Compile with a name for anonymous functions and classes (NamedEvaluation).
    pub(crate) fn compile_expr_named(&mut self, e: &'s Expression<'s>, name: Option<&str>) -> CResult<()> {
        self.func.nesting += 1;
        if let Err(err) = self.nesting_check(e.span().start) {
            self.func.nesting -= 1;
            return Err(err);
        }
        let r = self.compile_expr_inner(e, name);
        // After an error, compilation is abandoned, possibly with a nested function's state
        // still pushed: `self.func` need not be the state incremented above.
        if r.is_ok() {
            self.func.nesting -= 1;
        }
        r
    }

    fn compile_expr_inner(&mut self, e: &'s Expression<'s>, name: Option<&str>) -> CResult<()> {
        match e {
            Expression::BooleanLiteral(b) => self.emit(if b.value { Op::True } else { Op::False }),
            Expression::NullLiteral(_) => self.emit(Op::Null),
            Expression::NumericLiteral(n) => self.emit_number(n.value),
            Expression::StringLiteral(s) => {
                let js = string_literal_units(s.value.as_str(), s.lone_surrogates);
                let c = self.js_string_constant(js);
                self.emit(Op::Const(c));
            }
            Expression::BigIntLiteral(b) => {
                let text = b.value.as_str();
                let v = num_bigint::BigInt::parse_bytes(text.as_bytes(), 10).unwrap_or_default();
                let id = self.vm.heap.alloc_bigint(v);
                let c = self.constant(crate::value::Value::bigint(id));
                self.emit(Op::Const(c));
            }
            Expression::RegExpLiteral(r) => {
                let source = JsStr::from_str(r.regex.pattern.text.as_str());
                let flags = JsStr::from_str(&r.regex.flags.to_string());
                self.func.code.regexps.push((source, flags));
                let i = (self.func.code.regexps.len() - 1) as u32;
                self.emit(Op::RegExpLiteral(i));
            }
            Expression::TemplateLiteral(t) => self.compile_template(t)?,
            Expression::Identifier(id) => {
                if id.name.as_str() == "undefined"
                    && id.reference_id.get().and_then(|r| self.scoping.get_reference(r).symbol_id()).is_none()
                    && self.dynamic_target(id).is_none()
                {
                    // `undefined` is a non-writable global; reading it needs no lookup.
                    self.emit(Op::Undefined);
                } else {
                    self.emit_identifier_load(id, false)?;
                }
            }
            Expression::ThisExpression(_) => self.emit_this(),
            Expression::ArrayExpression(a) => self.compile_array(a)?,
            Expression::ObjectExpression(o) => self.compile_object(o)?,
            Expression::FunctionExpression(f) => {
                let n = f.id.as_ref().map(|i| i.name.to_string()).or_else(|| name.map(str::to_string));
                let a = n.as_deref().map(|s| self.atom(s));
                let idx = self.compile_function(f, a)?;
                self.emit(Op::Closure(idx));
            }
            Expression::ArrowFunctionExpression(f) => {
                let a = name.map(|s| self.atom(s));
                let idx = self.compile_arrow(f, a)?;
                self.emit(Op::Closure(idx));
            }
            Expression::ClassExpression(c) => self.compile_class(c, name)?,
            Expression::ParenthesizedExpression(p) => self.compile_expr_named(&p.expression, name)?,
            Expression::SequenceExpression(s) => {
                let n = s.expressions.len();
                for (i, x) in s.expressions.iter().enumerate() {
                    if i + 1 < n {
                        self.compile_effect(x)?;
                    } else {
                        self.compile_expr(x)?;
                    }
                }
            }
            Expression::UnaryExpression(u) => self.compile_unary(u)?,
            Expression::BinaryExpression(b) => self.compile_binary(b)?,
            Expression::PrivateInExpression(p) => {
                self.emit_private_key(p.left.name.as_str(), p.span.start)?;
                self.compile_expr(&p.right)?;
                self.emit(Op::HasPrivate);
            }
            Expression::LogicalExpression(l) => {
                self.compile_expr(&l.left)?;
                let j = match l.operator {
                    LogicalOperator::And => self.emit_jump(Op::JumpIfFalseKeep),
                    LogicalOperator::Or => self.emit_jump(Op::JumpIfTrueKeep),
                    LogicalOperator::Coalesce => self.emit_jump(Op::JumpIfNotNullishKeep),
                };
                self.compile_expr(&l.right)?;
                self.patch(j);
            }
            Expression::ConditionalExpression(c) => {
                let else_l = self.compile_test_jump_if_false(&c.test)?;
                self.compile_expr_named(&c.consequent, None)?;
                let end = self.emit_jump(Op::Jump);
                self.func.depth -= 1;
                self.patch(else_l);
                self.compile_expr_named(&c.alternate, None)?;
                self.patch(end);
            }
            Expression::AssignmentExpression(a) => self.compile_assignment(a)?,
            Expression::UpdateExpression(u) => self.compile_update(u)?,
            Expression::CallExpression(c) => {
                let mut exits = Vec::new();
                self.compile_call(c, &mut exits)?;
                self.patch_exits(exits);
            }
            Expression::NewExpression(n) => {
                self.mark(n.span.start);
                self.compile_expr(&n.callee)?;
                // The construction is at `new` (as V8 reports it), not at the last argument
                // that recorded a position.
                if has_spread(&n.arguments) {
                    self.compile_args_array(&n.arguments)?;
                    self.mark(n.span.start);
                    self.note_callee(&n.callee);
                    self.emit(Op::NewSpread);
                } else {
                    for a in &n.arguments {
                        self.compile_argument(a)?;
                    }
                    self.mark(n.span.start);
                    self.note_callee(&n.callee);
                    self.emit(Op::New(n.arguments.len() as u32));
                }
            }
            Expression::ChainExpression(c) => {
                let mut exits = Vec::new();
                match &c.expression {
                    ChainElement::CallExpression(call) => self.compile_call(call, &mut exits)?,
                    ChainElement::TSNonNullExpression(t) => self.compile_expr(&t.expression)?,
                    other => {
                        if let Some(m) = other.as_member_expression() {
                            self.compile_member(m, &mut exits)?;
                        }
                    }
                }
                self.patch_exits(exits);
            }
            Expression::TaggedTemplateExpression(t) => self.compile_tagged_template(t)?,
            Expression::AwaitExpression(a) => {
                self.compile_expr(&a.argument)?;
                self.mark_one(a.span.start, Op::Await);
            }
            Expression::YieldExpression(y) => self.compile_yield(y)?,
            Expression::ImportExpression(i) => {
                self.compile_expr(&i.source)?;
                match &i.options {
                    Some(o) => self.compile_expr(o)?,
                    None => self.emit(Op::Undefined),
                }
                match i.phase {
                    None => self.emit(Op::DynamicImport),
                    Some(ImportPhase::Defer) => self.emit(Op::DynamicImportPhase(1)),
                    Some(ImportPhase::Source) => self.emit(Op::DynamicImportPhase(2)),
                }
            }
            Expression::ImportMeta(_) => self.emit(Op::ImportMeta),
            Expression::NewTarget(_) => self.emit(Op::NewTarget),
            Expression::Super(s) => return Err(self.error("'super' keyword unexpected here", s.span.start)),
            Expression::StaticMemberExpression(_)
            | Expression::ComputedMemberExpression(_)
            | Expression::PrivateFieldExpression(_) => {
                let mut exits = Vec::new();
                if let Some(m) = e.as_member_expression() {
                    self.compile_member(m, &mut exits)?;
                }
                self.patch_exits(exits);
            }
            Expression::V8IntrinsicExpression(v) => return Err(self.error("Unexpected token '%'", v.span.start)),
            _ => return Err(self.error("Unsupported syntax (JSX or TypeScript)", e.span().start)),
        }
        Ok(())
    }

    /// SuperProperty `super[e]`, step 2: the `this` binding must be initialised before the
    /// key expression runs (only a derived constructor's, or its arrows', may not be).
    pub(crate) fn emit_super_this_check(&mut self) {
        let derived = self.func.code.kind == crate::bytecode::FunctionKind::DerivedConstructor
            || (self.func.is_arrow && self.derived_this_env().is_some());
        if derived {
            self.emit_this();
            self.emit(Op::Pop);
        }
    }

    pub(crate) fn emit_this(&mut self) {
        // An arrow in a derived constructor reads the constructor's binding, which super()
        // may have initialised after the arrow was made.
        if self.func.is_arrow {
            if let Some((depth, slot)) = self.derived_this_env() {
                self.emit(Op::ThisFromEnv { depth, slot });
                return;
            }
        }
        // Eval code may run in a derived constructor before `super()` binds `this`.
        let derived = matches!(
            self.func.code.kind,
            crate::bytecode::FunctionKind::DerivedConstructor | crate::bytecode::FunctionKind::Eval
        );
        self.emit(if derived { Op::ThisChecked } else { Op::This });
    }

    fn patch_exits(&mut self, exits: Vec<Label>) {
        for l in exits {
            self.patch(l);
        }
    }

    // ---- literals

    fn compile_template(&mut self, t: &'s TemplateLiteral<'s>) -> CResult<()> {
        let cooked = |q: &TemplateElement| {
            q.value
                .cooked
                .as_ref()
                .map(|c| string_literal_units(c.as_str(), q.lone_surrogates))
                .unwrap_or_else(JsStr::empty)
        };
        let first = t.quasis.first().map(cooked).unwrap_or_else(JsStr::empty);
        let c = self.js_string_constant(first);
        self.emit(Op::Const(c));
        for (i, e) in t.expressions.iter().enumerate() {
            self.compile_expr(e)?;
            self.emit(Op::ToStringForConcat);
            self.emit(Op::Add);
            if let Some(q) = t.quasis.get(i + 1) {
                let s = cooked(q);
                if !s.is_empty() {
                    let c = self.js_string_constant(s);
                    self.emit(Op::Const(c));
                    self.emit(Op::Add);
                }
            }
        }
        Ok(())
    }

    fn compile_tagged_template(&mut self, t: &'s TaggedTemplateExpression<'s>) -> CResult<()> {
        self.mark(t.span.start);
        self.compile_callee(&t.tag)?;
        let site = TemplateSite {
            cooked: t
                .quasi
                .quasis
                .iter()
                .map(|q| q.value.cooked.as_ref().map(|c| string_literal_units(c.as_str(), q.lone_surrogates)))
                .collect(),
            raw: t
                .quasi
                .quasis
                .iter()
                .map(|q| JsStr::from_str(&q.value.raw.replace("\r\n", "\n").replace('\r', "\n")))
                .collect(),
        };
        let i = self.add_template(site);
        self.emit(Op::TemplateObject(i));
        for e in &t.quasi.expressions {
            self.compile_expr(e)?;
        }
        self.note_callee(&t.tag);
        self.emit(Op::Call(t.quasi.expressions.len() as u32 + 1));
        Ok(())
    }

    fn compile_array(&mut self, a: &'s ArrayExpression<'s>) -> CResult<()> {
        self.emit(Op::NewArray(a.elements.len() as u32));
        for el in &a.elements {
            match el {
                ArrayExpressionElement::SpreadElement(s) => {
                    self.compile_expr(&s.argument)?;
                    self.note_iterable(&s.argument, false);
                    self.emit(Op::ArraySpread);
                }
                ArrayExpressionElement::Elision(_) => self.emit(Op::ArrayHole),
                other => {
                    if let Some(e) = other.as_expression() {
                        self.compile_expr(e)?;
                        self.emit(Op::ArrayPush);
                    }
                }
            }
        }
        Ok(())
    }

    /// Emit a property key: returns the static atom, or pushes the computed key.
    pub(crate) fn compile_property_key(
        &mut self,
        key: &'s PropertyKey<'s>,
        computed: bool,
    ) -> CResult<Option<crate::atoms::Atom>> {
        if !computed {
            match key {
                PropertyKey::StaticIdentifier(id) => return Ok(Some(self.atom(id.name.as_str()))),
                PropertyKey::PrivateIdentifier(p) => return Ok(Some(self.atom(p.name.as_str()))),
                PropertyKey::StringLiteral(s) => {
                    let js = string_literal_units(s.value.as_str(), s.lone_surrogates);
                    if js.as_array_index().is_none() {
                        return Ok(Some(self.vm.heap.atoms.intern(&js)));
                    }
                    let c = self.js_string_constant(js);
                    self.emit(Op::Const(c));
                    return Ok(None);
                }
                PropertyKey::NumericLiteral(n) => {
                    let s = crate::runtime::convert::number_to_string(n.value);
                    let js = JsStr::from_str(&s);
                    if js.as_array_index().is_none() {
                        return Ok(Some(self.vm.heap.atoms.intern(&js)));
                    }
                    let c = self.js_string_constant(js);
                    self.emit(Op::Const(c));
                    return Ok(None);
                }
                PropertyKey::BigIntLiteral(b) => {
                    let js = JsStr::from_str(b.value.as_str());
                    if js.as_array_index().is_none() {
                        return Ok(Some(self.vm.heap.atoms.intern(&js)));
                    }
                    let c = self.js_string_constant(js);
                    self.emit(Op::Const(c));
                    return Ok(None);
                }
                _ => {}
            }
        }
        if let Some(e) = key.as_expression() {
            self.compile_expr(e)?;
            self.emit(Op::ToPropertyKey);
        }
        Ok(None)
    }

    /// Static text of a non-computed key (for function names).
    pub(crate) fn static_key_name(&self, key: &PropertyKey, computed: bool) -> Option<String> {
        if computed {
            return None;
        }
        match key {
            PropertyKey::StaticIdentifier(id) => Some(id.name.to_string()),
            PropertyKey::PrivateIdentifier(p) => Some(format!("#{}", p.name)),
            PropertyKey::StringLiteral(s) => {
                Some(string_literal_units(s.value.as_str(), s.lone_surrogates).to_rust_string())
            }
            PropertyKey::NumericLiteral(n) => Some(crate::runtime::convert::number_to_string(n.value)),
            PropertyKey::BigIntLiteral(b) => Some(b.value.to_string()),
            _ => None,
        }
    }

    fn compile_object(&mut self, o: &'s ObjectExpression<'s>) -> CResult<()> {
        self.emit(Op::NewObject);
        for prop in &o.properties {
            match prop {
                ObjectPropertyKind::SpreadProperty(s) => {
                    self.compile_expr(&s.argument)?;
                    self.emit(Op::CopyDataProperties);
                }
                ObjectPropertyKind::ObjectProperty(p) => {
                    let is_proto = !p.computed
                        && !p.shorthand
                        && !p.method
                        && p.kind == PropertyKind::Init
                        && self.static_key_name(&p.key, false).as_deref() == Some("__proto__");
                    if is_proto {
                        self.compile_expr(&p.value)?;
                        self.emit(Op::SetProtoLiteral);
                        continue;
                    }
                    let fname = self.static_key_name(&p.key, p.computed);
                    let key = self.compile_property_key(&p.key, p.computed)?;
                    let is_accessor = p.kind != PropertyKind::Init;
                    if p.method || is_accessor {
                        let (fexpr, flags) = match p.kind {
                            PropertyKind::Get => (&p.value, 1 | 2),
                            PropertyKind::Set => (&p.value, 1 | 4),
                            PropertyKind::Init => (&p.value, 1),
                        };
                        let Expression::FunctionExpression(f) = fexpr else {
                            return Err(self.error("invalid method", p.span.start));
                        };
                        let a = fname.as_deref().map(|n| self.atom(n));
                        let idx = self.compile_method(f, a, p.span)?;
                        self.emit(Op::Closure(idx));
                        match key {
                            Some(name) => self.emit(Op::DefineMethod { name, flags }),
                            None => self.emit(Op::DefineMethodElem { flags }),
                        }
                        continue;
                    }
                    match key {
                        Some(name) => {
                            self.compile_expr_named(&p.value, fname.as_deref())?;
                            self.emit(Op::DefineField(name));
                        }
                        None => {
                            if is_anonymous_fn(&p.value) {
                                // Computed key names the function at runtime.
                                self.compile_expr(&p.value)?;
                                self.emit(Op::Swap);
                                self.emit(Op::SetFunctionName { prefix: 0 });
                                self.emit(Op::Swap);
                                self.emit(Op::DefineElem);
                            } else {
                                self.compile_expr(&p.value)?;
                                self.emit(Op::DefineElem);
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    // ---- operators

    fn compile_unary(&mut self, u: &'s UnaryExpression<'s>) -> CResult<()> {
        match u.operator {
            UnaryOperator::Typeof => {
                // `typeof (x)` is `typeof x`: the parentheses keep the reference.
                let mut argument = &u.argument;
                while let Expression::ParenthesizedExpression(p) = argument {
                    argument = &p.expression;
                }
                if let Expression::Identifier(id) = argument {
                    self.emit_identifier_load(id, true)?;
                } else {
                    self.compile_expr(&u.argument)?;
                }
                self.emit(Op::TypeOf);
            }
            UnaryOperator::Delete => self.compile_delete(&u.argument)?,
            UnaryOperator::Void => {
                self.compile_expr(&u.argument)?;
                self.emit(Op::Pop);
                self.emit(Op::Undefined);
            }
            UnaryOperator::UnaryNegation => {
                if let Expression::NumericLiteral(n) = &u.argument {
                    self.emit_number(-n.value);
                } else {
                    self.compile_expr(&u.argument)?;
                    self.emit(Op::Neg);
                }
            }
            UnaryOperator::UnaryPlus => {
                self.compile_expr(&u.argument)?;
                self.emit(Op::ToNumber);
            }
            UnaryOperator::LogicalNot => {
                self.compile_expr(&u.argument)?;
                self.emit(Op::Not);
            }
            UnaryOperator::BitwiseNot => {
                self.compile_expr(&u.argument)?;
                self.emit(Op::BitNot);
            }
        }
        Ok(())
    }

    fn compile_delete(&mut self, arg: &'s Expression<'s>) -> CResult<()> {
        let strict = self.func.code.strict;
        match arg {
            Expression::StaticMemberExpression(m) => {
                if matches!(m.object, Expression::Super(_)) {
                    self.emit_this();
                    self.emit(Op::Pop);
                    let msg = self.string_constant("Unsupported reference to 'super'");
                    self.emit(Op::ThrowError { kind: 1, msg });
                    self.emit(Op::True);
                    return Ok(());
                }
                self.compile_expr(&m.object)?;
                let name = self.atom(m.property.name.as_str());
                self.emit(Op::DeleteProp { name, strict });
            }
            Expression::ComputedMemberExpression(m) => {
                if matches!(m.object, Expression::Super(_)) {
                    self.emit_this();
                    self.emit(Op::Pop);
                    self.compile_expr(&m.expression)?;
                    self.emit(Op::Pop);
                    let msg = self.string_constant("Unsupported reference to 'super'");
                    self.emit(Op::ThrowError { kind: 1, msg });
                    self.emit(Op::True);
                    return Ok(());
                }
                self.compile_expr(&m.object)?;
                self.compile_expr(&m.expression)?;
                self.emit(Op::DeleteElem { strict });
            }
            Expression::Identifier(id) => self.emit_identifier_delete(id),
            Expression::ParenthesizedExpression(p) => self.compile_delete(&p.expression)?,
            Expression::ChainExpression(c) => {
                let mut exits = Vec::new();
                match &c.expression {
                    ChainElement::StaticMemberExpression(m) => {
                        self.compile_expr(&m.object)?;
                        if m.optional {
                            exits.push(self.emit_jump(Op::JumpIfNullishToUndefined));
                        }
                        let name = self.atom(m.property.name.as_str());
                        self.emit(Op::DeleteProp { name, strict });
                    }
                    ChainElement::ComputedMemberExpression(m) => {
                        self.compile_expr(&m.object)?;
                        if m.optional {
                            exits.push(self.emit_jump(Op::JumpIfNullishToUndefined));
                        }
                        self.compile_expr(&m.expression)?;
                        self.emit(Op::DeleteElem { strict });
                    }
                    _ => {
                        self.compile_expr(arg)?;
                        self.emit(Op::Pop);
                        self.emit(Op::True);
                    }
                }
                // A short-circuited optional delete yields true.
                if !exits.is_empty() {
                    let end = self.emit_jump(Op::Jump);
                    self.func.depth -= 1;
                    self.patch_exits(exits);
                    self.emit(Op::Pop);
                    self.emit(Op::True);
                    self.patch(end);
                }
            }
            other => {
                self.compile_expr(other)?;
                self.emit(Op::Pop);
                self.emit(Op::True);
            }
        }
        Ok(())
    }

    fn compile_binary(&mut self, b: &'s BinaryExpression<'s>) -> CResult<()> {
        self.compile_expr(&b.left)?;
        self.compile_expr(&b.right)?;
        // `x & 0xff`, `i + 1`: an int32 literal on the right rides in the operator.
        if let (Some(&Op::Int(k)), Expression::NumericLiteral(_)) =
            (self.func.code.ops.last(), b.right.without_parentheses())
        {
            let fused = match b.operator {
                BinaryOperator::Addition => Some(Op::AddInt(k)),
                BinaryOperator::Subtraction => Some(Op::SubInt(k)),
                BinaryOperator::Multiplication => Some(Op::MulInt(k)),
                BinaryOperator::BitwiseAnd => Some(Op::BitAndInt(k)),
                BinaryOperator::BitwiseOR => Some(Op::BitOrInt(k)),
                BinaryOperator::BitwiseXOR => Some(Op::BitXorInt(k)),
                BinaryOperator::ShiftLeft => Some(Op::ShlInt(k)),
                BinaryOperator::ShiftRight => Some(Op::SarInt(k)),
                BinaryOperator::ShiftRightZeroFill => Some(Op::ShrInt(k)),
                _ => None,
            };
            if let Some(op) = fused {
                let at = self.func.code.ops.len() - 1;
                // `Int` then the operator: [0 => 1] then [2 => 1], as the fused [1 => 1].
                self.fuse_tail(at, &[op]);
                self.func.depth -= 1;
                return Ok(());
            }
        }
        self.emit(binary_op(b.operator));
        Ok(())
    }

    // ---- members and calls

    /// Compile a member expression's value, pushing optional-chain exits.
    pub(crate) fn compile_member(&mut self, m: &'s MemberExpression<'s>, exits: &mut Vec<Label>) -> CResult<()> {
        match m {
            MemberExpression::StaticMemberExpression(s) => {
                if matches!(s.object, Expression::Super(_)) {
                    self.emit(Op::SuperBase);
                    self.emit_string(s.property.name.as_str());
                    self.emit(Op::GetSuper);
                    return Ok(());
                }
                self.compile_chain_object(&s.object, exits)?;
                if s.optional {
                    exits.push(self.emit_jump(Op::JumpIfNullishToUndefined));
                }
                let name = self.atom(s.property.name.as_str());
                let ic = self.new_ic();
                self.mark(s.property.span.start);
                // `this.name`: one instruction where `this` is the frame's own.
                if self.func.code.ops.last() == Some(&Op::This)
                    && matches!(s.object.without_parentheses(), Expression::ThisExpression(_))
                {
                    let at = self.func.code.ops.len() - 1;
                    self.fuse_tail(at, &[Op::GetThisProp { name, ic }]);
                } else {
                    self.emit(Op::GetProp { name, ic });
                }
            }
            MemberExpression::ComputedMemberExpression(c) => {
                if matches!(c.object, Expression::Super(_)) {
                    self.emit_super_this_check();
                    self.emit(Op::SuperBase);
                    self.compile_expr(&c.expression)?;
                    self.emit(Op::ToPropertyKey);
                    self.emit(Op::GetSuper);
                    return Ok(());
                }
                self.compile_chain_object(&c.object, exits)?;
                if c.optional {
                    exits.push(self.emit_jump(Op::JumpIfNullishToUndefined));
                }
                self.compile_expr(&c.expression)?;
                self.mark(c.expression.span().start);
                self.emit(Op::GetElem);
            }
            MemberExpression::PrivateFieldExpression(p) => {
                self.compile_chain_object(&p.object, exits)?;
                if p.optional {
                    exits.push(self.emit_jump(Op::JumpIfNullishToUndefined));
                }
                self.emit_private_key(p.field.name.as_str(), p.span.start)?;
                self.emit(Op::GetPrivate);
            }
        }
        Ok(())
    }

    /// The object of a member inside an optional chain continues the same chain.
    fn compile_chain_object(&mut self, obj: &'s Expression<'s>, exits: &mut Vec<Label>) -> CResult<()> {
        match obj {
            Expression::CallExpression(c) => self.compile_call(c, exits),
            Expression::StaticMemberExpression(_)
            | Expression::ComputedMemberExpression(_)
            | Expression::PrivateFieldExpression(_) => match obj.as_member_expression() {
                Some(m) => self.compile_member(m, exits),
                None => self.compile_expr(obj),
            },
            _ => self.compile_expr(obj),
        }
    }

    /// Push `callee this` for a call.
    /// Push `callee this` for a call of a (non-super) member expression.
    fn compile_member_callee(&mut self, m: &'s MemberExpression<'s>, exits: &mut Vec<Label>) -> CResult<()> {
        match m {
            MemberExpression::StaticMemberExpression(s) => {
                self.compile_chain_object(&s.object, exits)?;
                if s.optional {
                    exits.push(self.emit_jump(Op::JumpIfNullishToUndefined));
                }
                let name = self.atom(s.property.name.as_str());
                let ic = self.new_ic();
                self.mark(s.property.span.start);
                self.emit(Op::GetPropCallee { name, ic });
            }
            MemberExpression::ComputedMemberExpression(c) => {
                self.compile_chain_object(&c.object, exits)?;
                if c.optional {
                    exits.push(self.emit_jump(Op::JumpIfNullishToUndefined));
                }
                self.compile_expr(&c.expression)?;
                self.emit(Op::GetElemCallee);
            }
            MemberExpression::PrivateFieldExpression(p) => {
                self.compile_chain_object(&p.object, exits)?;
                if p.optional {
                    exits.push(self.emit_jump(Op::JumpIfNullishToUndefined));
                }
                self.emit(Op::Dup);
                self.emit_private_key(p.field.name.as_str(), p.span.start)?;
                self.emit(Op::GetPrivate);
                self.emit(Op::Swap);
            }
        }
        Ok(())
    }

    fn compile_callee_chain(&mut self, callee: &'s Expression<'s>, exits: &mut Vec<Label>) -> CResult<()> {
        match callee {
            Expression::StaticMemberExpression(_)
            | Expression::ComputedMemberExpression(_)
            | Expression::PrivateFieldExpression(_)
                if !matches!(callee.as_member_expression().map(|m| m.object()), Some(Expression::Super(_))) =>
            {
                if let Some(m) = callee.as_member_expression() {
                    self.compile_member_callee(m, exits)?;
                }
            }
            Expression::StaticMemberExpression(_) | Expression::ComputedMemberExpression(_) => {
                // super.m(): the receiver is `this`.
                if let Some(m) = callee.as_member_expression() {
                    self.compile_member(m, exits)?;
                }
                self.emit_this();
            }
            Expression::ParenthesizedExpression(p) if p.expression.as_member_expression().is_some() => {
                self.compile_callee_chain(&p.expression, exits)?;
            }
            // `(a?.b)()`: the parentheses end the chain but keep the reference, so `a` is
            // the receiver; a short-circuit makes the callee undefined.
            Expression::ParenthesizedExpression(p)
                if matches!(&p.expression, Expression::ChainExpression(c)
                    if c.expression.as_member_expression().is_some_and(|m| !matches!(m.object(), Expression::Super(_)))) =>
            {
                let Expression::ChainExpression(c) = &p.expression else { return Ok(()) };
                let Some(m) = c.expression.as_member_expression() else { return Ok(()) };
                let mut inner = Vec::new();
                self.compile_member_callee(m, &mut inner)?;
                if !inner.is_empty() {
                    let end = self.emit_jump(Op::Jump);
                    self.func.depth -= 2;
                    self.patch_exits(inner);
                    self.emit(Op::Undefined);
                    self.patch(end);
                }
            }
            Expression::Identifier(id) => self.emit_identifier_callee(id)?,
            other => {
                self.compile_chain_object(other, exits)?;
                self.emit(Op::Undefined);
            }
        }
        Ok(())
    }

    /// Push `callee this` (outside a chain).
    pub(crate) fn compile_callee(&mut self, callee: &'s Expression<'s>) -> CResult<()> {
        let mut exits = Vec::new();
        self.compile_callee_chain(callee, &mut exits)?;
        if !exits.is_empty() {
            // `a?.b` as a tag: short-circuit gives (undefined, undefined) -> TypeError at call.
            let end = self.emit_jump(Op::Jump);
            self.func.depth -= 2;
            self.patch_exits(exits);
            self.emit(Op::Undefined);
            self.patch(end);
        }
        Ok(())
    }

    pub(crate) fn compile_call(&mut self, c: &'s CallExpression<'s>, exits: &mut Vec<Label>) -> CResult<()> {
        if let Expression::Super(_) = &c.callee {
            let shared = self.derived_this_env();
            if has_spread(&c.arguments) {
                self.compile_args_array(&c.arguments)?;
                match shared {
                    Some((depth, slot)) => self.emit(Op::SuperCallSpreadEnv { depth, slot }),
                    None => self.emit(Op::SuperCallSpread),
                }
            } else {
                for a in &c.arguments {
                    self.compile_argument(a)?;
                }
                let argc = c.arguments.len();
                match (shared, u16::try_from(argc)) {
                    (Some((depth, slot)), Ok(argc)) => self.emit(Op::SuperCallEnv { argc, depth, slot }),
                    (Some(_), Err(_)) => {
                        return Err(self.error("Too many arguments in function call (only 65535 allowed)", c.span.start))
                    }
                    (None, _) => self.emit(Op::SuperCall(argc as u32)),
                }
            }
            return Ok(());
        }
        let is_direct_eval =
            matches!(&c.callee, Expression::Identifier(id) if id.name.as_str() == "eval") && !c.optional;
        // A short-circuit inside the callee chain must skip the whole call.
        let mut inner_exits = Vec::new();
        self.compile_callee_chain(&c.callee, &mut inner_exits)?;
        self.finish_call(c, is_direct_eval, exits)?;
        // A short-circuit inside the callee chain (`a?.b()`) skips the whole call: it lands
        // where the chain ends, with the chain's one value (undefined) on the stack.
        exits.extend(inner_exits);
        Ok(())
    }

    fn finish_call(&mut self, c: &'s CallExpression<'s>, is_direct_eval: bool, exits: &mut Vec<Label>) -> CResult<()> {
        if c.optional {
            // Stack: callee this. If callee is nullish, the chain yields undefined.
            self.emit(Op::Swap);
            let nullish = self.emit_jump(Op::JumpIfNullishToUndefined);
            self.emit(Op::Swap);
            self.compile_call_args(c, is_direct_eval)?;
            let done = self.emit_jump(Op::Jump);
            self.func.depth += 1;
            self.patch(nullish);
            // Stack: this undefined
            self.emit(Op::Swap);
            self.emit(Op::Pop);
            // Both paths hold one value: undefined here, the call's result at `done`.
            exits.push(self.emit_jump(Op::Jump));
            self.patch(done);
            return Ok(());
        }
        self.compile_call_args(c, is_direct_eval)
    }

    /// Where a call is in a stack trace, as V8 places it: at the name right before the `(`
    /// (`f(`, `o.m(`, `a.b.c(`), else at the `(` itself (`o["m"](`, `(0, f)(`, `f?.(`).
    fn call_position(&self, c: &CallExpression<'_>) -> u32 {
        if !c.optional {
            match &c.callee {
                Expression::Identifier(id) => return id.span.start,
                Expression::StaticMemberExpression(m) => return m.property.span.start,
                _ => {}
            }
        }
        open_paren_after(self.source, c.callee.span().end).unwrap_or(c.span.start)
    }

    fn compile_call_args(&mut self, c: &'s CallExpression<'s>, is_direct_eval: bool) -> CResult<()> {
        if has_spread(&c.arguments) {
            self.compile_args_array(&c.arguments)?;
            self.mark(self.call_position(c));
            if is_direct_eval {
                let at = self.pc();
                self.record_eval_site(&c.callee, at);
                self.note_callee(&c.callee);
                self.emit(Op::CallEvalSpread);
            } else {
                self.note_callee(&c.callee);
                self.emit(Op::CallSpread);
            }
        } else {
            for a in &c.arguments {
                self.compile_argument(a)?;
            }
            self.mark(self.call_position(c));
            let n = c.arguments.len() as u32;
            if is_direct_eval {
                let at = self.pc();
                self.record_eval_site(&c.callee, at);
                self.note_callee(&c.callee);
                self.emit(Op::CallEval(n));
            } else {
                self.note_callee(&c.callee);
                self.emit(Op::Call(n));
            }
        }
        Ok(())
    }

    pub(crate) fn compile_argument(&mut self, a: &'s Argument<'s>) -> CResult<()> {
        match a.as_expression() {
            Some(e) => self.compile_expr(e),
            None => Ok(()),
        }
    }

    /// Build an arguments array (for spread calls).
    pub(crate) fn compile_args_array(&mut self, args: &'s [Argument<'s>]) -> CResult<()> {
        self.emit(Op::NewArray(args.len() as u32));
        for a in args {
            match a {
                Argument::SpreadElement(s) => {
                    self.compile_expr(&s.argument)?;
                    self.note_error_site(crate::bytecode::ErrorHint::SpreadArgument, String::new(), None);
                    self.emit(Op::ArraySpread);
                }
                other => {
                    if let Some(e) = other.as_expression() {
                        self.compile_expr(e)?;
                        self.emit(Op::ArrayPush);
                    }
                }
            }
        }
        Ok(())
    }

    // ---- generators

    fn compile_yield(&mut self, y: &'s YieldExpression<'s>) -> CResult<()> {
        let is_async = self.func.code.kind.is_async();
        if y.delegate {
            let Some(arg) = &y.argument else { return Err(self.error("yield* needs an operand", y.span.start)) };
            self.compile_expr(arg)?;
            self.emit(if is_async { Op::GetAsyncIterator } else { Op::GetIterator });
            let mode_reg = self.temp();
            self.emit(Op::Undefined);
            self.emit(Op::Int(0));
            let top = self.pc();
            self.emit(Op::Dup);
            self.emit(Op::SetLocal(mode_reg));
            self.emit(Op::DelegateStep);
            if is_async {
                self.emit(Op::Await);
            }
            self.emit(Op::Dup);
            let ic = self.new_ic();
            self.emit(Op::GetProp { name: atom::done, ic });
            let done = self.emit_jump(Op::JumpIfTrue);
            if is_async {
                let ic = self.new_ic();
                self.emit(Op::GetProp { name: atom::value, ic });
                self.emit(Op::Yield);
            } else {
                self.emit(Op::YieldRaw);
            }
            self.emit(Op::Jump(top));
            self.patch(done);
            // Stack: it next result
            self.func.depth -= 1;
            let ic = self.new_ic();
            self.emit(Op::GetProp { name: atom::value, ic });
            self.emit(Op::Rot3);
            self.emit(Op::Pop);
            self.emit(Op::Pop);
            self.emit(Op::GetLocal(mode_reg));
            self.emit(Op::Int(2));
            self.emit(Op::StrictEq);
            let not_return = self.emit_jump(Op::JumpIfFalse);
            self.compile_return()?;
            self.func.depth += 1;
            self.patch(not_return);
            self.free_temp(mode_reg);
            return Ok(());
        }
        match &y.argument {
            Some(a) => self.compile_expr(a)?,
            None => self.emit(Op::Undefined),
        }
        if is_async {
            self.emit(Op::Await);
        }
        self.emit(Op::Yield);
        let ret = self.emit_jump(Op::ResumeCheck);
        let skip = self.emit_jump(Op::Jump);
        self.patch(ret);
        // Return-mode resumption: the value is on the stack.
        if is_async {
            self.emit(Op::Await);
        }
        self.compile_return()?;
        self.func.depth += 1;
        self.patch(skip);
        Ok(())
    }

    /// Push the private-name symbol for `#name`.
    pub(crate) fn emit_private_key(&mut self, name: &str, offset: u32) -> CResult<()> {
        for scope in self.private_names.iter().rev() {
            if let Some((_, loc)) = scope.iter().find(|(n, _)| n == name) {
                let loc = *loc;
                self.emit_load(loc, false);
                return Ok(());
            }
        }
        if let Some(loc) = self.eval_private_lookup(name) {
            self.emit_load(loc, false);
            return Ok(());
        }
        Err(self.error(format!("Private field '#{name}' must be declared in an enclosing class"), offset))
    }

    fn eval_private_lookup(&mut self, name: &str) -> Option<super::Loc> {
        let scope = self.eval_scope.as_ref()?;
        scope.lookup(&format!("#{name}")).map(|n| super::Loc::Env { level: n.level, slot: n.slot })
    }
}

pub(crate) fn has_spread(args: &[Argument]) -> bool {
    args.iter().any(|a| matches!(a, Argument::SpreadElement(_)))
}

pub(super) fn binary_op(op: BinaryOperator) -> Op {
    match op {
        BinaryOperator::Equality => Op::Eq,
        BinaryOperator::Inequality => Op::Ne,
        BinaryOperator::StrictEquality => Op::StrictEq,
        BinaryOperator::StrictInequality => Op::StrictNe,
        BinaryOperator::LessThan => Op::Lt,
        BinaryOperator::LessEqualThan => Op::Le,
        BinaryOperator::GreaterThan => Op::Gt,
        BinaryOperator::GreaterEqualThan => Op::Ge,
        BinaryOperator::Addition => Op::Add,
        BinaryOperator::Subtraction => Op::Sub,
        BinaryOperator::Multiplication => Op::Mul,
        BinaryOperator::Division => Op::Div,
        BinaryOperator::Remainder => Op::Mod,
        BinaryOperator::Exponential => Op::Exp,
        BinaryOperator::ShiftLeft => Op::Shl,
        BinaryOperator::ShiftRight => Op::Sar,
        BinaryOperator::ShiftRightZeroFill => Op::Shr,
        BinaryOperator::BitwiseOR => Op::BitOr,
        BinaryOperator::BitwiseXOR => Op::BitXor,
        BinaryOperator::BitwiseAnd => Op::BitAnd,
        BinaryOperator::In => Op::In,
        BinaryOperator::Instanceof => Op::InstanceOf,
    }
}

/// The offset of the `(` that opens a call's arguments, the first one at or after `from`
/// past whitespace, comments, closing parentheses and a `?.`.
fn open_paren_after(source: &str, from: u32) -> Option<u32> {
    let bytes = source.as_bytes();
    let mut i = from as usize;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => return u32::try_from(i).ok(),
            b'?' if bytes.get(i + 1) == Some(&b'.') => i += 2,
            // The close of a parenthesized callee, when the tree keeps no parentheses.
            b')' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += source[i..].find('\n').unwrap_or(source.len() - i);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2 + source[i + 2..].find("*/").map_or(source.len() - i - 2, |end| end + 2);
            }
            c if c.is_ascii_whitespace() => i += 1,
            // Unicode whitespace or line terminators (U+00A0, U+2028, U+FEFF, ...).
            c if c >= 0x80 => i += source[i..].chars().next().map_or(1, char::len_utf8),
            _ => return None,
        }
    }
    None
}
