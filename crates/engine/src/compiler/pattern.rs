//! Destructuring: binding patterns (declarations, parameters) and assignment patterns share
//! one array and one object algorithm over [`Target`].

use oxc_ast::ast::*;

use super::{call_site, CResult, Compiler, PatternSubject};
use crate::atoms::Atom;
use crate::bytecode::{ErrorHint, Op};

/// Something a destructured value is stored into.
#[derive(Clone, Copy)]
pub(crate) enum Target<'s> {
    Binding(&'s BindingPattern<'s>, bool),
    Assign(&'s AssignmentTarget<'s>),
    AssignMaybeDefault(&'s AssignmentTargetMaybeDefault<'s>),
}

/// A member expression target whose reference was evaluated before the value it receives
/// (AssignmentElement and AssignmentProperty evaluate DestructuringAssignmentTarget before
/// IteratorStep / GetV, §13.15.5.5–6): its parts wait in temporaries.
enum Prepared {
    Static { obj: u32, name: Atom },
    Computed { obj: u32, key: u32 },
    Private { obj: u32, key: u32 },
    Super { base: u32, key: u32 },
}

/// A property key in an object pattern.
enum KeyRef<'s> {
    Static(Atom),
    Computed(&'s PropertyKey<'s>),
}

impl<'s> Compiler<'s, '_> {
    /// Bind the value on the stack (consumed) to a binding pattern.
    pub(crate) fn compile_binding_init(&mut self, p: &'s BindingPattern<'s>, lexical: bool) -> CResult<()> {
        self.store_target(Target::Binding(p, lexical))
    }

    /// Assign the value on the stack (consumed) to an assignment target.
    pub(crate) fn compile_assign_to_target(&mut self, t: &'s AssignmentTarget<'s>) -> CResult<()> {
        self.store_target(Target::Assign(t))
    }

    /// As [`Self::compile_binding_init`], for the value of `subject` (what its error names).
    pub(crate) fn compile_binding_init_from(
        &mut self,
        p: &'s BindingPattern<'s>,
        lexical: bool,
        subject: PatternSubject<'s>,
    ) -> CResult<()> {
        self.func.pattern_subject = Some(subject);
        let r = self.compile_binding_init(p, lexical);
        self.func.pattern_subject = None;
        r
    }

    /// As [`Self::compile_assign_to_target`], for the value of `subject`.
    pub(crate) fn compile_assign_to_target_from(
        &mut self,
        t: &'s AssignmentTarget<'s>,
        subject: PatternSubject<'s>,
    ) -> CResult<()> {
        self.func.pattern_subject = Some(subject);
        let r = self.compile_assign_to_target(t);
        self.func.pattern_subject = None;
        r
    }

    fn store_target(&mut self, t: Target<'s>) -> CResult<()> {
        match t {
            Target::Binding(p, lexical) => match p {
                BindingPattern::BindingIdentifier(id) => {
                    match id.symbol_id.get() {
                        Some(sym) => {
                            if lexical {
                                self.emit_init(sym);
                            } else {
                                let loc = self.loc_of(sym);
                                self.emit_var_store(id.name.as_str(), loc);
                            }
                        }
                        None => self.emit(Op::Pop),
                    }
                    Ok(())
                }
                BindingPattern::AssignmentPattern(a) => {
                    self.emit_default(&a.right, super::stmt::binding_name(&a.left).as_deref())?;
                    self.store_target(Target::Binding(&a.left, lexical))
                }
                BindingPattern::ObjectPattern(o) => {
                    let props: Vec<(KeyRef<'s>, Target<'s>, Option<String>)> = o
                        .properties
                        .iter()
                        .map(|bp| {
                            let name = self.static_key_name(&bp.key, bp.computed);
                            (self.key_ref(&bp.key, bp.computed), Target::Binding(&bp.value, lexical), name)
                        })
                        .collect();
                    let rest = o.rest.as_ref().map(|r| Target::Binding(&r.argument, lexical));
                    self.destructure_object(props, rest)
                }
                BindingPattern::ArrayPattern(a) => {
                    let elems: Vec<Option<Target<'s>>> =
                        a.elements.iter().map(|e| e.as_ref().map(|p| Target::Binding(p, lexical))).collect();
                    let rest = a.rest.as_ref().map(|r| Target::Binding(&r.argument, lexical));
                    self.destructure_array(elems, rest)
                }
            },
            Target::Assign(t) => match t {
                AssignmentTarget::ArrayAssignmentTarget(a) => {
                    let elems: Vec<Option<Target<'s>>> =
                        a.elements.iter().map(|e| e.as_ref().map(Target::AssignMaybeDefault)).collect();
                    let rest = a.rest.as_ref().map(|r| Target::Assign(&r.target));
                    self.destructure_array(elems, rest)
                }
                AssignmentTarget::ObjectAssignmentTarget(o) => {
                    let rest = o.rest.as_ref().map(|r| Target::Assign(&r.target));
                    self.destructure_object_assign(o, rest)
                }
                simple => self.store_simple(simple),
            },
            Target::AssignMaybeDefault(m) => match m {
                AssignmentTargetMaybeDefault::AssignmentTargetWithDefault(d) => {
                    let name = match &d.binding {
                        AssignmentTarget::AssignmentTargetIdentifier(id) => Some(id.name.to_string()),
                        _ => None,
                    };
                    self.emit_default(&d.init, name.as_deref())?;
                    self.store_target(Target::Assign(&d.binding))
                }
                other => match other.as_assignment_target() {
                    Some(t) => self.store_target(Target::Assign(t)),
                    None => {
                        self.emit(Op::Pop);
                        Ok(())
                    }
                },
            },
        }
    }

    /// Store (popping) a `var` declaration's value. Inside a `with` the name is resolved at
    /// run time: an object of the `with` that has the property receives it.
    fn emit_var_store(&mut self, name: &str, loc: super::Loc) {
        if self.func.with_depth == 0 {
            return self.emit_store(loc, false);
        }
        let a = self.atom(name);
        match loc {
            super::Loc::Env { level, slot } => {
                let depth = self.env_depth_to(level);
                self.emit(Op::SetNameEnv { name: a, depth, slot, checked: false });
            }
            super::Loc::Global(_) | super::Loc::EvalVar(_) => self.emit(Op::SetName { name: a, strict: false }),
            super::Loc::Register(_) | super::Loc::Import(_) => self.emit_store(loc, false),
        }
    }

    /// The member expression a target stores into (through a default, if any).
    fn member_target(t: Target<'s>) -> Option<&'s AssignmentTarget<'s>> {
        let t = match t {
            Target::Binding(..) => return None,
            Target::Assign(t) => t,
            Target::AssignMaybeDefault(AssignmentTargetMaybeDefault::AssignmentTargetWithDefault(d)) => &d.binding,
            Target::AssignMaybeDefault(m) => m.as_assignment_target()?,
        };
        matches!(
            t,
            AssignmentTarget::StaticMemberExpression(_)
                | AssignmentTarget::ComputedMemberExpression(_)
                | AssignmentTarget::PrivateFieldExpression(_)
        )
        .then_some(t)
    }

    /// Evaluate a member target's reference into temporaries, before its value exists.
    fn prepare_target(&mut self, t: Target<'s>) -> CResult<Option<Prepared>> {
        let Some(member) = Self::member_target(t) else { return Ok(None) };
        let save = |c: &mut Self| {
            let r = c.temp();
            c.emit(Op::SetLocal(r));
            r
        };
        let prepared = match member {
            AssignmentTarget::StaticMemberExpression(m) if matches!(m.object, Expression::Super(_)) => {
                self.emit(Op::SuperBase);
                let base = save(self);
                self.emit_string(m.property.name.as_str());
                Prepared::Super { base, key: save(self) }
            }
            AssignmentTarget::StaticMemberExpression(m) => {
                self.compile_expr(&m.object)?;
                Prepared::Static { obj: save(self), name: self.atom(m.property.name.as_str()) }
            }
            AssignmentTarget::ComputedMemberExpression(m) if matches!(m.object, Expression::Super(_)) => {
                self.emit_super_this_check();
                self.emit(Op::SuperBase);
                let base = save(self);
                self.compile_expr(&m.expression)?;
                self.emit(Op::ToPropertyKey);
                Prepared::Super { base, key: save(self) }
            }
            AssignmentTarget::ComputedMemberExpression(m) => {
                self.compile_expr(&m.object)?;
                let obj = save(self);
                self.compile_expr(&m.expression)?;
                Prepared::Computed { obj, key: save(self) }
            }
            AssignmentTarget::PrivateFieldExpression(p) => {
                self.compile_expr(&p.object)?;
                let obj = save(self);
                self.emit_private_key(p.field.name.as_str(), p.span.start)?;
                Prepared::Private { obj, key: save(self) }
            }
            _ => return Ok(None),
        };
        Ok(Some(prepared))
    }

    /// Store the value on the stack (consumed) into `t`, whose reference `prepared` holds
    /// when it is a member target (applying its default first).
    fn store_prepared(&mut self, t: Target<'s>, prepared: Option<Prepared>) -> CResult<()> {
        let Some(prepared) = prepared else { return self.store_target(t) };
        if let Target::AssignMaybeDefault(AssignmentTargetMaybeDefault::AssignmentTargetWithDefault(d)) = t {
            self.emit_default(&d.init, None)?;
        }
        // value → object key value (or object value), then the store.
        let strict = self.func.code.strict;
        let (first, second, op) = match prepared {
            Prepared::Static { obj, name } => {
                let ic = self.new_ic();
                (obj, None, Op::SetProp { name, ic, strict })
            }
            Prepared::Computed { obj, key } => (obj, Some(key), Op::SetElem { strict }),
            Prepared::Private { obj, key } => (obj, Some(key), Op::SetPrivate),
            Prepared::Super { base, key } => (base, Some(key), Op::SetSuper { strict: self.func.code.strict }),
        };
        self.emit(Op::GetLocal(first));
        self.emit(Op::Swap);
        self.free_temp(first);
        if let Some(key) = second {
            self.emit(Op::GetLocal(key));
            self.emit(Op::Swap);
            self.free_temp(key);
        }
        self.emit(op);
        self.emit(Op::Pop);
        Ok(())
    }

    /// Store into an identifier or member target (value on the stack, consumed).
    fn store_simple(&mut self, t: &'s AssignmentTarget<'s>) -> CResult<()> {
        match t {
            AssignmentTarget::AssignmentTargetIdentifier(id) => self.emit_identifier_store(id),
            AssignmentTarget::StaticMemberExpression(_)
            | AssignmentTarget::ComputedMemberExpression(_)
            | AssignmentTarget::PrivateFieldExpression(_) => {
                // Reached with the value already computed (a `for (x.y of …)` head): the
                // reference is evaluated now, into temporaries, and the value stored.
                let v = self.temp();
                self.emit(Op::SetLocal(v));
                let prepared = self.prepare_target(Target::Assign(t))?;
                self.emit(Op::GetLocal(v));
                self.free_temp(v);
                self.store_prepared(Target::Assign(t), prepared)
            }
            other => match other.as_assignment_target_pattern() {
                Some(_) => self.store_target(Target::Assign(other)),
                None => Err(self.error("Invalid destructuring assignment target", 0)),
            },
        }
    }

    /// `[v]` → `[v or default]` when v is undefined.
    fn emit_default(&mut self, init: &'s Expression<'s>, name: Option<&str>) -> CResult<()> {
        self.emit(Op::Dup);
        let have = self.emit_jump(Op::JumpIfNotUndefined);
        self.emit(Op::Pop);
        self.compile_expr_named(init, name)?;
        self.patch(have);
        Ok(())
    }

    fn key_ref(&mut self, key: &'s PropertyKey<'s>, computed: bool) -> KeyRef<'s> {
        match self.static_key_name(key, computed) {
            // `{ 0: x }`: an array-index key is an index, not an atom; read it as computed.
            Some(n) if is_array_index(&n) && key.as_expression().is_some() => KeyRef::Computed(key),
            Some(n) => KeyRef::Static(self.atom(&n)),
            None => KeyRef::Computed(key),
        }
    }

    /// Note what a TypeError of the object pattern's `RequireObjectCoercible` names (its
    /// subject taken), and return the text a pattern nested in it names its value by.
    fn note_object_pattern(&mut self, first_key: Option<String>) -> Option<String> {
        let subject = self.func.pattern_subject.take();
        let (hint, text, property) = match subject {
            Some(PatternSubject::Init(e) | PatternSubject::Assigned(e)) => {
                (ErrorHint::Destructure, call_site::render(e, false), first_key)
            }
            Some(PatternSubject::Internal(name)) => (ErrorHint::Destructure, name.to_string(), first_key),
            // A parameter's argument: V8 names the value itself (an empty text).
            None => (ErrorHint::Destructure, String::new(), first_key),
            // V8 reads a nested pattern's first property like a member access; without one,
            // it names the outer pattern's property and value.
            Some(PatternSubject::Nested { key, outer }) => match (first_key, key, outer) {
                (Some(first), _, _) => (ErrorHint::NestedRead, String::new(), Some(first)),
                (None, Some(key), Some(outer)) => (ErrorHint::Destructure, outer, Some(key)),
                (None, None, _) => (ErrorHint::NestedRead, String::new(), None),
                (None, ..) => {
                    self.emit(Op::RequireObjectCoercible);
                    return None;
                }
            },
        };
        let outer = (hint == ErrorHint::Destructure && !text.is_empty()).then(|| text.clone());
        self.note_error_site(hint, text, property);
        self.emit(Op::RequireObjectCoercible);
        outer
    }

    /// Store the value on the stack into a property's target, naming it for a pattern
    /// nested there.
    fn store_property(
        &mut self,
        target: Target<'s>,
        prepared: Option<Prepared>,
        key: Option<String>,
        outer: &Option<String>,
    ) -> CResult<()> {
        self.func.pattern_subject = Some(PatternSubject::Nested { key, outer: outer.clone() });
        let r = self.store_prepared(target, prepared);
        self.func.pattern_subject = None;
        r
    }

    fn destructure_object(
        &mut self,
        props: Vec<(KeyRef<'s>, Target<'s>, Option<String>)>,
        rest: Option<Target<'s>>,
    ) -> CResult<()> {
        let first_key = props.first().and_then(|p| p.2.clone());
        let outer = self.note_object_pattern(first_key);
        let mut computed_keys: Vec<u32> = Vec::new();
        let mut static_keys: Vec<Atom> = Vec::new();
        for (key, target, name) in props {
            self.emit(Op::Dup);
            let prepared = match key {
                KeyRef::Static(a) => {
                    static_keys.push(a);
                    let prepared = self.prepare_target(target)?;
                    let ic = self.new_ic();
                    self.emit(Op::GetProp { name: a, ic });
                    prepared
                }
                KeyRef::Computed(k) => {
                    if let Some(e) = k.as_expression() {
                        self.compile_expr(e)?;
                    }
                    self.emit(Op::ToPropertyKey);
                    if rest.is_some() {
                        let t = self.temp();
                        self.emit(Op::Dup);
                        self.emit(Op::SetLocal(t));
                        computed_keys.push(t);
                    }
                    let prepared = self.prepare_target(target)?;
                    self.emit(Op::GetElem);
                    prepared
                }
            };
            self.store_property(target, prepared, name, &outer)?;
        }
        if let Some(r) = rest {
            let n = static_keys.len() + computed_keys.len();
            // Stack: obj → obj src k1..kn
            self.emit(Op::Dup);
            for a in &static_keys {
                let s = self.vm.heap.atoms.get(*a).clone();
                let c = self.js_string_constant(s);
                self.emit(Op::Const(c));
            }
            for &t in &computed_keys {
                self.emit(Op::GetLocal(t));
                self.free_temp(t);
            }
            let prepared = self.prepare_target(r)?;
            self.emit(Op::CopyRest(n as u32));
            // obj src rest → store rest, drop src
            self.store_prepared(r, prepared)?;
            self.emit(Op::Pop);
        }
        self.emit(Op::Pop);
        Ok(())
    }

    /// Object assignment pattern: like [`Self::destructure_object`], with shorthand
    /// identifier properties (which have no target node of their own) stored directly.
    fn destructure_object_assign(
        &mut self,
        o: &'s ObjectAssignmentTarget<'s>,
        rest: Option<Target<'s>>,
    ) -> CResult<()> {
        let first_key = o.properties.first().and_then(|p| match p {
            AssignmentTargetProperty::AssignmentTargetPropertyIdentifier(id) => Some(id.binding.name.to_string()),
            AssignmentTargetProperty::AssignmentTargetPropertyProperty(pp) => {
                self.static_key_name(&pp.name, pp.computed)
            }
        });
        let outer = self.note_object_pattern(first_key);
        let mut static_keys = Vec::new();
        let mut computed_keys = Vec::new();
        for p in &o.properties {
            self.emit(Op::Dup);
            match p {
                AssignmentTargetProperty::AssignmentTargetPropertyIdentifier(id) => {
                    let a = self.atom(id.binding.name.as_str());
                    static_keys.push(a);
                    let ic = self.new_ic();
                    self.emit(Op::GetProp { name: a, ic });
                    if let Some(init) = &id.init {
                        let n = id.binding.name.to_string();
                        self.emit_default(init, Some(&n))?;
                    }
                    self.emit_identifier_store(&id.binding)?;
                }
                AssignmentTargetProperty::AssignmentTargetPropertyProperty(pp) => {
                    let target = Target::AssignMaybeDefault(&pp.binding);
                    let name = self.static_key_name(&pp.name, pp.computed);
                    let prepared = match self.key_ref(&pp.name, pp.computed) {
                        KeyRef::Static(a) => {
                            static_keys.push(a);
                            let prepared = self.prepare_target(target)?;
                            let ic = self.new_ic();
                            self.emit(Op::GetProp { name: a, ic });
                            prepared
                        }
                        KeyRef::Computed(k) => {
                            if let Some(e) = k.as_expression() {
                                self.compile_expr(e)?;
                            }
                            self.emit(Op::ToPropertyKey);
                            let t = self.temp();
                            self.emit(Op::Dup);
                            self.emit(Op::SetLocal(t));
                            computed_keys.push(t);
                            let prepared = self.prepare_target(target)?;
                            self.emit(Op::GetElem);
                            prepared
                        }
                    };
                    self.store_property(target, prepared, name, &outer)?;
                }
            }
        }
        if let Some(r) = rest {
            let n = static_keys.len() + computed_keys.len();
            self.emit(Op::Dup);
            for a in &static_keys {
                let s = self.vm.heap.atoms.get(*a).clone();
                let c = self.js_string_constant(s);
                self.emit(Op::Const(c));
            }
            for &t in &computed_keys {
                self.emit(Op::GetLocal(t));
            }
            let prepared = self.prepare_target(r)?;
            self.emit(Op::CopyRest(n as u32));
            self.store_prepared(r, prepared)?;
            self.emit(Op::Pop);
        }
        for t in computed_keys {
            self.free_temp(t);
        }
        self.emit(Op::Pop);
        Ok(())
    }

    fn destructure_array(&mut self, elems: Vec<Option<Target<'s>>>, rest: Option<Target<'s>>) -> CResult<()> {
        // V8 names the iterable of a declaration whose initialiser starts where its error
        // position is (not a member access or a sequence), and `.for`; others by value.
        match self.func.pattern_subject.take() {
            Some(PatternSubject::Init(e)) if call_site::starts_at_own_position(e) => self.note_iterable(e, false),
            Some(PatternSubject::Internal(name)) => self.note_error_site(ErrorHint::Iterable, name.to_string(), None),
            _ => {}
        }
        self.emit(Op::GetIterator);
        let base = self.func.depth; // it next
        let done = self.temp();
        self.emit(Op::False);
        self.emit(Op::SetLocal(done));
        let start = self.pc();
        let env_depth = self.env_depth_in_function();
        self.func.controls.push(super::Control::Iterator {
            depth: base - 2,
            is_async: false,
            holes: Vec::new(),
            done: Some(done),
        });
        for elem in elems {
            let prepared = match elem {
                Some(t) => self.prepare_target(t)?,
                None => None,
            };
            // value or undefined once exhausted
            self.emit(Op::GetLocal(done));
            let skip = self.emit_jump(Op::JumpIfTrue);
            self.emit(Op::True);
            self.emit(Op::SetLocal(done));
            let exhausted = self.emit_jump(Op::IteratorStep);
            self.emit(Op::False);
            self.emit(Op::SetLocal(done));
            let have = self.emit_jump(Op::Jump);
            self.func.depth -= 1;
            self.patch(skip);
            self.patch(exhausted);
            self.emit(Op::Undefined);
            self.patch(have);
            match elem {
                Some(t) => self.store_property(t, prepared, None, &None)?,
                None => self.emit(Op::Pop),
            }
        }
        if let Some(r) = rest {
            let prepared = self.prepare_target(r)?;
            let arr = self.temp();
            self.emit(Op::NewArray(0));
            self.emit(Op::SetLocal(arr));
            self.emit(Op::GetLocal(done));
            let finished = self.emit_jump(Op::JumpIfTrue);
            let top = self.pc();
            self.emit(Op::True);
            self.emit(Op::SetLocal(done));
            let end = self.emit_jump(Op::IteratorStep);
            self.emit(Op::False);
            self.emit(Op::SetLocal(done));
            self.emit(Op::GetLocal(arr));
            self.emit(Op::Swap);
            self.emit(Op::ArrayPush);
            self.emit(Op::Pop);
            self.emit(Op::Jump(top));
            self.func.depth = base;
            self.patch(end);
            self.patch(finished);
            self.emit(Op::GetLocal(arr));
            self.free_temp(arr);
            self.store_prepared(r, prepared)?;
        }
        let end_body = self.pc();
        let holes = match self.func.controls.pop() {
            Some(super::Control::Iterator { holes, .. }) => holes,
            _ => Vec::new(),
        };
        // Close the iterator unless it is exhausted.
        self.emit(Op::GetLocal(done));
        let no_close = self.emit_jump(Op::JumpIfTrue);
        self.emit(Op::IteratorClose);
        let out = self.emit_jump(Op::Jump);
        self.func.depth = base;
        self.patch(no_close);
        self.emit(Op::Pop);
        self.emit(Op::Pop);
        let out2 = self.emit_jump(Op::Jump);
        // Abrupt completion inside: close (unless the iterator itself failed), rethrow.
        // A `return` exit's closing code (see `Control::Iterator`) is not covered.
        let handler = self.pc();
        let mut from = start;
        for (hole_start, hole_end) in holes {
            self.add_handler(from, hole_start, handler, base, env_depth);
            from = hole_end;
        }
        self.add_handler(from, end_body, handler, base, env_depth);
        self.func.depth = base + 1;
        self.emit(Op::GetLocal(done));
        let rethrow = self.emit_jump(Op::JumpIfTrue);
        self.emit(Op::IteratorCloseQuiet);
        self.emit(Op::Throw);
        self.func.depth = base + 1;
        self.patch(rethrow);
        self.emit(Op::Rot3);
        self.emit(Op::Pop);
        self.emit(Op::Pop);
        self.emit(Op::Throw);
        self.func.depth = base - 2;
        self.patch(out);
        self.patch(out2);
        self.free_temp(done);
        Ok(())
    }
}

/// Whether `name` is the canonical string of an array index (0 ..= 2^32 - 2).
fn is_array_index(name: &str) -> bool {
    name.parse::<u32>().is_ok_and(|n| n != u32::MAX && n.to_string() == name)
}
