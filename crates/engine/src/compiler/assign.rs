//! Assignments and updates: `=`, the compound operators, the logical assignments, `++`/`--`,
//! and the name an anonymous function takes from the member it is assigned to.

use oxc_ast::ast::*;
use oxc_syntax::operator::{AssignmentOperator, UpdateOperator};

use super::{CResult, Compiler};
use crate::bytecode::Op;

impl<'s> Compiler<'s, '_> {
    pub(super) fn compile_assignment(&mut self, a: &'s AssignmentExpression<'s>) -> CResult<()> {
        self.compile_assignment_value(a, true).map(|_| ())
    }

    /// Compile an assignment; with `keep` false its value is not needed, and a store to a
    /// binding leaves it off the stack. Returns whether the value is on the stack.
    pub(super) fn compile_assignment_value(&mut self, a: &'s AssignmentExpression<'s>, keep: bool) -> CResult<bool> {
        let op = a.operator;
        if op == AssignmentOperator::Assign {
            match &a.left {
                AssignmentTarget::AssignmentTargetIdentifier(id) => {
                    // NamedEvaluation only for a bare identifier: `(f) = function () {}` is a
                    // parenthesised target (IsIdentifierRef is false), whose span starts later.
                    let bare = a.span.start == id.span.start;
                    let name = bare.then(|| id.name.to_string());
                    if let Some(r) = self.emit_reference_resolve(id) {
                        self.compile_expr_named(&a.right, name.as_deref())?;
                        self.emit_reference_put(r);
                        return Ok(true);
                    }
                    self.compile_expr_named(&a.right, name.as_deref())?;
                    if !keep {
                        self.emit_identifier_store(id)?;
                        return Ok(false);
                    }
                    self.emit(Op::Dup);
                    self.emit_identifier_store(id)?;
                }
                AssignmentTarget::StaticMemberExpression(m) if !matches!(m.object, Expression::Super(_)) => {
                    self.compile_expr(&m.object)?;
                    self.inferred_name = inferred_name(&a.left, &a.right);
                    self.compile_expr(&a.right)?;
                    self.inferred_name = None;
                    let name = self.atom(m.property.name.as_str());
                    let ic = self.new_ic();
                    let strict = self.func.code.strict;
                    self.mark(a.span.start);
                    if !keep {
                        self.emit(Op::PutProp { name, ic, strict });
                        return Ok(false);
                    }
                    self.emit(Op::SetProp { name, ic, strict });
                }
                AssignmentTarget::ComputedMemberExpression(m) if !matches!(m.object, Expression::Super(_)) => {
                    self.compile_expr(&m.object)?;
                    self.compile_expr(&m.expression)?;
                    self.inferred_name = inferred_name(&a.left, &a.right);
                    self.compile_expr(&a.right)?;
                    self.inferred_name = None;
                    let strict = self.func.code.strict;
                    self.mark(a.span.start);
                    if !keep {
                        self.emit(Op::PutElem { strict });
                        return Ok(false);
                    }
                    self.emit(Op::SetElem { strict });
                }
                AssignmentTarget::PrivateFieldExpression(p) => {
                    self.compile_expr(&p.object)?;
                    self.emit_private_key(p.field.name.as_str(), p.span.start)?;
                    self.compile_expr(&a.right)?;
                    self.emit(Op::SetPrivate);
                }
                target => {
                    if let Some(simple) = target.as_simple_assignment_target() {
                        if let Some(m) = simple.as_member_expression() {
                            // super.x = v
                            self.emit_super_reference(m)?;
                            self.compile_expr(&a.right)?;
                            self.emit(Op::SetSuper { strict: self.func.code.strict });
                            return Ok(true);
                        }
                    }
                    // Destructuring assignment.
                    self.compile_expr(&a.right)?;
                    self.emit(Op::Dup);
                    self.compile_assign_to_target_from(&a.left, super::PatternSubject::Assigned(&a.right))?;
                }
            }
            return Ok(true);
        }
        if matches!(
            op,
            AssignmentOperator::LogicalAnd | AssignmentOperator::LogicalOr | AssignmentOperator::LogicalNullish
        ) {
            self.compile_logical_assignment(a)?;
            return Ok(true);
        }
        let bin = compound_op(op);
        match &a.left {
            AssignmentTarget::AssignmentTargetIdentifier(id) => {
                if let Some(r) = self.emit_reference_resolve(id) {
                    self.emit_reference_get(r);
                    self.compile_expr(&a.right)?;
                    self.emit(bin);
                    self.emit_reference_put(r);
                    return Ok(true);
                }
                self.emit_identifier_load(id, false)?;
                self.compile_expr(&a.right)?;
                self.emit(bin);
                if !keep {
                    self.emit_identifier_store(id)?;
                    return Ok(false);
                }
                self.emit(Op::Dup);
                self.emit_identifier_store(id)?;
            }
            AssignmentTarget::StaticMemberExpression(m) if !matches!(m.object, Expression::Super(_)) => {
                self.compile_expr(&m.object)?;
                self.emit(Op::Dup);
                let name = self.atom(m.property.name.as_str());
                let ic = self.new_ic();
                self.emit(Op::GetProp { name, ic });
                self.compile_expr(&a.right)?;
                self.emit(bin);
                let ic = self.new_ic();
                let strict = self.func.code.strict;
                self.emit(Op::SetProp { name, ic, strict });
            }
            AssignmentTarget::ComputedMemberExpression(m) if !matches!(m.object, Expression::Super(_)) => {
                self.compile_expr(&m.object)?;
                self.compile_expr(&m.expression)?;
                self.emit(Op::ToPropertyKeyOfBase);
                self.emit(Op::Dup2);
                self.emit(Op::GetElem);
                self.compile_expr(&a.right)?;
                self.emit(bin);
                let strict = self.func.code.strict;
                self.emit(Op::SetElem { strict });
            }
            AssignmentTarget::PrivateFieldExpression(p) => {
                self.compile_expr(&p.object)?;
                self.emit_private_key(p.field.name.as_str(), p.span.start)?;
                self.emit(Op::Dup2);
                self.emit(Op::GetPrivate);
                self.compile_expr(&a.right)?;
                self.emit(bin);
                self.emit(Op::SetPrivate);
            }
            target => {
                let Some(m) = target.as_simple_assignment_target().and_then(|s| s.as_member_expression()) else {
                    return Err(self.error("Invalid left-hand side in assignment", a.span.start));
                };
                self.emit_super_reference(m)?;
                self.emit(Op::Dup2);
                self.emit(Op::GetSuper);
                self.compile_expr(&a.right)?;
                self.emit(bin);
                self.emit(Op::SetSuper { strict: self.func.code.strict });
            }
        }
        Ok(true)
    }

    fn compile_logical_assignment(&mut self, a: &'s AssignmentExpression<'s>) -> CResult<()> {
        let jump: fn(u32) -> Op = match a.operator {
            AssignmentOperator::LogicalAnd => Op::JumpIfFalseKeep,
            AssignmentOperator::LogicalOr => Op::JumpIfTrueKeep,
            _ => Op::JumpIfNotNullishKeep,
        };
        match &a.left {
            AssignmentTarget::AssignmentTargetIdentifier(id) => {
                if let Some(r) = self.emit_reference_resolve(id) {
                    self.emit_reference_get(r);
                    let short = self.emit_jump(jump);
                    let name = id.name.to_string();
                    self.compile_expr_named(&a.right, Some(&name))?;
                    self.emit_reference_put(r);
                    let end = self.emit_jump(Op::Jump);
                    self.patch(short);
                    // Stack: base value
                    self.func.depth += 1;
                    self.emit(Op::Swap);
                    self.emit(Op::Pop);
                    self.patch(end);
                    return Ok(());
                }
                self.emit_identifier_load(id, false)?;
                let short = self.emit_jump(jump);
                let name = id.name.to_string();
                self.compile_expr_named(&a.right, Some(&name))?;
                self.emit(Op::Dup);
                self.emit_identifier_store(id)?;
                self.patch(short);
            }
            AssignmentTarget::StaticMemberExpression(m) if !matches!(m.object, Expression::Super(_)) => {
                self.compile_expr(&m.object)?;
                self.emit(Op::Dup);
                let name = self.atom(m.property.name.as_str());
                let ic = self.new_ic();
                self.emit(Op::GetProp { name, ic });
                let short = self.emit_jump(jump);
                self.compile_expr(&a.right)?;
                let ic = self.new_ic();
                let strict = self.func.code.strict;
                self.emit(Op::SetProp { name, ic, strict });
                let end = self.emit_jump(Op::Jump);
                self.patch(short);
                // Stack: obj value
                self.func.depth += 1;
                self.emit(Op::Swap);
                self.emit(Op::Pop);
                self.patch(end);
            }
            AssignmentTarget::ComputedMemberExpression(m) if !matches!(m.object, Expression::Super(_)) => {
                self.compile_expr(&m.object)?;
                self.compile_expr(&m.expression)?;
                self.emit(Op::ToPropertyKeyOfBase);
                self.emit(Op::Dup2);
                self.emit(Op::GetElem);
                let short = self.emit_jump(jump);
                self.compile_expr(&a.right)?;
                let strict = self.func.code.strict;
                self.emit(Op::SetElem { strict });
                let end = self.emit_jump(Op::Jump);
                self.patch(short);
                // Stack: obj key value
                self.func.depth += 2;
                self.emit(Op::Rot3);
                self.emit(Op::Pop);
                self.emit(Op::Pop);
                self.patch(end);
            }
            AssignmentTarget::PrivateFieldExpression(p) => {
                self.compile_expr(&p.object)?;
                self.emit_private_key(p.field.name.as_str(), p.span.start)?;
                self.emit(Op::Dup2);
                self.emit(Op::GetPrivate);
                let short = self.emit_jump(jump);
                self.compile_expr(&a.right)?;
                self.emit(Op::SetPrivate);
                let end = self.emit_jump(Op::Jump);
                self.patch(short);
                self.func.depth += 2;
                self.emit(Op::Rot3);
                self.emit(Op::Pop);
                self.emit(Op::Pop);
                self.patch(end);
            }
            _ => return Err(self.error("Invalid left-hand side in assignment", a.span.start)),
        }
        Ok(())
    }

    /// `super.x` or `super[k]` as an assignment target: pushes the home object's prototype and
    /// the property key. For a computed key `this` is checked before the key is evaluated
    /// (SuperProperty: GetThisBinding comes first).
    fn emit_super_reference(&mut self, m: &'s MemberExpression<'s>) -> CResult<()> {
        if matches!(m, MemberExpression::ComputedMemberExpression(_)) {
            self.emit_super_this_check();
        }
        self.emit(Op::SuperBase);
        match m {
            MemberExpression::StaticMemberExpression(s) => self.emit_string(s.property.name.as_str()),
            MemberExpression::ComputedMemberExpression(c) => {
                self.compile_expr(&c.expression)?;
                self.emit(Op::ToPropertyKey);
            }
            MemberExpression::PrivateFieldExpression(_) => {}
        }
        Ok(())
    }

    pub(super) fn compile_update(&mut self, u: &'s UpdateExpression<'s>) -> CResult<()> {
        self.compile_update_value(u, true).map(|_| ())
    }

    /// Compile `++`/`--`; with `keep` false as [`Self::compile_assignment_value`]. Returns
    /// whether the value is on the stack.
    pub(super) fn compile_update_value(&mut self, u: &'s UpdateExpression<'s>, keep: bool) -> CResult<bool> {
        let step = if u.operator == UpdateOperator::Increment { Op::Inc } else { Op::Dec };
        match &u.argument {
            SimpleAssignmentTarget::AssignmentTargetIdentifier(id) => {
                if let Some(r) = self.emit_reference_resolve(id) {
                    self.emit_reference_get(r);
                    self.emit(Op::ToNumeric);
                    if u.prefix {
                        self.emit(step);
                        self.emit_reference_put(r);
                    } else {
                        // Stack: base old → old base new
                        self.emit(Op::Dup);
                        self.emit(Op::Rot3);
                        self.emit(step);
                        self.emit(Op::PutNameRef { name: r.name, depth: r.depth, slot: r.slot, checked: r.checked });
                    }
                    return Ok(true);
                }
                let start = self.func.code.ops.len();
                self.emit_identifier_load(id, false)?;
                self.emit(Op::ToNumeric);
                if !keep {
                    // Prefix or postfix alike when the value is not used.
                    self.emit(step);
                    self.emit_identifier_store(id)?;
                    self.fuse_register_update(start, step, None);
                    return Ok(false);
                }
                if u.prefix {
                    self.emit(step);
                    self.emit(Op::Dup);
                } else {
                    self.emit(Op::Dup);
                    self.emit(step);
                }
                self.emit_identifier_store(id)?;
                self.fuse_register_update(start, step, Some(u.prefix));
            }
            SimpleAssignmentTarget::StaticMemberExpression(m) if !matches!(m.object, Expression::Super(_)) => {
                self.compile_expr(&m.object)?;
                self.emit(Op::Dup);
                let name = self.atom(m.property.name.as_str());
                let ic = self.new_ic();
                self.emit(Op::GetProp { name, ic });
                self.emit(Op::ToNumeric);
                let ic = self.new_ic();
                let strict = self.func.code.strict;
                if u.prefix {
                    self.emit(step);
                    self.emit(Op::SetProp { name, ic, strict });
                } else {
                    self.emit(Op::Dup);
                    self.emit(Op::Rot3);
                    self.emit(step);
                    self.emit(Op::SetProp { name, ic, strict });
                    self.emit(Op::Pop);
                }
            }
            SimpleAssignmentTarget::ComputedMemberExpression(m) if !matches!(m.object, Expression::Super(_)) => {
                self.compile_expr(&m.object)?;
                self.compile_expr(&m.expression)?;
                self.emit(Op::ToPropertyKeyOfBase);
                self.emit(Op::Dup2);
                self.emit(Op::GetElem);
                self.emit(Op::ToNumeric);
                let strict = self.func.code.strict;
                if u.prefix {
                    self.emit(step);
                    self.emit(Op::SetElem { strict });
                } else {
                    self.emit(Op::Dup);
                    self.emit(Op::Rot4);
                    self.emit(step);
                    self.emit(Op::SetElem { strict });
                    self.emit(Op::Pop);
                }
            }
            SimpleAssignmentTarget::PrivateFieldExpression(p) => {
                self.compile_expr(&p.object)?;
                self.emit_private_key(p.field.name.as_str(), p.span.start)?;
                self.emit(Op::Dup2);
                self.emit(Op::GetPrivate);
                self.emit(Op::ToNumeric);
                if u.prefix {
                    self.emit(step);
                    self.emit(Op::SetPrivate);
                } else {
                    self.emit(Op::Dup);
                    self.emit(Op::Rot4);
                    self.emit(step);
                    self.emit(Op::SetPrivate);
                    self.emit(Op::Pop);
                }
            }
            other => {
                let Some(m) = other.as_member_expression() else {
                    return Err(self.error("Invalid left-hand side expression in postfix operation", u.span.start));
                };
                self.emit_super_reference(m)?;
                self.emit(Op::Dup2);
                self.emit(Op::GetSuper);
                self.emit(Op::ToNumeric);
                if u.prefix {
                    self.emit(step);
                    self.emit(Op::SetSuper { strict: self.func.code.strict });
                } else {
                    self.emit(Op::Dup);
                    self.emit(Op::Rot4);
                    self.emit(step);
                    self.emit(Op::SetSuper { strict: self.func.code.strict });
                    self.emit(Op::Pop);
                }
            }
        }
        Ok(true)
    }
}

fn compound_op(op: AssignmentOperator) -> Op {
    match op {
        AssignmentOperator::Addition => Op::Add,
        AssignmentOperator::Subtraction => Op::Sub,
        AssignmentOperator::Multiplication => Op::Mul,
        AssignmentOperator::Division => Op::Div,
        AssignmentOperator::Remainder => Op::Mod,
        AssignmentOperator::Exponential => Op::Exp,
        AssignmentOperator::ShiftLeft => Op::Shl,
        AssignmentOperator::ShiftRight => Op::Sar,
        AssignmentOperator::ShiftRightZeroFill => Op::Shr,
        AssignmentOperator::BitwiseOR => Op::BitOr,
        AssignmentOperator::BitwiseXOR => Op::BitXor,
        AssignmentOperator::BitwiseAnd => Op::BitAnd,
        _ => Op::Nop,
    }
}

/// V8's inferred name (its `FuncNameInferrer`) for `target = value` when `value` is an
/// anonymous function or arrow and `target` a member chain rooted at an identifier: its keys
/// joined by `.`, without `prototype` (`Foo.prototype.m` is `Foo.m`, `o[k]` is `o.<computed>`).
fn inferred_name(target: &AssignmentTarget<'_>, value: &Expression<'_>) -> Option<String> {
    let anonymous = match value.without_parentheses() {
        Expression::FunctionExpression(f) => f.id.is_none(),
        Expression::ArrowFunctionExpression(_) => true,
        _ => false,
    };
    if !anonymous {
        return None;
    }
    let member = target.as_simple_assignment_target()?.as_member_expression()?;
    let mut parts = vec![member_key(member)?];
    let mut object = member.object();
    loop {
        match object.without_parentheses() {
            Expression::Identifier(id) => {
                parts.push(id.name.as_str());
                break;
            }
            e => {
                let m = e.as_member_expression()?;
                parts.push(member_key(m)?);
                object = m.object();
            }
        }
    }
    let parts: Vec<&str> = parts.into_iter().rev().filter(|&p| p != "prototype").collect();
    Some(parts.join("."))
}

/// A member's key as written: a name, a string literal, else V8's `<computed>`.
fn member_key<'a>(m: &'a MemberExpression<'_>) -> Option<&'a str> {
    match m {
        MemberExpression::StaticMemberExpression(s) => Some(s.property.name.as_str()),
        MemberExpression::ComputedMemberExpression(c) => match &c.expression {
            Expression::StringLiteral(s) => Some(s.value.as_str()),
            _ => Some("<computed>"),
        },
        MemberExpression::PrivateFieldExpression(_) => None,
    }
}
