//! Arrays: element reads and writes over the array's elements as
//! variables, with the out-of-bounds flag.

use super::*;

impl<'a> Lowerer<'a> {
    /// The array named by `e`, if it is an identifier bound to one.
    pub(super) fn array_of(&self, e: &Node<Expression>) -> Option<(std::rc::Rc<[Term]>, CType)> {
        match &e.node {
            Expression::Identifier(id) => match self.binding(&id.node.name) {
                Some(Binding::Array(elements, ty)) => Some((elements.clone(), *ty)),
                _ => None,
            },
            _ => None,
        }
    }

    pub(super) fn assign_to(
        &mut self,
        lhs: &'a Node<Expression>,
        value: Term,
        from: CType,
        span: Span,
    ) -> Result<(Term, CType)> {
        if let Expression::BinaryOperator(b) = &lhs.node {
            if let (BinaryOperator::Index, Some((elements, ty))) =
                (&b.node.operator.node, self.array_of(&b.node.lhs))
            {
                return self.assign_element(&elements, ty, &b.node.rhs, value, from, span);
            }
        }
        let Expression::Identifier(id) = &lhs.node else {
            return Err(self.unsupported(lhs.span, "assignment to something other than a variable"));
        };
        let (var, ty) = self.lookup(&id.node.name, lhs.span)?;
        let v = self.num.convert(&mut self.cfa.terms, value, from, ty);
        self.emit(Command::Assign(var, v), span);
        Ok((var, ty))
    }

    /// `a[index] = value` on the scalarized array `elements`: every element
    /// takes the value if the index names it. The value and the index are
    /// copied first when they read the array, since the elements are
    /// assigned one after the other.
    pub(super) fn assign_element(
        &mut self,
        elements: &[Term],
        ty: CType,
        index: &'a Node<Expression>,
        value: Term,
        from: CType,
        span: Span,
    ) -> Result<(Term, CType)> {
        if has_side_effects(&index.node) {
            // Compound assignments and `++` evaluate the index twice.
            return Err(self.unsupported(
                index.span,
                "an array index with side effects in an assignment",
            ));
        }
        let v = self.num.convert(&mut self.cfa.terms, value, from, ty);
        let (v, _) = if self.reads_any(v, elements) {
            self.stabilize((v, ty), span)
        } else {
            (v, ty)
        };
        let command = match self.index(elements, index, span)? {
            ArrayIndex::Constant(k) => Command::Assign(elements[k], v),
            ArrayIndex::Variable(i, ity) => {
                let (i, _) = if self.reads_any(i, elements) {
                    self.stabilize((i, ity), span)
                } else {
                    (i, ity)
                };
                let mut updates = Vec::with_capacity(elements.len());
                for (k, &element) in elements.iter().enumerate() {
                    let at = self.num.constant(&mut self.cfa.terms, k as i128, ity);
                    let here = self.cfa.terms.eq(i, at);
                    let new = self.cfa.terms.mk(Op::Ite, &[here, v, element]);
                    updates.push(Command::Assign(element, new));
                }
                Command::Seq(updates)
            }
        };
        self.emit(command, span);
        Ok((v, ty))
    }

    /// Whether `t` reads one of `vars`.
    pub(super) fn reads_any(&self, t: Term, vars: &[Term]) -> bool {
        let terms = &self.cfa.terms;
        terms.topological(&[t]).iter().any(|x| vars.contains(x))
    }

    /// Evaluates an index into `elements`. Out of bounds (undefined
    /// behaviour), the path goes to the error location with the
    /// out-of-bounds flag set ([`Program::out_of_bounds`]); the index is
    /// compared in 64 bits of its own signedness (or as an integer).
    pub(super) fn index(
        &mut self,
        elements: &[Term],
        index: &'a Node<Expression>,
        span: Span,
    ) -> Result<ArrayIndex> {
        let n = elements.len() as i128;
        let (v, ty) = self.expr(index)?;
        if let Some(k) = self.constant_value(v, ty).filter(|k| (0..n).contains(k)) {
            return Ok(ArrayIndex::Constant(k as usize));
        }
        if !self.num.int && (ty.boolean || ty.width > 64) {
            return Err(self.unsupported(index.span, "this type of array index"));
        }
        // (Under --int the signedness does not matter: integers compare as such.)
        let wide = CType::int(64, ty.signed);
        let i = self.num.convert(&mut self.cfa.terms, v, ty, wide);
        let zero = self.num.constant(&mut self.cfa.terms, 0, wide);
        let size = self.num.constant(&mut self.cfa.terms, n, wide);
        let (le, lt) = match (self.num.int, wide.signed) {
            (true, _) => (Op::Le, Op::Lt),
            (false, true) => (Op::BvSle, Op::BvSlt),
            (false, false) => (Op::BvUle, Op::BvUlt),
        };
        let terms = &mut self.cfa.terms;
        let above = terms.mk(le, &[zero, i]);
        let below = terms.mk(lt, &[i, size]);
        let inside = terms.mk(Op::And, &[above, below]);
        let outside = terms.not(inside);
        let flag = *self.out_of_bounds.get_or_insert_with(|| {
            let flag = self.cfa.terms.var("out-of-bounds", Sort::Bool);
            self.cfa.vars.push(flag);
            flag
        });
        let set = self.cfa.terms.bool(true);
        let trap = Command::Assume(outside).then(Command::Assign(flag, set));
        self.cfa.add_edge(self.cur, trap, self.cfa.error);
        let next = self.new_loc(span);
        self.cfa.add_edge(self.cur, Command::Assume(inside), next);
        self.cur = next;
        Ok(ArrayIndex::Variable(i, wide))
    }
}
