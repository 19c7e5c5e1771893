//! Expressions: integer constants, operators with C's promotions and
//! conversions, bit-precisely (or over the integers), and their side effects.

use super::decl::qualified_type_specifiers;
use super::layout::Layout;
use super::*;

impl<'a> Lowerer<'a> {
    /// Whether `e` is `p = value` for a local pointer `p`: then the
    /// assignment is dropped (see [`Self::dropped_pointer_value`]).
    pub(super) fn dropped_pointer_assignment(&self, e: &'a Node<Expression>) -> Result<bool> {
        let Expression::BinaryOperator(b) = &e.node else {
            return Ok(false);
        };
        let Expression::Identifier(id) = &b.node.lhs.node else {
            return Ok(false);
        };
        if b.node.operator.node != BinaryOperator::Assign
            || !matches!(self.binding(&id.node.name), Some(Binding::Pointer))
        {
            return Ok(false);
        }
        self.dropped_pointer_value(&b.node.rhs).map(|()| true)
    }

    /// A pointer's initial or assigned value, which is dropped (nobody
    /// reads the pointer): only values without side effects or undefined
    /// behaviour are taken, so dropping them changes nothing.
    pub(super) fn dropped_pointer_value(&self, e: &Node<Expression>) -> Result<()> {
        fn harmless(e: &Expression) -> bool {
            match e {
                Expression::Identifier(_) | Expression::Constant(_) => true,
                Expression::UnaryOperator(u) => {
                    u.node.operator.node == UnaryOperator::Address
                        && matches!(u.node.operand.node, Expression::Identifier(_))
                }
                Expression::Cast(c) => harmless(&c.node.expression.node),
                _ => false,
            }
        }
        if harmless(&e.node) {
            return Ok(());
        }
        Err(self.unsupported(e.span, "pointers (a pointer given this value)"))
    }

    /// `e`'s value where it is converted to `wanted` (`calloc` gives its
    /// object that pointer type at once).
    pub(super) fn expr_for(
        &mut self,
        e: &'a Node<Expression>,
        wanted: Option<CType>,
    ) -> Result<(Term, CType)> {
        let saved = std::mem::replace(&mut self.wanted, wanted.filter(|t| t.is_pointer()));
        let out = self.expr(e);
        self.wanted = saved;
        out
    }

    /// Copies a value into a temporary, so that later side effects do not change it.
    pub(super) fn stabilize(&mut self, v: (Term, CType), span: Span) -> (Term, CType) {
        if matches!(self.cfa.terms.op(v.0), Op::Bv(_) | Op::Num(..)) {
            return v;
        }
        let tmp = self.new_var("tmp", v.1);
        self.emit(Command::Assign(tmp, v.0), span);
        (tmp, v.1)
    }

    pub(super) fn integer(&mut self, c: &Node<Constant>) -> Result<(Term, CType)> {
        let (value, ty) = match &c.node {
            Constant::Integer(i) => {
                let digits: String = i.number.chars().filter(|c| *c != '\'').collect();
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                let digits = match i.base {
                    IntegerBase::Hexadecimal => digits
                        .trim_start_matches("0x")
                        .trim_start_matches("0X")
                        .to_string(),
                    IntegerBase::Binary => digits
                        .trim_start_matches("0b")
                        .trim_start_matches("0B")
                        .to_string(),
                    _ => digits,
                };
                let value =
                    u128::from_str_radix(if digits.is_empty() { "0" } else { &digits }, radix)
                        .map_err(|_| {
                            self.unsupported(c.span, format!("integer constant `{}`", i.number))
                        })?;
                let long = if self.options.lp64 { 64 } else { 32 };
                let min_width = match i.suffix.size {
                    IntegerSize::Int => 32,
                    IntegerSize::Long => long,
                    IntegerSize::LongLong => 64,
                };
                // C11 6.4.4.1: the first type in the list that holds the value.
                let decimal = i.base == IntegerBase::Decimal;
                let mut candidates = Vec::new();
                for w in [32u32, long, 64] {
                    if w < min_width {
                        continue;
                    }
                    if !i.suffix.unsigned {
                        candidates.push(CType::int(w, true));
                    }
                    if i.suffix.unsigned || !decimal {
                        candidates.push(CType::int(w, false));
                    }
                }
                let fits = |t: &CType| {
                    let bits = if t.signed { t.width - 1 } else { t.width };
                    value < (1u128 << bits)
                };
                let ty = candidates.into_iter().find(fits).ok_or_else(|| {
                    self.unsupported(c.span, format!("integer constant `{}` too large", i.number))
                })?;
                (value as i128, ty)
            }
            Constant::Character(s) => {
                let inner = s.trim_start_matches('\'').trim_end_matches('\'');
                let v = match inner {
                    "\\n" => 10,
                    "\\t" => 9,
                    "\\0" => 0,
                    "\\\\" => 92,
                    "\\'" => 39,
                    // Plain char is signed (as on x86); the constant is an int.
                    _ if inner.len() == 1 => inner.as_bytes()[0] as i8 as i128,
                    _ => return Err(self.unsupported(c.span, format!("character constant {s}"))),
                };
                (v, CType::INT)
            }
            Constant::Float(_) => return Err(self.unsupported(c.span, "floating-point constants")),
        };
        Ok((self.num.constant(&mut self.cfa.terms, value, ty), ty))
    }

    pub(super) fn expr(&mut self, e: &'a Node<Expression>) -> Result<(Term, CType)> {
        match &e.node {
            Expression::Constant(c) => match c.node {
                Constant::Integer(_) | Constant::Character(_) => self.integer(c),
                Constant::Float(_) => Err(self.unsupported(c.span, "this constant")),
            },
            Expression::Identifier(id) => self.lookup(&id.node.name, e.span),
            Expression::Call(call) => self.call(call, e.span),
            Expression::Cast(c) => {
                let specs = qualified_type_specifiers(&c.node.type_name.node.specifiers);
                let pointer = match &c.node.type_name.node.declarator {
                    Some(d)
                        if !d.node.derived.is_empty()
                            && (d.node.derived.iter())
                                .all(|x| matches!(x.node, DerivedDeclarator::Pointer(_))) =>
                    {
                        Some(self.pointer_type(&specs, d.node.derived.len(), c.span)?)
                    }
                    Some(d) => {
                        self.check_declarator(d)?;
                        None
                    }
                    None => None,
                };
                let to = match pointer {
                    Some(to) => Some(to),
                    None => self.base_type(&specs, c.span)?,
                };
                let (v, from) = self.expr_for(&c.node.expression, to)?;
                match to {
                    Some(to) => Ok((self.convert_value(v, from, to, c.span)?, to)),
                    None => Ok((v, from)), // (void) casts discard
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let place = self.place(e)?.expect("a dereference is a place or refused");
                self.read(&place, e.span)
            }
            Expression::UnaryOperator(u) => self.unary(u, e.span),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let Some(place) = self.place(e)? else {
                    return Err(self.unsupported(e.span, "indexing something other than an array"));
                };
                self.read(&place, e.span)
            }
            Expression::BinaryOperator(b) => self.binary(b, e.span),
            Expression::Conditional(c) => {
                let pure = !may_branch(&c.node.then_expression.node)
                    && !may_branch(&c.node.else_expression.node);
                if pure {
                    let (cv, cty) = self.expr(&c.node.condition)?;
                    let cond = self.num.truth(&mut self.cfa.terms, cv, cty);
                    let (a, at) = self.guarded(cond, |l| l.expr(&c.node.then_expression))?;
                    let otherwise = self.cfa.terms.not(cond);
                    let (b, bt) = self.guarded(otherwise, |l| l.expr(&c.node.else_expression))?;
                    let ty = CType::common(at, bt);
                    let (a, b) = (
                        self.num.convert(&mut self.cfa.terms, a, at, ty),
                        self.num.convert(&mut self.cfa.terms, b, bt, ty),
                    );
                    return Ok((self.cfa.terms.mk(Op::Ite, &[cond, a, b]), ty));
                }
                // Through control flow: only the chosen branch is evaluated.
                let (t, f, join) = (
                    self.new_loc(e.span),
                    self.new_loc(e.span),
                    self.new_loc(e.span),
                );
                self.branch(&c.node.condition, t, f)?;
                self.cur = t;
                let (a, at) = self.expr(&c.node.then_expression)?;
                let t_end = self.cur;
                self.cur = f;
                let (b, bt) = self.expr(&c.node.else_expression)?;
                let f_end = self.cur;
                let ty = CType::common(at, bt);
                let tmp = self.new_var("cond", ty);
                let a = self.num.convert(&mut self.cfa.terms, a, at, ty);
                let b = self.num.convert(&mut self.cfa.terms, b, bt, ty);
                self.cfa.add_edge(t_end, Command::Assign(tmp, a), join);
                self.cfa.add_edge(f_end, Command::Assign(tmp, b), join);
                self.cur = join;
                Ok((tmp, ty))
            }
            Expression::Comma(list) => {
                let mut last = None;
                for x in list.iter() {
                    last = Some(self.expr(x)?);
                }
                last.ok_or_else(|| self.unsupported(e.span, "an empty comma expression"))
            }
            Expression::StringLiteral(_) => Err(self.unsupported(e.span, "string literals")),
            Expression::Member(_) => {
                let place = self.place(e)?.expect("a member is a place or refused");
                self.read(&place, e.span)
            }
            Expression::SizeOfTy(t) => {
                let name = &t.node.0;
                let specs = qualified_type_specifiers(&name.node.specifiers);
                let Some(base) = self.base_layout(&specs, e.span)? else {
                    return Err(self.unsupported(e.span, "sizeof(void)"));
                };
                let layout = match &name.node.declarator {
                    Some(d) => {
                        let shape = self.shape(d)?;
                        self.object_layout(base, &shape, d.span)?
                    }
                    None => base,
                };
                Ok(self.size_of(&layout))
            }
            Expression::SizeOfVal(v) => {
                // The operand is not evaluated (C11 6.5.3.4p2): only its type counts.
                let operand = &v.node.0;
                if let Some(layout) = self.layout_of(operand) {
                    return Ok(self.size_of(&layout));
                }
                if let Expression::Identifier(id) = &operand.node {
                    if let Some(Binding::Memory(_)) = self.binding(&id.node.name) {
                        let what = "sizeof of a variable-length array";
                        return Err(self.unsupported(e.span, what));
                    }
                }
                if has_side_effects(&v.node.0.node) {
                    return Err(
                        self.unsupported(e.span, "sizeof of an expression with side effects")
                    );
                }
                let never = self.cfa.terms.bool(false);
                let (_, ty) = self.guarded(never, |l| l.expr(&v.node.0))?;
                Ok(self.size_of(&Layout::Scalar(ty)))
            }
            _ => Err(self.unsupported(e.span, "this expression")),
        }
    }

    /// `sizeof` an object of the given type: its bytes, as a `size_t`
    /// (`unsigned long`).
    pub(super) fn size_of(&mut self, layout: &Layout) -> (Term, CType) {
        let size_t = CType::int(if self.options.lp64 { 64 } else { 32 }, false);
        let (bytes, _) = layout.size_align(self.options.lp64);
        (
            self.num
                .constant(&mut self.cfa.terms, bytes as i128, size_t),
            size_t,
        )
    }

    pub(super) fn unary(
        &mut self,
        u: &'a Node<UnaryOperatorExpression>,
        span: Span,
    ) -> Result<(Term, CType)> {
        use UnaryOperator::*;
        let op = u.node.operator.node.clone();
        match op {
            PreIncrement | PreDecrement | PostIncrement | PostDecrement => {
                let target = self.lvalue(&u.node.operand)?;
                let (old, ty) = self.load(&target, span)?;
                let old = if matches!(op, PostIncrement | PostDecrement) {
                    self.stabilize((old, ty), span).0
                } else {
                    old
                };
                let up = matches!(op, PreIncrement | PostIncrement);
                if ty.is_pointer() {
                    let step = (self.num.constant(&mut self.cfa.terms, if up { 1 } else { -1 }, CType::INT), CType::INT);
                    let new = self.pointer_add(old, ty, step, span)?;
                    let (var, vty) = self.store(&target, new, ty, span)?;
                    return Ok(if matches!(op, PreIncrement | PreDecrement) {
                        (var, vty)
                    } else {
                        (old, ty)
                    });
                }
                let p = ty.promoted();
                let wide = self.num.convert(&mut self.cfa.terms, old, ty, p);
                let one = self.num.constant(&mut self.cfa.terms, 1, p);
                self.step_defined(wide, one, up, p, span);
                let arith = match (up, self.num.int) {
                    (true, false) => Op::BvAdd,
                    (false, false) => Op::BvSub,
                    (true, true) => Op::Add,
                    (false, true) => Op::Sub,
                };
                let new = self.cfa.terms.mk(arith, &[wide, one]);
                let (var, vty) = self.store(&target, new, p, span)?;
                Ok(if matches!(op, PreIncrement | PreDecrement) {
                    (var, vty)
                } else {
                    (old, ty)
                })
            }
            Plus | Minus | Complement => {
                let (v, ty) = self.expr(&u.node.operand)?;
                if ty.is_pointer() {
                    return Err(self.unsupported(span, "this operator on a pointer"));
                }
                let p = ty.promoted();
                let v = self.num.convert(&mut self.cfa.terms, v, ty, p);
                if op == Minus {
                    self.negation_defined(v, p, span);
                }
                let r = match (op, self.num.int) {
                    (Plus, _) => v,
                    (Minus, false) => self.cfa.terms.mk(Op::BvNeg, &[v]),
                    (Minus, true) => self.cfa.terms.mk(Op::Neg, &[v]),
                    (_, false) => self.cfa.terms.mk(Op::BvNot, &[v]),
                    (_, true) => return Err(self.unsupported(span, "`~` under --int")),
                };
                Ok((r, p))
            }
            Negate => {
                let (v, ty) = self.expr(&u.node.operand)?;
                let t = self.num.truth(&mut self.cfa.terms, v, ty);
                let f = self.cfa.terms.not(t);
                Ok((
                    self.num.from_bool(&mut self.cfa.terms, f, CType::INT),
                    CType::INT,
                ))
            }
            Address if self.on_heap(&u.node.operand) => self.heap_address(&u.node.operand, span),
            Address => Err(self.unsupported(
                span,
                "pointers (the address of an object not on the heap, kept by a pointer that changes)",
            )),
            Indirection => Err(self.unsupported(span, "pointers")),
        }
    }

    pub(super) fn arith(
        &mut self,
        op: &BinaryOperator,
        a: (Term, CType),
        b: (Term, CType),
        span: Span,
    ) -> Result<(Term, CType)> {
        use BinaryOperator::*;
        if a.1.is_pointer() || b.1.is_pointer() {
            return self.pointer_arith(op, a, b, span);
        }
        let num = self.num;
        let terms = &mut self.cfa.terms;
        if matches!(
            op,
            ShiftLeft | ShiftRight | AssignShiftLeft | AssignShiftRight
        ) {
            // Operands promote separately; the result has the left one's type.
            let (lt, rt) = (a.1.promoted(), b.1.promoted());
            let l = num.convert(terms, a.0, a.1, lt);
            let r = num.convert(terms, b.0, b.1, rt);
            let left = matches!(op, ShiftLeft | AssignShiftLeft);
            self.shift_defined(left, (l, lt), (r, rt), span);
            if num.int {
                return self.int_shift(op, l, lt, r, span);
            }
            let amount = shift_amount(&mut self.cfa.terms, r, rt, lt);
            let o = match op {
                _ if left => Op::BvShl,
                _ if lt.signed => Op::BvAshr,
                _ => Op::BvLshr,
            };
            return Ok((self.cfa.terms.mk(o, &[l, amount]), lt));
        }
        let ty = CType::common(a.1, b.1);
        let l = num.convert(terms, a.0, a.1, ty);
        let r = num.convert(terms, b.0, b.1, ty);
        self.arithmetic_defined(op, l, r, ty, span);
        let terms = &mut self.cfa.terms;
        if num.int && matches!(op, Divide | AssignDivide | Modulo | AssignModulo) {
            let (q, rem) = num.int_div_rem(terms, l, r);
            let is_div = matches!(op, Divide | AssignDivide);
            return Ok((if is_div { q } else { rem }, ty));
        }
        // The operator by (bit-precise, integer) representation.
        let (bits, ints) = match op {
            Multiply | AssignMultiply => (Op::BvMul, Some(Op::Mul)),
            Divide | AssignDivide if ty.signed => (Op::BvSdiv, None),
            Divide | AssignDivide => (Op::BvUdiv, None),
            Modulo | AssignModulo if ty.signed => (Op::BvSrem, None),
            Modulo | AssignModulo => (Op::BvUrem, None),
            Plus | AssignPlus => (Op::BvAdd, Some(Op::Add)),
            Minus | AssignMinus => (Op::BvSub, Some(Op::Sub)),
            BitwiseAnd | AssignBitwiseAnd => (Op::BvAnd, None),
            BitwiseXor | AssignBitwiseXor => (Op::BvXor, None),
            BitwiseOr | AssignBitwiseOr => (Op::BvOr, None),
            Less if ty.signed => (Op::BvSlt, Some(Op::Lt)),
            Less => (Op::BvUlt, Some(Op::Lt)),
            Greater if ty.signed => (Op::BvSgt, Some(Op::Gt)),
            Greater => (Op::BvUgt, Some(Op::Gt)),
            LessOrEqual if ty.signed => (Op::BvSle, Some(Op::Le)),
            LessOrEqual => (Op::BvUle, Some(Op::Le)),
            GreaterOrEqual if ty.signed => (Op::BvSge, Some(Op::Ge)),
            GreaterOrEqual => (Op::BvUge, Some(Op::Ge)),
            Equals => (Op::Eq, Some(Op::Eq)),
            NotEquals => (Op::Distinct, Some(Op::Distinct)),
            Index => return Err(self.unsupported(span, "arrays")),
            _ => return Err(self.unsupported(span, "this operator")),
        };
        let o = match (num.int, ints) {
            (false, _) => bits,
            (true, Some(o)) => o,
            (true, None) => {
                return Err(self.unsupported(span, "bit operations under --int"));
            }
        };
        let v = terms.mk(o.clone(), &[l, r]);
        if terms.sort(v) == &Sort::Bool {
            return Ok((num.from_bool(terms, v, CType::INT), CType::INT));
        }
        Ok((v, ty))
    }

    /// An operator with a pointer operand: `p + k`, `k + p`, `p - k`,
    /// `p - q`, and comparisons (of the 64-bit values: within one object
    /// they order the offsets; NULL is 0).
    fn pointer_arith(
        &mut self,
        op: &BinaryOperator,
        a: (Term, CType),
        b: (Term, CType),
        span: Span,
    ) -> Result<(Term, CType)> {
        use BinaryOperator::*;
        match op {
            Plus | AssignPlus if a.1.is_pointer() && !b.1.is_pointer() => {
                Ok((self.pointer_add(a.0, a.1, b, span)?, a.1))
            }
            Plus if b.1.is_pointer() && !a.1.is_pointer() => {
                Ok((self.pointer_add(b.0, b.1, a, span)?, b.1))
            }
            Minus | AssignMinus if a.1.is_pointer() && !b.1.is_pointer() => {
                let k = self
                    .num
                    .convert(&mut self.cfa.terms, b.0, b.1, CType::int(64, true));
                // -k of the least 64-bit value is itself, which `pointer_add`'s
                // range check (|k| < 2^32) sends to undefined behaviour too.
                let negated = self.cfa.terms.mk(Op::BvNeg, &[k]);
                let step = (negated, CType::int(64, true));
                Ok((self.pointer_add(a.0, a.1, step, span)?, a.1))
            }
            Minus if a.1.is_pointer() && b.1.is_pointer() => {
                if self.pointee_of(a.1) != self.pointee_of(b.1) {
                    return Err(
                        self.unsupported(span, "the difference of pointers to different types")
                    );
                }
                self.pointer_difference(a.0, b.0, a.1, span)
            }
            Equals | NotEquals | Less | Greater | LessOrEqual | GreaterOrEqual => {
                let ty = if a.1.is_pointer() { a.1 } else { b.1 };
                let l = self.convert_value(a.0, a.1, ty, span)?;
                let r = self.convert_value(b.0, b.1, ty, span)?;
                let o = match op {
                    Equals => Op::Eq,
                    NotEquals => Op::Distinct,
                    Less => Op::BvUlt,
                    Greater => Op::BvUgt,
                    LessOrEqual => Op::BvUle,
                    _ => Op::BvUge,
                };
                let v = self.cfa.terms.mk(o, &[l, r]);
                Ok((
                    self.num.from_bool(&mut self.cfa.terms, v, CType::INT),
                    CType::INT,
                ))
            }
            _ => Err(self.unsupported(span, "this operator on a pointer")),
        }
    }

    /// A shift on mathematical integers: by a constant amount it is a
    /// multiplication or a floor division by a power of two (what gcc's
    /// arithmetic `>>` computes); by a variable amount it is refused.
    pub(super) fn int_shift(
        &mut self,
        op: &BinaryOperator,
        l: Term,
        lt: CType,
        amount: Term,
        span: Span,
    ) -> Result<(Term, CType)> {
        let by = match self.cfa.terms.op(amount) {
            Op::Num(r, _) if r.is_int() && (0..lt.width as i128).contains(&r.numer()) => r.numer(),
            _ => return Err(self.unsupported(span, "shifts by a variable amount under --int")),
        };
        let factor = self.num.constant(&mut self.cfa.terms, 1i128 << by, lt);
        let left = matches!(
            op,
            BinaryOperator::ShiftLeft | BinaryOperator::AssignShiftLeft
        );
        let o = if left { Op::Mul } else { Op::IntDiv };
        Ok((self.cfa.terms.mk(o, &[l, factor]), lt))
    }

    pub(super) fn binary(
        &mut self,
        b: &'a Node<BinaryOperatorExpression>,
        span: Span,
    ) -> Result<(Term, CType)> {
        use BinaryOperator::*;
        let op = b.node.operator.node.clone();
        match op {
            Assign => {
                if let Some(to) = self
                    .layout_of(&b.node.lhs)
                    .filter(|l| !matches!(l, Layout::Scalar(_)))
                {
                    // A struct assignment: its value is not read here.
                    let (Some(to), Some(from)) =
                        (self.place(&b.node.lhs)?, self.place(&b.node.rhs)?)
                    else {
                        let what = format!("assigning this to {}", to.describe());
                        return Err(self.unsupported(span, what));
                    };
                    self.copy(&to, &from, span)?;
                    return Ok(self.no_value());
                }
                let wanted = match self.layout_of(&b.node.lhs) {
                    Some(Layout::Scalar(t)) => Some(t),
                    _ => None,
                };
                let (v, ty) = self.expr_for(&b.node.rhs, wanted)?;
                self.assign_to(&b.node.lhs, v, ty, span)
            }
            LogicalAnd | LogicalOr => {
                if may_branch(&b.node.rhs.node) {
                    // Short-circuit through control flow into a temporary.
                    let tmp = self.new_var("logic", CType::INT);
                    let (t, f, join) = (self.new_loc(span), self.new_loc(span), self.new_loc(span));
                    self.branch_logical(b, t, f)?;
                    let one = self.num.constant(&mut self.cfa.terms, 1, CType::INT);
                    let zero = self.num.constant(&mut self.cfa.terms, 0, CType::INT);
                    self.cfa.add_edge(t, Command::Assign(tmp, one), join);
                    self.cfa.add_edge(f, Command::Assign(tmp, zero), join);
                    self.cur = join;
                    return Ok((tmp, CType::INT));
                }
                let (a, at) = self.expr(&b.node.lhs)?;
                let x = self.num.truth(&mut self.cfa.terms, a, at);
                // The right operand is evaluated only when the left one
                // does not decide.
                let undecided = if op == LogicalAnd {
                    x
                } else {
                    self.cfa.terms.not(x)
                };
                let (c, ct) = self.guarded(undecided, |l| l.expr(&b.node.rhs))?;
                let y = self.num.truth(&mut self.cfa.terms, c, ct);
                let o = if op == LogicalAnd { Op::And } else { Op::Or };
                let p = self.cfa.terms.mk(o, &[x, y]);
                Ok((
                    self.num.from_bool(&mut self.cfa.terms, p, CType::INT),
                    CType::INT,
                ))
            }
            AssignMultiply | AssignDivide | AssignModulo | AssignPlus | AssignMinus
            | AssignShiftLeft | AssignShiftRight | AssignBitwiseAnd | AssignBitwiseXor
            | AssignBitwiseOr => {
                let rhs = self.expr(&b.node.rhs)?;
                let target = self.lvalue(&b.node.lhs)?;
                let lhs = self.load(&target, span)?;
                let (v, ty) = self.arith(&op, lhs, rhs, span)?;
                self.store(&target, v, ty, span)
            }
            _ => {
                let mut lhs = self.expr(&b.node.lhs)?;
                if has_side_effects(&b.node.rhs.node) {
                    lhs = self.stabilize(lhs, span);
                }
                let rhs = self.expr(&b.node.rhs)?;
                self.arith(&op, lhs, rhs, span)
            }
        }
    }
}

/// A shift amount `r` of its promoted type `rt` as a bit-vector of the
/// promoted left operand's width `lt`, read unsigned (an amount of at least
/// that width, undefined behaviour, may truncate).
pub(super) fn shift_amount(
    terms: &mut crate::ir::term::Terms,
    r: Term,
    rt: CType,
    lt: CType,
) -> Term {
    Numbers { int: false }.convert(
        terms,
        r,
        CType::int(rt.width, false),
        CType::int(lt.width, false),
    )
}
