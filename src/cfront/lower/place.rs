//! Places: the objects that array elements and struct members designate,
//! as the leaves they may start at. A constant path names one leaf range; a
//! variable index gives one candidate per element, each under the condition
//! that the index names it, so that a read is a multiplexer over the
//! candidates and a write updates each candidate under its condition. An
//! index out of bounds is undefined behaviour; see [`Lowerer::index`].

use super::layout::Layout;
use super::layout::MemPlace;
use super::*;
use std::rc::Rc;

/// What an alias points to: an object, or (`decayed`) the first element of
/// an array object, as an array passed to a function is.
#[derive(Clone, Debug)]
pub(super) struct Target {
    pub(super) place: Place,
    pub(super) decayed: bool,
}

impl Target {
    /// The type of what the pointer points to.
    pub(super) fn pointee(&self) -> Layout {
        match (&self.place.layout, self.decayed) {
            (Layout::Array(element, _), true) => (**element).clone(),
            (layout, _) => layout.clone(),
        }
    }
}

/// What an assignment may assign to: a scalar variable or a place.
pub(super) enum Lvalue {
    Var(Term, CType),
    Place(Place),
}

/// Where an lvalue lies in an object.
#[derive(Clone, Debug)]
pub(super) struct Place {
    /// The whole object's leaves.
    pub(super) leaves: Rc<[Term]>,
    /// The type of the designated subobject.
    pub(super) layout: Layout,
    /// Where the subobject may start, each under its condition (the
    /// conditions are disjoint and one holds once the indices are in
    /// bounds; a single candidate needs none).
    pub(super) at: Vec<(Term, usize)>,
    /// Where a subarray lies in an array kept whole (then `leaves` and `at`
    /// are empty).
    pub(super) memory: Option<MemPlace>,
    /// Where the leaves are arrays: the index at which each is read and
    /// written. On the heap the pointer to the object's start (the leaves
    /// are region arrays, `heap.rs`); in an array kept whole the element's
    /// row-major number (`memory.rs`).
    pub(super) index: Option<Term>,
}

impl<'a> Lowerer<'a> {
    /// The place `e` designates, if it is a variable holding an aggregate,
    /// an element of an array or a member of a struct. Evaluates the indices.
    pub(super) fn place(&mut self, e: &'a Node<Expression>) -> Result<Option<Place>> {
        match &e.node {
            Expression::Identifier(id) => {
                let (leaves, layout) = match self.binding(&id.node.name) {
                    Some(Binding::Object(leaves, layout)) => (leaves.clone(), layout.clone()),
                    Some(Binding::Memory(memory)) => {
                        let memory = memory.clone();
                        return Ok(Some(self.whole_place(&memory)));
                    }
                    _ => return Ok(None),
                };
                let yes = self.cfa.terms.bool(true);
                Ok(Some(Place {
                    leaves,
                    layout,
                    at: vec![(yes, 0)],
                    memory: None,
                    index: None,
                }))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                match self.deref(&u.node.operand, false)? {
                    Some(place) => Ok(Some(place)),
                    None => self
                        .through_pointer(&u.node.operand, None, e.span)
                        .map(Some),
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let array = match self.place(&b.node.lhs)? {
                    Some(array) => array,
                    None => match self.deref(&b.node.lhs, true)? {
                        Some(array) => array,
                        None => {
                            let at = Some(&*b.node.rhs);
                            return self.through_pointer(&b.node.lhs, at, e.span).map(Some);
                        }
                    },
                };
                if let Some(whole) = &array.memory {
                    return Ok(Some(self.index_whole(whole, &b.node.rhs, e.span)?));
                }
                let Layout::Array(element, n) = array.layout.clone() else {
                    let what = format!("indexing {}", array.layout.describe());
                    return Err(self.unsupported(e.span, what));
                };
                let stride = element.leaves();
                let mut at = Vec::new();
                match self.index(n, &b.node.rhs, e.span)? {
                    ArrayIndex::Constant(k) => {
                        at.extend(array.at.iter().map(|&(g, p)| (g, p + k * stride)));
                    }
                    ArrayIndex::Variable(i, ity) => {
                        // An index that reads the object is copied: writes
                        // to the candidates come one after the other.
                        let (i, _) = if self.reads_any(i, &array.leaves) {
                            self.stabilize((i, ity), e.span)
                        } else {
                            (i, ity)
                        };
                        for k in 0..n {
                            let c = self.num.constant(&mut self.cfa.terms, k as i128, ity);
                            let here = self.cfa.terms.eq(i, c);
                            for &(g, p) in &array.at {
                                let both = self.cfa.terms.and_all(&[g, here]);
                                at.push((both, p + k * stride));
                            }
                        }
                    }
                }
                Ok(Some(Place {
                    leaves: array.leaves,
                    layout: (*element).clone(),
                    at,
                    memory: None,
                    index: array.index,
                }))
            }
            Expression::Member(m) => {
                let whole = if m.node.operator.node == MemberOperator::Indirect {
                    match self.deref(&m.node.expression, false)? {
                        Some(place) => place,
                        None => self.through_pointer(&m.node.expression, None, e.span)?,
                    }
                } else {
                    self.place(&m.node.expression)?.ok_or_else(|| {
                        self.unsupported(
                            e.span,
                            "a member of something other than a struct variable",
                        )
                    })?
                };
                let Layout::Struct(record) = &whole.layout else {
                    let what = format!("a member of {}", whole.layout.describe());
                    return Err(self.unsupported(e.span, what));
                };
                if record.union {
                    let what = format!(
                        "a member of {} (its members share bytes)",
                        whole.layout.describe()
                    );
                    return Err(self.unsupported(e.span, what));
                }
                let name = &m.node.identifier.node.name;
                let mut offset = 0;
                for (field, layout) in &record.fields {
                    if field == name {
                        return Ok(Some(Place {
                            leaves: whole.leaves.clone(),
                            layout: layout.clone(),
                            at: (whole.at.iter()).map(|&(g, p)| (g, p + offset)).collect(),
                            memory: None,
                            index: whole.index,
                        }));
                    }
                    offset += layout.leaves();
                }
                Err(FrontError::Syntax(format!(
                    "{}: `struct {}` has no member `{name}`",
                    self.line(m.node.identifier.span),
                    record.tag
                )))
            }
            _ => Ok(None),
        }
    }

    /// The type of the object `e` designates, if it is an aggregate
    /// variable, an element or a member, found without evaluating `e` (for
    /// `sizeof`).
    pub(super) fn layout_of(&self, e: &Node<Expression>) -> Option<Layout> {
        match &e.node {
            Expression::Identifier(id) => match self.binding(&id.node.name) {
                Some(Binding::Object(_, layout)) => Some(layout.clone()),
                Some(Binding::Memory(memory)) => memory.layout_at(0),
                Some(Binding::Scalar(_, ty)) if ty.is_pointer() => Some(Layout::Scalar(*ty)),
                _ => None,
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                if let Some(target) = self.alias_of(&b.node.lhs) {
                    return Some(target.pointee());
                }
                // An element of a variable-length array has a type of
                // constant size where the array as a whole has none.
                if let Expression::Identifier(id) = &b.node.lhs.node {
                    if let Some(Binding::Memory(memory)) = self.binding(&id.node.name) {
                        return memory.layout_at(1);
                    }
                }
                match self.layout_of(&b.node.lhs)? {
                    Layout::Array(element, _) => Some((*element).clone()),
                    Layout::Scalar(ty) if ty.is_pointer() => {
                        self.pointee_layout(ty, b.span).ok()?
                    }
                    _ => None,
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                match self.alias_of(&u.node.operand) {
                    Some(target) => Some(target.pointee()),
                    None => self.pointed_layout(&u.node.operand),
                }
            }
            Expression::Member(m) => {
                let whole = match m.node.operator.node {
                    MemberOperator::Direct => self.layout_of(&m.node.expression)?,
                    MemberOperator::Indirect => match self.alias_of(&m.node.expression) {
                        Some(target) => target.pointee(),
                        None => self.pointed_layout(&m.node.expression)?,
                    },
                };
                let Layout::Struct(r) = whole else {
                    return None;
                };
                let name = &m.node.identifier.node.name;
                (r.fields.iter())
                    .find(|(f, _)| f == name)
                    .map(|(_, l)| l.clone())
            }
            _ => None,
        }
    }

    /// The type of what the pointer `e` points to, found without evaluating `e`.
    fn pointed_layout(&self, e: &Node<Expression>) -> Option<Layout> {
        match self.layout_of(e)? {
            Layout::Scalar(ty) if ty.is_pointer() => self.pointee_layout(ty, e.span).ok()?,
            _ => None,
        }
    }

    /// Whether the lvalue `e` lies on the heap: it dereferences a pointer
    /// that is not an alias (found without evaluating `e`).
    pub(super) fn on_heap(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.alias_of(&u.node.operand).is_none()
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                match self.layout_of(&b.node.lhs) {
                    Some(Layout::Array(..)) => self.on_heap(&b.node.lhs),
                    _ => self.alias_of(&b.node.lhs).is_none(),
                }
            }
            Expression::Member(m) => match m.node.operator.node {
                MemberOperator::Direct => self.on_heap(&m.node.expression),
                MemberOperator::Indirect => self.alias_of(&m.node.expression).is_none(),
            },
            _ => false,
        }
    }

    /// `&e` for an lvalue `e` on the heap: the pointer to the object, array
    /// element or member it designates. A member's pointer has the
    /// member's type while its object has the whole's: it is compared,
    /// copied and passed, and a dereference of it ends the path with no
    /// verdict (the type check of `heap_place`).
    pub(super) fn heap_address(
        &mut self,
        e: &'a Node<Expression>,
        span: Span,
    ) -> Result<(Term, CType)> {
        let place = (self.addressed_place(e)?).expect("an lvalue on the heap is a place");
        // The byte offset of the designated subobject in its object.
        let offset = match &place.at[..] {
            [(_, 0)] if place.layout.leaves() == place.leaves.len() => Some(0),
            &[(_, leaf)] => (self.heap_whole(e))
                .filter(|whole| whole.leaves() == place.leaves.len())
                .and_then(|whole| whole.leaf_offset(leaf, self.options.lp64)),
            _ => None,
        };
        let (Some(p), Some(offset)) = (place.index, offset) else {
            return Err(self.unsupported(span, "the address of a member of an object on the heap"));
        };
        let pointee = self.pointee_for(&place.layout, span)?;
        let ty = self.pointer_to(pointee);
        if offset == 0 {
            return Ok((p, ty));
        }
        let ct = CType::int(64, false);
        let shift = (self.num).constant(&mut self.cfa.terms, (offset as i128) << 32, ct);
        Ok((self.cfa.terms.mk(Op::BvAdd, &[p, shift]), ty))
    }

    /// The place `e` for its address only (`&e`): no dereference is
    /// performed ([`Lowerer::addressing`]).
    pub(super) fn addressed_place(&mut self, e: &'a Node<Expression>) -> Result<Option<Place>> {
        let outer = std::mem::replace(&mut self.addressing, true);
        let place = self.place(e);
        self.addressing = outer;
        place
    }

    /// The type of the heap object (or array element) the lvalue `e` lies
    /// in, as [`Lowerer::on_heap`] finds it.
    fn heap_whole(&self, e: &Node<Expression>) -> Option<Layout> {
        match &e.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.pointed_layout(&u.node.operand)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                match self.layout_of(&b.node.lhs) {
                    Some(Layout::Array(..)) => self.heap_whole(&b.node.lhs),
                    _ => self.pointed_layout(&b.node.lhs),
                }
            }
            Expression::Member(m) => match m.node.operator.node {
                MemberOperator::Direct => self.heap_whole(&m.node.expression),
                MemberOperator::Indirect => self.pointed_layout(&m.node.expression),
            },
            _ => None,
        }
    }

    /// The place `*e` (or `e[at]`) for an expression `e` of pointer type.
    fn through_pointer(
        &mut self,
        e: &'a Node<Expression>,
        at: Option<&'a Node<Expression>>,
        span: Span,
    ) -> Result<Place> {
        let (mut p, ty) = self.expr(e)?;
        if !ty.is_pointer() {
            return Err(self.unsupported(span, "pointers (dereferencing this expression)"));
        }
        if let Some(at) = at {
            p = self.stabilize((p, ty), span).0;
            let k = self.expr(at)?;
            p = self.pointer_add(p, ty, k, span)?;
        }
        let p = self.stabilize((p, ty), span).0;
        self.heap_place(p, ty, span)
    }

    /// The alias `e` names, if it names one.
    fn alias_of(&self, e: &Node<Expression>) -> Option<&Target> {
        match &e.node {
            Expression::Identifier(id) => match self.binding(&id.node.name) {
                Some(Binding::Alias(target)) => Some(target),
                _ => None,
            },
            _ => None,
        }
    }

    /// What `e` designates as the target of an assignment.
    pub(super) fn lvalue(&mut self, e: &'a Node<Expression>) -> Result<Lvalue> {
        if let Some(place) = self.place(e)? {
            return Ok(Lvalue::Place(place));
        }
        let Expression::Identifier(id) = &e.node else {
            return Err(self.unsupported(e.span, "assignment to something other than a variable"));
        };
        let (var, ty) = self.lookup(&id.node.name, e.span)?;
        if matches!(self.binding(&id.node.name), Some(Binding::Constant(_))) {
            return Err(FrontError::Syntax(format!(
                "{}: assignment to the enumeration constant `{}`",
                self.line(e.span),
                id.node.name
            )));
        }
        Ok(Lvalue::Var(var, ty))
    }

    /// The value an lvalue holds.
    pub(super) fn load(&mut self, lv: &Lvalue, span: Span) -> Result<(Term, CType)> {
        match lv {
            Lvalue::Var(var, ty) => Ok((*var, *ty)),
            Lvalue::Place(place) => self.read(place, span),
        }
    }

    /// Assigns `value` (of type `from`) to an lvalue: returns the value
    /// assigned and its type.
    pub(super) fn store(
        &mut self,
        lv: &Lvalue,
        value: Term,
        from: CType,
        span: Span,
    ) -> Result<(Term, CType)> {
        match lv {
            Lvalue::Var(var, ty) => {
                let v = self.convert_value(value, from, *ty, span)?;
                self.emit(Command::Assign(*var, v), span);
                Ok((*var, *ty))
            }
            Lvalue::Place(place) => self.write(place, value, from, span),
        }
    }

    /// `lhs = value`.
    pub(super) fn assign_to(
        &mut self,
        lhs: &'a Node<Expression>,
        value: Term,
        from: CType,
        span: Span,
    ) -> Result<(Term, CType)> {
        let lv = self.lvalue(lhs)?;
        self.store(&lv, value, from, span)
    }

    /// The value of leaf `j` of the subobject at `place`.
    pub(super) fn read_leaf(&mut self, place: &Place, j: usize) -> Term {
        let (&(_, last), rest) = place.at.split_last().expect("a place has a candidate");
        let mut value = self.leaf_at(place, last + j);
        for &(here, p) in rest.iter().rev() {
            let leaf = self.leaf_at(place, p + j);
            value = self.cfa.terms.mk(Op::Ite, &[here, leaf, value]);
        }
        value
    }

    /// The value of the object's leaf `k` (on the heap, read at the place's pointer).
    fn leaf_at(&mut self, place: &Place, k: usize) -> Term {
        match place.index {
            Some(p) => (self.cfa.terms).mk(Op::Select, &[place.leaves[k], p]),
            None => place.leaves[k],
        }
    }

    /// The new value of the object's leaf `k` once it holds `v`.
    fn leaf_with(&mut self, place: &Place, k: usize, v: Term) -> Term {
        match place.index {
            Some(p) => (self.cfa.terms).mk(Op::Store, &[place.leaves[k], p, v]),
            None => v,
        }
    }

    /// The value of a scalar place.
    pub(super) fn read(&mut self, place: &Place, span: Span) -> Result<(Term, CType)> {
        let (None, Layout::Scalar(ty)) = (&place.memory, &place.layout) else {
            let what = format!("{} used as a value here", place.layout.describe());
            return Err(self.unsupported(span, what));
        };
        Ok((self.read_leaf(place, 0), *ty))
    }

    /// The commands that give leaf `j` of the subobject at `place` the value `v`.
    fn write_leaf(&mut self, place: &Place, j: usize, v: Term, out: &mut Vec<Command>) {
        if let [(_, p)] = place.at[..] {
            let new = self.leaf_with(place, p + j, v);
            out.push(Command::Assign(place.leaves[p + j], new));
            return;
        }
        for &(here, p) in &place.at {
            let leaf = place.leaves[p + j];
            let new = self.leaf_with(place, p + j, v);
            let new = self.cfa.terms.mk(Op::Ite, &[here, new, leaf]);
            out.push(Command::Assign(leaf, new));
        }
    }

    /// Assigns `value` (of type `from`) to the scalar place: returns the
    /// value assigned and its type.
    pub(super) fn write(
        &mut self,
        place: &Place,
        value: Term,
        from: CType,
        span: Span,
    ) -> Result<(Term, CType)> {
        let (None, &Layout::Scalar(ty)) = (&place.memory, &place.layout) else {
            let what = format!("assigning a scalar to {}", place.layout.describe());
            return Err(self.unsupported(span, what));
        };
        let v = self.convert_value(value, from, ty, span)?;
        // The candidates are assigned one after the other.
        let (v, _) = if place.at.len() > 1 && self.reads_any(v, &place.leaves) {
            self.stabilize((v, ty), span)
        } else {
            (v, ty)
        };
        let mut commands = Vec::new();
        self.write_leaf(place, 0, v, &mut commands);
        self.emit(Command::Seq(commands), span);
        Ok((v, ty))
    }

    /// The values of every leaf of the subobject at `place`, copied into
    /// temporaries where they read `into` (assigned one after the other).
    pub(super) fn leaf_values(
        &mut self,
        place: &Place,
        into: &[Term],
        span: Span,
    ) -> Result<Vec<Term>> {
        if place.memory.is_some() {
            let what = "copying an array kept whole (large or of variable size)";
            return Err(self.unsupported(span, what));
        }
        let mut types = Vec::new();
        place.layout.leaf_types(&mut types);
        let mut values = Vec::with_capacity(types.len());
        for (j, ty) in types.into_iter().enumerate() {
            let v = self.read_leaf(place, j);
            values.push(if self.reads_any(v, into) {
                self.stabilize((v, ty), span).0
            } else {
                v
            });
        }
        Ok(values)
    }

    /// `to = from` for aggregates of the same type (a struct assignment).
    pub(super) fn copy(&mut self, to: &Place, from: &Place, span: Span) -> Result<()> {
        if to.memory.is_some() || from.memory.is_some() {
            let what = "copying an array kept whole (large or of variable size)";
            return Err(self.unsupported(span, what));
        }
        if !to.layout.same(&from.layout) {
            let what = format!(
                "assigning {} to {}",
                from.layout.describe(),
                to.layout.describe()
            );
            return Err(self.unsupported(span, what));
        }
        let values = self.leaf_values(from, &to.leaves, span)?;
        let mut commands = Vec::new();
        for (j, v) in values.into_iter().enumerate() {
            self.write_leaf(to, j, v, &mut commands);
        }
        self.emit(Command::Seq(commands), span);
        Ok(())
    }

    /// Whether `t` reads one of `vars`.
    pub(super) fn reads_any(&self, t: Term, vars: &[Term]) -> bool {
        let vars: std::collections::HashSet<&Term> = vars.iter().collect();
        let terms = &self.cfa.terms;
        terms.topological(&[t]).iter().any(|x| vars.contains(x))
    }

    /// Evaluates an index into an array of `n` elements. Out of bounds
    /// (undefined behaviour), the path goes to the error location with the
    /// out-of-bounds flag set ([`Program::out_of_bounds`]); the index is
    /// compared in 64 bits of its own signedness (or as an integer).
    pub(super) fn index(
        &mut self,
        n: usize,
        index: &'a Node<Expression>,
        span: Span,
    ) -> Result<ArrayIndex> {
        let n = n as i128;
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
        let size = self.num.constant(&mut self.cfa.terms, n, wide);
        self.bounds_check(i, wide, size, span);
        Ok(ArrayIndex::Variable(i, wide))
    }

    /// Evaluates an index into an array of `size` elements (a term of
    /// type `size_ty`), bounds-checked as [`Lowerer::index`] does; the
    /// index in 64 bits of its own signedness.
    pub(super) fn checked_index(
        &mut self,
        size: Term,
        size_ty: CType,
        index: &'a Node<Expression>,
        span: Span,
    ) -> Result<Term> {
        let (v, ty) = self.expr(index)?;
        if ty.boolean || ty.width > 64 {
            return Err(self.unsupported(index.span, "this type of array index"));
        }
        let wide = CType::int(64, ty.signed);
        let i = self.num.convert(&mut self.cfa.terms, v, ty, wide);
        let size = self.num.convert(&mut self.cfa.terms, size, size_ty, wide);
        self.bounds_check(i, wide, size, span);
        Ok(i)
    }

    /// Sends the path to the error location with the out-of-bounds flag
    /// set unless `0 <= i < size` (both of type `wide`): an invalid
    /// dereference, under memory safety.
    fn bounds_check(&mut self, i: Term, wide: CType, size: Term, span: Span) {
        let zero = self.num.constant(&mut self.cfa.terms, 0, wide);
        let (le, lt) = match (self.num.int, wide.signed) {
            (true, _) => (Op::Le, Op::Lt),
            (false, true) => (Op::BvSle, Op::BvSlt),
            (false, false) => (Op::BvUle, Op::BvUlt),
        };
        let terms = &mut self.cfa.terms;
        let above = terms.mk(le, &[zero, i]);
        let below = terms.mk(lt, &[i, size]);
        let inside = terms.mk(Op::And, &[above, below]);
        self.undefined_unless(inside, Some(Fault::Deref), span);
    }

    /// Unless `inside` holds, the access or `free` is invalid. Under memory
    /// safety the path goes to the error location with the flag of `fault`
    /// set (a violation); under the other properties an invalid access is
    /// undefined behaviour, where the execution ends (SV-COMP's reading).
    /// What `fault` does not name (an object read at a type it was not
    /// given, on which the typed regions rest; a place out of bounds taken
    /// for its address only, [`Lowerer::addressing`], which performs no
    /// access) goes to the error location with the out-of-bounds flag set:
    /// a trace ending there is no verdict.
    pub(super) fn undefined_unless(&mut self, inside: Term, fault: Option<Fault>, span: Span) {
        let fault = fault.filter(|_| !self.addressing);
        if fault.is_some() && self.options.property != Spec::MemSafety {
            return self.defined_only_if(inside, span);
        }
        let Some(inside) = self.guarded_condition(inside) else {
            return;
        };
        let outside = self.cfa.terms.not(inside);
        let flag = match fault {
            Some(fault) => {
                self.error_calls.extend(self.point(span));
                self.fault_flag(fault)
            }
            None => self.undefined_flag(),
        };
        let set = self.cfa.terms.bool(true);
        let trap = Command::Assume(outside).then(Command::Assign(flag, set));
        self.cfa.add_edge(self.cur, trap, self.cfa.error);
        let next = self.new_loc(span);
        self.cfa.add_edge(self.cur, Command::Assume(inside), next);
        self.cur = next;
    }

    /// The flag of undefined behaviour ([`Program::out_of_bounds`]).
    pub(super) fn undefined_flag(&mut self) -> Term {
        *self.out_of_bounds.get_or_insert_with(|| {
            let flag = self.cfa.terms.var("out-of-bounds", Sort::Bool);
            self.cfa.vars.push(flag);
            flag
        })
    }

    /// The flag of a violation of `fault` ([`Program::violations`]).
    pub(super) fn fault_flag(&mut self, fault: Fault) -> Term {
        if let Some(&(flag, _)) = self.violations.iter().find(|v| v.1 == fault) {
            return flag;
        }
        let flag = self.cfa.terms.var(fault.flag(), Sort::Bool);
        self.cfa.vars.push(flag);
        self.violations.push((flag, fault));
        flag
    }
}
