//! Calls: functions inlined at their call sites, the SV-COMP built-ins.

use super::layout::Layout;
use super::*;

/// An argument's value: a scalar, the leaves of a struct passed by value,
/// or the one object a pointer points to.
pub(super) enum Arg {
    Scalar(Term, CType),
    Leaves(Vec<Term>, Layout),
    Alias(super::place::Target),
}

impl<'a> Lowerer<'a> {
    /// Inlines a call of `f` with the given argument values.
    pub(super) fn inline(
        &mut self,
        f: &'a FunctionDefinition,
        name: &str,
        args: &[Arg],
        is_main: bool,
        wanted: Option<CType>,
    ) -> Result<Option<(Term, CType)>> {
        let by_tail = std::mem::take(&mut self.tail_entry);
        let recursive = self.active.iter().any(|a| a == name);
        let stars = (f.declarator.node.derived.iter())
            .filter(|d| matches!(d.node, DerivedDeclarator::Pointer(_)))
            .count();
        let ret_ty = if stars > 0 {
            let specs = super::decl::type_specifiers(&f.specifiers);
            Some(self.pointer_type(&specs, stars, f.declarator.span)?)
        } else {
            self.declared_type(&f.specifiers, f.declarator.span)?
        };
        let ret = ret_ty.map(|t| (self.new_var(&format!("{name}::return"), t), t));
        if recursive {
            // Past the instance budget the lowering is redone shallower
            // ([`super::lower`]): the rest is cut at once.
            let spent = self.recursion.1 >= super::RECURSIVE_INSTANCES;
            if spent {
                self.recursion.1 += 1;
            }
            if spent || self.active.len() >= self.recursion.0 {
                // Deeper than inlined: no verdict if an execution gets here.
                let flag = *self.cut.get_or_insert_with(|| {
                    let flag = self.cfa.terms.var("recursion-cut", Sort::Bool);
                    self.cfa.vars.push(flag);
                    flag
                });
                let set = self.cfa.terms.bool(true);
                self.cfa
                    .add_edge(self.cur, Command::Assign(flag, set), self.cfa.error);
                self.cur = self.new_loc(f.declarator.span);
                return Ok(ret);
            }
            self.recursion.1 += 1;
        }
        let exit = self.new_loc(f.declarator.span);
        self.active.push(name.to_string());
        self.scopes.push(HashMap::new());
        // Parameters.
        let params: Vec<&Node<ParameterDeclaration>> = f
            .declarator
            .node
            .derived
            .iter()
            .find_map(|d| match &d.node {
                DerivedDeclarator::Function(fd) => Some(fd.node.parameters.iter().collect()),
                _ => None,
            })
            .unwrap_or_default();
        let assigned = super::alias::assigned_names(&f.statement);
        let calls_itself = super::alias::calls(&f.statement, name);
        // Integer parameters, while every one is such: then a call of the
        // function itself in tail position can reuse this instance.
        let mut scalars = Some(Vec::new());
        let mut k = 0;
        for p in params {
            let Some(decl) = &p.node.declarator else {
                continue;
            }; // `(void)`
            if is_main {
                // main's parameters hold whatever the environment passes;
                // pointer ones (argv) are left undeclared, so a use is refused.
                if self.check_declarator(decl).is_err() {
                    continue;
                }
                if let Some(ty) = self.declared_type(&p.node.specifiers, p.span)? {
                    let pname = name_of(&decl.node).unwrap_or("?").to_string();
                    let var = self.new_var(&format!("main::{pname}"), ty);
                    self.emit(Command::Havoc(var), p.span);
                    self.scopes
                        .last_mut()
                        .expect("scope")
                        .insert(pname, Binding::Scalar(var, ty));
                }
                continue;
            }
            let pname = name_of(&decl.node).unwrap_or("?").to_string();
            let shape = self.shape(decl)?;
            if let (Shape::Pointer, Some(Arg::Scalar(value, from))) = (&shape, args.get(k)) {
                scalars = None;
                let ty = self.declared_pointer(&p.node.specifiers, decl)?;
                let var = self.new_var(&format!("{name}::{pname}"), ty);
                let value = self.convert_value(*value, *from, ty, p.span)?;
                self.emit(Command::Assign(var, value), p.span);
                let scope = self.scopes.last_mut().expect("scope");
                scope.insert(pname, Binding::Scalar(var, ty));
                k += 1;
                continue;
            }
            if let Shape::Pointer | Shape::Array(_) = shape {
                let Some(Arg::Alias(target)) = args.get(k) else {
                    let what = format!("pointers (parameter `{pname}`)");
                    return Err(self.unsupported(p.span, what));
                };
                if assigned.contains(&pname) {
                    let what = format!("pointers (parameter `{pname}` assigned in `{name}`)");
                    return Err(self.unsupported(p.span, what));
                }
                scalars = None;
                let pointee = self.pointee(&p.node.specifiers, decl, p.span)?;
                let alias =
                    self.bind_alias(pname.clone(), pointee.as_ref(), target.clone(), p.span)?;
                self.scopes.last_mut().expect("scope").insert(pname, alias);
                k += 1;
                continue;
            }
            let Some(base) = self.declared_layout(&p.node.specifiers, p.span)? else {
                // Not bound, so a tail call could not give it a value.
                scalars = None;
                continue;
            };
            let layout = self.object_layout(base, &shape, p.span)?;
            let Some(arg) = args.get(k) else {
                return Err(
                    self.unsupported(p.span, format!("a call of `{name}` with too few arguments"))
                );
            };
            let binding = match (layout, arg) {
                (Layout::Scalar(ty), Arg::Scalar(value, from)) => {
                    let var = self.new_var(&format!("{name}::{pname}"), ty);
                    let value = self.num.convert(&mut self.cfa.terms, *value, *from, ty);
                    self.emit(Command::Assign(var, value), p.span);
                    if !calls_itself && !assigned.contains(&pname) {
                        if let Ok(c) = Evaluator::new(&self.cfa.terms).eval(value) {
                            self.fixed.insert(var, c);
                        }
                    }
                    if let (Some(params), false) = (&mut scalars, ty.is_pointer()) {
                        params.push((var, ty));
                    } else {
                        scalars = None;
                    }
                    Binding::Scalar(var, ty)
                }
                (layout, Arg::Leaves(values, from)) if layout.same(from) => {
                    scalars = None;
                    let values = values.iter().map(|&v| Some(v)).collect();
                    self.new_object(&format!("{name}::{pname}"), layout, values, false, p.span)
                }
                (layout, _) => {
                    let what =
                        format!("passing this argument as {} (`{pname}`)", layout.describe());
                    return Err(self.unsupported(p.span, what));
                }
            };
            self.scopes
                .last_mut()
                .expect("scope")
                .insert(pname, binding);
            k += 1;
        }
        let tail = match (is_main, scalars) {
            (false, Some(params)) => {
                let start = self.new_loc(f.declarator.span);
                self.go_to(start);
                let name = name.to_string();
                Some(super::Tail {
                    name,
                    start,
                    params,
                })
            }
            _ => None,
        };
        self.frames.push(Frame {
            tail,
            by_tail,
            scope_base: self.scopes.len() - 1,
            labels: HashMap::new(),
            exit,
            ret,
            is_main,
            assigned,
            values: super::alias::assigned_values(&f.statement),
            wanted: match ret_ty {
                Some(t) if t.is_pointer() && self.pointee_of(t) == super::heap::Pointee::Void => {
                    wanted
                }
                _ => None,
            },
        });
        self.collect_labels(&f.statement);
        if let (true, Statement::Compound(items)) = (is_main, &f.statement.node) {
            self.main_start = items.first().and_then(|i| self.point(i.span));
        }
        let result = self.statement(&f.statement);
        self.frames.pop();
        result?;
        self.go_to(exit);
        self.scopes.pop();
        self.active.pop();
        Ok(ret)
    }

    /// Lowers `return f(args)` as a jump back to the start of the
    /// instance of `f` on the inlined stack, with its parameters given the
    /// arguments' values, when that is the innermost instance of `f`, its
    /// parameters are integers, and every instance above it was entered by
    /// `return g(...)` with the same return type (`f` calling itself, or
    /// `even` calling `odd` calling `even`): the value the jump leads to is
    /// the value each of those calls returns, so the recursion becomes a
    /// loop, its depth needs no bound and a proof covers every depth.
    /// Answers whether it did.
    pub(super) fn tail_call(&mut self, e: &'a Node<Expression>, span: Span) -> Result<bool> {
        let Expression::Call(call) = &e.node else {
            return Ok(false);
        };
        let Expression::Identifier(id) = &call.node.callee.node else {
            return Ok(false);
        };
        let name = id.node.name.as_str();
        if self.binding(name).is_some() {
            return Ok(false);
        }
        let returns = self.frames.last().expect("frame").ret.map(|r| r.1);
        let mut target = None;
        for frame in self.frames.iter().rev() {
            if frame.ret.map(|r| r.1) != returns {
                break;
            }
            if let Some(tail) = frame.tail.as_ref().filter(|t| t.name == name) {
                target = Some(tail);
                break;
            }
            if !frame.by_tail {
                break;
            }
        }
        let Some(tail) = target else {
            return Ok(false);
        };
        if tail.params.len() != call.node.arguments.len() {
            return Ok(false);
        }
        let (start, params) = (tail.start, tail.params.clone());
        // Every argument is evaluated (and copied) before any parameter
        // changes: `f(b, a)` swaps.
        let mut values = Vec::new();
        for (a, &(_, ty)) in call.node.arguments.iter().zip(&params) {
            let v = self.expr(a)?;
            let (v, from) = self.stabilize(v, a.span);
            values.push(self.num.convert(&mut self.cfa.terms, v, from, ty));
        }
        for ((var, _), v) in params.into_iter().zip(values) {
            self.emit(Command::Assign(var, v), span);
        }
        self.jump_away(start, span);
        Ok(true)
    }

    /// The one argument of a call of a verifier builtin (`assume`,
    /// `assert`): a call with another count is a malformed program, not an
    /// unsupported one, so it gets a located error.
    pub(super) fn only_argument(
        &self,
        call: &'a Node<CallExpression>,
        name: &str,
        span: Span,
    ) -> Result<&'a Node<Expression>> {
        match &call.node.arguments[..] {
            [only] => Ok(only),
            args => Err(FrontError::Syntax(format!(
                "{}: `{name}` takes one argument, the call has {}",
                self.line(span),
                args.len()
            ))),
        }
    }

    /// The value of a call that returns nothing (an `int` 0 nobody reads).
    pub(super) fn no_value(&mut self) -> (Term, CType) {
        (
            self.num.constant(&mut self.cfa.terms, 0, CType::INT),
            CType::INT,
        )
    }

    pub(super) fn call(
        &mut self,
        call: &'a Node<CallExpression>,
        span: Span,
    ) -> Result<(Term, CType)> {
        let tail_entry = std::mem::take(&mut self.tail_entry);
        let Expression::Identifier(id) = &call.node.callee.node else {
            return Err(self.unsupported(span, "calls through function pointers"));
        };
        let name = id.node.name.as_str();
        if let Some(kind) = name.strip_prefix("__VERIFIER_nondet_") {
            let long = if self.options.lp64 { 64 } else { 32 };
            // SV-COMP's list (its rules, "Verification tasks"), but for the
            // floats, the 128-bit integers and the pointers.
            let ty = match kind {
                "int" => CType::int(32, true),
                "uint" | "unsigned" | "unsigned_int" | "u32" => CType::int(32, false),
                "char" => CType::int(8, true),
                "uchar" | "u8" => CType::int(8, false),
                "short" => CType::int(16, true),
                "ushort" | "u16" => CType::int(16, false),
                "long" | "loff_t" => CType::int(long, true),
                "ulong" | "size_t" | "sector_t" => CType::int(long, false),
                "longlong" => CType::int(64, true),
                "ulonglong" => CType::int(64, false),
                "bool" | "_Bool" => CType::bool(),
                "pointer" => {
                    // Any value: NULL, or an object of the heap (where it
                    // points into one, a dereference checks it as any).
                    let ty = self.pointer_to(super::heap::Pointee::Void);
                    let v = self.new_var("nondet_pointer", ty);
                    self.emit(Command::Havoc(v), span);
                    return Ok((v, ty));
                }
                other => return Err(self.unsupported(span, format!("__VERIFIER_nondet_{other}"))),
            };
            let v = self.new_var(&format!("nondet_{kind}"), ty);
            // The value's range is assumed on the same edge as the havoc, so
            // that both representations lower a program into automata with
            // the same locations (the integer relaxation's invariants are
            // carried to the machine integers location by location).
            let range = if self.num.int {
                // A mathematical integer keeps the range of the type it came from.
                let (lo, hi) = ty.range();
                let lo = self.num.constant(&mut self.cfa.terms, lo, ty);
                let hi = self.num.constant(&mut self.cfa.terms, hi, ty);
                let above = self.cfa.terms.mk(Op::Le, &[lo, v]);
                let below = self.cfa.terms.mk(Op::Le, &[v, hi]);
                Some(self.cfa.terms.mk(Op::And, &[above, below]))
            } else if ty.boolean {
                // A _Bool holds 0 or 1.
                let one = self.num.constant(&mut self.cfa.terms, 1, ty);
                Some(self.cfa.terms.mk(Op::BvUle, &[v, one]))
            } else {
                None
            };
            let command = match range {
                Some(ok) => Command::Havoc(v).then(Command::Assume(ok)),
                None => Command::Havoc(v),
            };
            self.emit(command, span);
            return Ok((v, ty));
        }
        let user = self.functions.get(name).copied();
        match (name, user) {
            ("reach_error" | "__VERIFIER_error" | "__assert_fail", _) => {
                // Under the other properties the call only ends the execution.
                let to = if self.options.property != Spec::UnreachCall {
                    self.halt
                } else {
                    self.error_calls.extend(self.point(span));
                    self.cfa.error
                };
                self.jump_away(to, span);
                Ok(self.no_value())
            }
            ("abort" | "exit", None) => {
                for a in &call.node.arguments {
                    self.expr(a)?;
                }
                let halt = self.halt;
                self.jump_away(halt, span);
                Ok(self.no_value())
            }
            ("malloc", None) => {
                let size = self.only_argument(call, name, span)?;
                let bytes = self.expr(size)?;
                self.allocate(bytes, None, span)
            }
            ("calloc", None) => {
                let [count, size] = &call.node.arguments[..] else {
                    return Err(FrontError::Syntax(format!(
                        "{}: `calloc` takes two arguments",
                        self.line(span)
                    )));
                };
                let wanted = self.wanted.take();
                let (n, nt) = self.expr(count)?;
                let (s, st) = self.expr(size)?;
                let (Some(n), Some(s)) = (self.constant_value(n, nt), self.constant_value(s, st))
                else {
                    return Err(self.unsupported(span, "calloc of a size that is not a constant"));
                };
                let layout = match wanted {
                    Some(ty) => self.pointee_layout(ty, span)?,
                    None => None,
                };
                let Some(layout) = layout else {
                    let what = "calloc whose result is not made a typed pointer where it is called";
                    return Err(self.unsupported(span, what));
                };
                let wide = CType::int(64, false);
                let bytes = self
                    .num
                    .constant(&mut self.cfa.terms, (n * s).min(1 << 40), wide);
                self.allocate((bytes, wide), Some(&layout), span)
            }
            // A file opened is a fresh object the program does not look
            // into (FILE is opaque), or NULL when opening fails; under
            // memory safety an open file would count as an object to free.
            ("fopen", None) if self.options.property != Spec::MemSafety => {
                // The name and the mode (string literals, as a rule) are
                // not looked at.
                for a in &call.node.arguments {
                    if !matches!(a.node, Expression::StringLiteral(_)) {
                        self.expr(a)?;
                    }
                }
                let wide = CType::int(64, false);
                let one = self.num.constant(&mut self.cfa.terms, 1, wide);
                let (p, ty) = self.allocate((one, wide), None, span)?;
                let opened = self.new_var("fopen", CType::bool());
                self.emit(Command::Havoc(opened), span);
                let opened = self.num.truth(&mut self.cfa.terms, opened, CType::bool());
                let null = self.num.constant(&mut self.cfa.terms, 0, ty);
                let v = self.cfa.terms.mk(Op::Ite, &[opened, p, null]);
                Ok((v, ty))
            }
            // Closing gives 0 or EOF; the object is not looked into.
            ("fclose", None) if self.options.property != Spec::MemSafety => {
                let f = self.only_argument(call, name, span)?;
                self.expr(f)?;
                let v = self.new_var("fclose", CType::INT);
                let (zero, eof) = (
                    self.num.constant(&mut self.cfa.terms, 0, CType::INT),
                    self.num.constant(&mut self.cfa.terms, -1, CType::INT),
                );
                let terms = &mut self.cfa.terms;
                let (is_zero, is_eof) = (terms.eq(v, zero), terms.eq(v, eof));
                let either = terms.or_all(&[is_zero, is_eof]);
                self.emit(Command::Havoc(v).then(Command::Assume(either)), span);
                Ok((v, CType::INT))
            }
            ("free", None) => {
                let p = self.only_argument(call, name, span)?;
                let p = self.expr(p)?;
                self.free(p, span)?;
                Ok(self.no_value())
            }
            ("__VERIFIER_assume", None) => {
                let cond = self.only_argument(call, name, span)?;
                let (v, ty) = self.expr(cond)?;
                let c = self.num.truth(&mut self.cfa.terms, v, ty);
                self.emit(Command::Assume(c), span);
                Ok(self.no_value())
            }
            ("__VERIFIER_assert" | "assert", None) => {
                let cond = self.only_argument(call, name, span)?;
                let fail = if self.options.property != Spec::UnreachCall {
                    self.halt
                } else {
                    self.error_calls.extend(self.point(span));
                    self.cfa.error
                };
                let ok = self.new_loc(span);
                self.branch(cond, ok, fail)?;
                self.cur = ok;
                Ok(self.no_value())
            }
            (_, Some(f)) => {
                // Arguments are not what the call's value is converted to.
                let wanted = self.wanted.take();
                let mut args = Vec::new();
                for a in &call.node.arguments {
                    if let Some(target) = self.target_of(a)? {
                        args.push(Arg::Alias(target));
                        continue;
                    }
                    match self.layout_of(a) {
                        Some(Layout::Scalar(_)) | None => {
                            let v = self.expr(a)?;
                            let (v, ty) = self.stabilize(v, span);
                            args.push(Arg::Scalar(v, ty));
                        }
                        Some(Layout::Array(..)) => {
                            return Err(self
                                .unsupported(a.span, "an array passed to a function (a pointer)"))
                        }
                        Some(layout) => {
                            let place = self.place(a)?.expect("an aggregate is a place");
                            let values = self.leaf_values(&place, &[], a.span)?;
                            // Copied: a later argument may change the struct.
                            let mut types = Vec::new();
                            layout.leaf_types(&mut types);
                            let copies = (values.into_iter().zip(types))
                                .map(|(v, ty)| self.stabilize((v, ty), a.span).0)
                                .collect();
                            args.push(Arg::Leaves(copies, layout));
                        }
                    }
                }
                self.tail_entry = tail_entry;
                let ret = self.inline(f, name, &args, false, wanted)?;
                Ok(ret.unwrap_or_else(|| self.no_value()))
            }
            (_, None) => {
                Err(self.unsupported(span, format!("a call of the undefined function `{name}`")))
            }
        }
    }
}
