//! Pointers that can only point to one object: a pointer parameter never
//! assigned in its function, bound at an inlined call to `&x`, `&s.f`,
//! `&a[2]` or an array `a`, and a local pointer initialised so and never
//! assigned. Such a pointer is an alias of its target: `*p`, `p->f` and
//! `p[i]` are places in the target, at the cost of a scalar access. Other
//! pointers are refused (or, written and never read, dropped).

use super::layout::Layout;
use super::place::{Place, Target};
use super::*;
use std::collections::HashSet;

/// The names a function body assigns, increments or takes the address of
/// (a pointer among them may point to more than one object).
pub(super) fn assigned_names(body: &Node<Statement>) -> HashSet<String> {
    let mut expressions = Vec::new();
    statement_expressions(&body.node, &mut expressions);
    let names = std::cell::RefCell::new(HashSet::new());
    let note = |e: &Expression| {
        let target = match e {
            Expression::BinaryOperator(b) if side_effect(e) => Some(&b.node.lhs),
            Expression::UnaryOperator(u)
                if side_effect(e) || u.node.operator.node == UnaryOperator::Address =>
            {
                Some(&u.node.operand)
            }
            _ => None,
        };
        if let Some(Expression::Identifier(id)) = target.map(|t| &t.node) {
            names.borrow_mut().insert(id.node.name.clone());
        }
        false
    };
    for e in expressions {
        any_subexpression(e, &note);
    }
    names.into_inner()
}

/// Whether a function body calls the function `name` (directly).
pub(super) fn calls(body: &Node<Statement>, name: &str) -> bool {
    let mut expressions = Vec::new();
    statement_expressions(&body.node, &mut expressions);
    let test = |e: &Expression| {
        matches!(e, Expression::Call(c)
            if matches!(&c.node.callee.node, Expression::Identifier(id) if id.node.name == name))
    };
    expressions.into_iter().any(|e| any_subexpression(e, &test))
}

/// What an assignment `name = value` in a function body gives `name`:
/// an address (`&x`), the value of a name (an array decays to its
/// address), or something else.
pub(super) enum Given {
    /// `&lvalue`, with the name the lvalue starts from.
    Address(Option<String>),
    Name(String),
    Other,
}

/// The assignments `name = value` of a function body, casts looked through.
pub(super) fn assigned_values(body: &Node<Statement>) -> Vec<(String, Given)> {
    let mut expressions = Vec::new();
    statement_expressions(&body.node, &mut expressions);
    let found = std::cell::RefCell::new(Vec::new());
    let note = |e: &Expression| {
        if let Expression::BinaryOperator(b) = e {
            if let (BinaryOperator::Assign, Expression::Identifier(id)) =
                (&b.node.operator.node, &b.node.lhs.node)
            {
                found
                    .borrow_mut()
                    .push((id.node.name.clone(), given(&b.node.rhs.node)));
            }
        }
        false
    };
    for e in expressions {
        any_subexpression(e, &note);
    }
    found.into_inner()
}

/// What the value `e` is, casts looked through.
fn given(e: &Expression) -> Given {
    match e {
        Expression::Cast(c) => given(&c.node.expression.node),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            Given::Address(base_name(&u.node.operand.node))
        }
        Expression::Identifier(id) => Given::Name(id.node.name.clone()),
        _ => Given::Other,
    }
}

/// The name an lvalue starts from (`a` in `a[2].x`, `p` in `p->next`).
fn base_name(e: &Expression) -> Option<String> {
    match e {
        Expression::Identifier(id) => Some(id.node.name.clone()),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            base_name(&b.node.lhs.node)
        }
        Expression::Member(m) => base_name(&m.node.expression.node),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
            base_name(&u.node.operand.node)
        }
        _ => None,
    }
}

/// The expressions a statement evaluates, its substatements' included.
fn statement_expressions<'b>(s: &'b Statement, out: &mut Vec<&'b Expression>) {
    let declaration = |d: &'b Node<Declaration>, out: &mut Vec<&'b Expression>| {
        for init in &d.node.declarators {
            if let Some(Initializer::Expression(e)) =
                init.node.initializer.as_ref().map(|i| &i.node)
            {
                out.push(&e.node);
            }
        }
    };
    match s {
        Statement::Compound(items) => {
            for item in items {
                match &item.node {
                    BlockItem::Declaration(d) => declaration(d, out),
                    BlockItem::Statement(st) => statement_expressions(&st.node, out),
                    BlockItem::StaticAssert(_) => {}
                }
            }
        }
        Statement::Expression(Some(e)) => out.push(&e.node),
        Statement::Labeled(l) => statement_expressions(&l.node.statement.node, out),
        Statement::If(i) => {
            out.push(&i.node.condition.node);
            statement_expressions(&i.node.then_statement.node, out);
            if let Some(e) = &i.node.else_statement {
                statement_expressions(&e.node, out);
            }
        }
        Statement::Switch(sw) => {
            out.push(&sw.node.expression.node);
            statement_expressions(&sw.node.statement.node, out);
        }
        Statement::While(w) => {
            out.push(&w.node.expression.node);
            statement_expressions(&w.node.statement.node, out);
        }
        Statement::DoWhile(d) => {
            out.push(&d.node.expression.node);
            statement_expressions(&d.node.statement.node, out);
        }
        Statement::For(f) => {
            match &f.node.initializer.node {
                ForInitializer::Expression(e) => out.push(&e.node),
                ForInitializer::Declaration(d) => declaration(d, out),
                _ => {}
            }
            out.extend(f.node.condition.iter().map(|c| &c.node));
            out.extend(f.node.step.iter().map(|c| &c.node));
            statement_expressions(&f.node.statement.node, out);
        }
        Statement::Return(Some(e)) => out.push(&e.node),
        _ => {}
    }
}

impl<'a> Lowerer<'a> {
    /// Whether the local pointer `name` is given the address of a variable
    /// (`&x`, an array) by its initializer or an assignment in its
    /// function: variables are not in memory, so such a pointer is kept
    /// only where nobody reads it.
    pub(super) fn given_an_address(&self, name: &str, init: Option<&Node<Initializer>>) -> bool {
        let address = |g: &Given| match g {
            // Through a pointer that is not an alias, the lvalue is on the heap.
            Given::Address(Some(base)) => !matches!(
                self.binding(base),
                Some(Binding::Scalar(_, ty)) if ty.is_pointer()
            ),
            Given::Address(None) => true,
            Given::Name(n) => matches!(
                self.binding(n),
                Some(Binding::Object(_, Layout::Array(..)) | Binding::Memory(_))
                    | Some(Binding::Alias(_) | Binding::Pointer)
            ),
            Given::Other => false,
        };
        if let Some(Initializer::Expression(e)) = init.map(|i| &i.node) {
            if address(&given(&e.node)) {
                return true;
            }
        }
        let frame = self.frames.last().expect("frame");
        (frame.values.iter()).any(|(n, g)| n == name && address(g))
    }

    /// The one object a pointer-valued expression points to, if it is
    /// `&lvalue`, an array (which decays to its first element's address) or
    /// an alias. A target chosen at run time (`&a[i]`) is refused: the
    /// alias would read `i` when used, not when taken.
    pub(super) fn target_of(&mut self, e: &'a Node<Expression>) -> Result<Option<Target>> {
        let (place, decayed) = match &e.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let operand = &u.node.operand;
                if self.on_heap(operand) {
                    return Ok(None); // a pointer value (`heap.rs`), not an alias
                }
                let place = match self.addressed_place(operand)? {
                    Some(place) => place,
                    None => match &operand.node {
                        Expression::Identifier(id) => match self.binding(&id.node.name) {
                            Some(Binding::Scalar(var, ty)) => {
                                let (var, ty) = (*var, *ty);
                                let yes = self.cfa.terms.bool(true);
                                Place {
                                    leaves: vec![var].into(),
                                    layout: Layout::Scalar(ty),
                                    at: vec![(yes, 0)],
                                    memory: None,
                                    index: None,
                                }
                            }
                            _ => return Ok(None),
                        },
                        _ => return Ok(None),
                    },
                };
                (place, false)
            }
            Expression::Identifier(id) => match self.binding(&id.node.name) {
                Some(Binding::Alias(target)) => return Ok(Some(target.clone())),
                Some(Binding::Object(_, Layout::Array(..)) | Binding::Memory(_)) => {
                    (self.place(e)?.expect("an array is a place"), true)
                }
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        if place.at.len() > 1 {
            let what = "a pointer to an element chosen at run time";
            return Err(self.unsupported(e.span, what));
        }
        // An element of an array kept whole is chosen where the address is
        // taken: the alias must not read the index again where it is used.
        let mut place = place;
        if let Some(whole) = &mut place.memory {
            whole.offset = self.fixed_index(whole.offset, e.span);
        }
        if let Some(i) = place.index {
            place.index = Some(self.fixed_index(i, e.span));
        }
        Ok(Some(Target { place, decayed }))
    }

    /// Binds the pointer `name`, declared to point to `pointee`, to `target`.
    pub(super) fn bind_alias(
        &mut self,
        name: String,
        pointee: Option<&Layout>,
        target: Target,
        span: Span,
    ) -> Result<Binding> {
        let fits = match pointee {
            Some(p) => p.same(&target.pointee()),
            None => false,
        };
        if !fits {
            let what = format!(
                "a pointer (`{name}`) to {} that points to {}",
                pointee.map_or("void".into(), Layout::describe),
                target.pointee().describe()
            );
            return Err(self.unsupported(span, what));
        }
        Ok(Binding::Alias(target))
    }

    /// The place `*e`, `e->…` or `e[…]` starts from when `e` names an
    /// alias: the object it points to (for `[…]`, the array it points into).
    pub(super) fn deref(&mut self, e: &Node<Expression>, indexed: bool) -> Result<Option<Place>> {
        let Expression::Identifier(id) = &e.node else {
            return Ok(None);
        };
        let Some(Binding::Alias(target)) = self.binding(&id.node.name) else {
            return Ok(None);
        };
        let target = target.clone();
        if indexed {
            if !target.decayed {
                let what = format!("indexing the pointer `{}` to one object", id.node.name);
                return Err(self.unsupported(e.span, what));
            }
            return Ok(Some(target.place));
        }
        if !target.decayed {
            return Ok(Some(target.place));
        }
        if let Some(whole) = &target.place.memory {
            return Ok(Some(self.first_element(whole)));
        }
        let Layout::Array(element, _) = &target.place.layout else {
            unreachable!("a decayed target is an array")
        };
        Ok(Some(Place {
            leaves: target.place.leaves.clone(),
            layout: (**element).clone(),
            at: target.place.at.clone(),
            memory: None,
            index: None,
        }))
    }
}
