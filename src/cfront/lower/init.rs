//! Declarations' initial values (C11 6.7.9): expressions for scalars,
//! lists for arrays and structs with designators (`[2] =`, `.x =`, nested)
//! and brace elision, struct copies; what a list leaves out is zero, and a
//! variable without an initializer is zero when global, indeterminate (a
//! havoc) when local.

use super::layout::Layout;
use super::*;

impl<'a> Lowerer<'a> {
    /// A scalar's initial value.
    pub(super) fn initializer(&mut self, i: &'a Node<Initializer>, ty: CType) -> Result<Term> {
        match &i.node {
            Initializer::Expression(e) => {
                let (v, from) = self.expr_for(e, Some(ty))?;
                self.convert_value(v, from, ty, e.span)
            }
            // `int x = { 5 };` (C11 6.7.9p11)
            Initializer::List(items) => match &items[..] {
                [one] if one.node.designation.is_empty() => {
                    self.initializer(&one.node.initializer, ty)
                }
                _ => Err(FrontError::Syntax(format!(
                    "{}: a scalar initialised by a list of {} items",
                    self.line(i.span),
                    items.len()
                ))),
            },
        }
    }

    /// Declares a variable of `shape` over `base` with its initial value:
    /// the initializer's, else zero (`zero`, for globals: C11 6.7.9p10) or
    /// indeterminate (a havoc). The leaves an initializer list does not
    /// name are zero (C11 6.7.9p21).
    pub(super) fn declare(
        &mut self,
        name: &str,
        base: Layout,
        shape: Shape,
        initializer: Option<&'a Node<Initializer>>,
        zero: bool,
        span: Span,
    ) -> Result<Binding> {
        let layout = match (&shape, initializer.map(|i| &i.node)) {
            (Shape::Array(dims), Some(Initializer::List(items))) if dims[0].is_none() => {
                // `T a[] = {…}`: as many elements as the list reaches.
                let inner: Vec<usize> = dims[1..].iter().map(|d| d.expect("inner sizes")).collect();
                let element = super::decl::array_layout(base, &inner);
                let count = self.initialized_count(&element, items)?;
                Layout::Array(std::rc::Rc::new(element), count)
            }
            (Shape::Array(_), Some(Initializer::Expression(e)))
                if matches!(e.node, Expression::StringLiteral(_)) =>
            {
                return Err(self.unsupported(e.span, "string literals"))
            }
            (Shape::Array(dims), None) if dims[0].is_none() => {
                return Err(self.unsupported(span, format!("the array `{name}` without a size")))
            }
            _ => self.object_layout(base, &shape, span)?,
        };
        if let Layout::Scalar(ty) = layout {
            let var = self.new_var(name, ty);
            // The name is in scope in its own initializer (C11 6.2.1p7):
            // `struct node *n = malloc(sizeof(*n));`.
            let scope = self.scopes.last_mut().expect("a scope");
            scope.insert(name.to_string(), Binding::Scalar(var, ty));
            let command = match initializer {
                Some(i) => Command::Assign(var, self.initializer(i, ty)?),
                None if zero => Command::Assign(var, self.num.constant(&mut self.cfa.terms, 0, ty)),
                None => Command::Havoc(var),
            };
            self.emit(command, span);
            return Ok(Binding::Scalar(var, ty));
        }
        let n = layout.leaves();
        if Self::kept_whole(&layout).is_some() {
            return self.declare_whole(name, &layout, initializer, zero, span);
        }
        if n == 0 || n > MAX_ARRAY_ELEMENTS {
            let what = match &layout {
                Layout::Array(element, count) if element.leaves() == 1 => format!(
                    "an array of {count} elements (`{name}`; invar takes 1 to {MAX_ARRAY_ELEMENTS})"
                ),
                _ => format!(
                    "an object of {n} scalars (`{name}`; invar takes 1 to {MAX_ARRAY_ELEMENTS})"
                ),
            };
            return Err(self.unsupported(span, what));
        }
        let mut values: Vec<Option<Term>> = vec![None; n];
        match initializer.map(|i| (i, &i.node)) {
            Some((_, Initializer::List(items))) => {
                let mut next = 0;
                self.fill(&layout, 0, items, &mut next, true, &mut values)?;
            }
            Some((i, Initializer::Expression(e))) => {
                let Some(from) = self.place(e)? else {
                    let what = format!("{} initialised by this expression", layout.describe());
                    return Err(self.unsupported(i.span, what));
                };
                if !from.layout.same(&layout) {
                    let what = format!(
                        "{} initialised by {}",
                        layout.describe(),
                        from.layout.describe()
                    );
                    return Err(self.unsupported(i.span, what));
                }
                let copied = self.leaf_values(&from, &[], span)?;
                values = copied.into_iter().map(Some).collect();
            }
            None => {}
        }
        // With an initializer (or a global), the rest is zero.
        let rest_zero = zero || initializer.is_some();
        Ok(self.new_object(name, layout, values, rest_zero, span))
    }

    /// A new object called `name`, one variable per leaf, each given its
    /// value, else zero (`rest_zero`) or an indeterminate one (a havoc).
    pub(super) fn new_object(
        &mut self,
        name: &str,
        layout: Layout,
        values: Vec<Option<Term>>,
        rest_zero: bool,
        span: Span,
    ) -> Binding {
        let mut types = Vec::with_capacity(values.len());
        layout.leaf_types(&mut types);
        let mut names = Vec::with_capacity(values.len());
        layout.leaf_names(name, &mut names);
        let mut leaves = Vec::with_capacity(values.len());
        let mut commands = Vec::with_capacity(values.len());
        for ((value, ty), leaf_name) in values.into_iter().zip(types).zip(names) {
            let var = self.new_var(&leaf_name, ty);
            commands.push(match value {
                Some(v) => Command::Assign(var, v),
                None if rest_zero => {
                    Command::Assign(var, self.num.constant(&mut self.cfa.terms, 0, ty))
                }
                None => Command::Havoc(var),
            });
            leaves.push(var);
        }
        self.emit(Command::Seq(commands), span);
        Binding::Object(leaves.into(), layout)
    }

    /// The subobjects of an aggregate: each one's type and first leaf.
    fn parts(layout: &Layout) -> Vec<(Layout, usize)> {
        match layout {
            Layout::Scalar(_) => Vec::new(),
            Layout::Array(element, n) => {
                let stride = element.leaves();
                (0..*n).map(|k| ((**element).clone(), k * stride)).collect()
            }
            Layout::Struct(r) => {
                let mut offset = 0;
                (r.fields.iter())
                    .map(|(_, f)| {
                        let at = offset;
                        offset += f.leaves();
                        (f.clone(), at)
                    })
                    .collect()
            }
        }
    }

    /// Which subobject of `layout` a designator names.
    fn designated(&mut self, layout: &Layout, d: &'a Node<Designator>) -> Result<usize> {
        match (&d.node, layout) {
            (Designator::Index(e), Layout::Array(_, n)) => {
                let k = self.constant_of(e).ok_or_else(|| {
                    FrontError::Syntax(format!(
                        "{}: an array designator that is not an integer constant expression",
                        self.line(e.span)
                    ))
                })?;
                if !(0..*n as i128).contains(&k) {
                    return Err(FrontError::Syntax(format!(
                        "{}: the designator [{k}] is outside an array of {n} elements",
                        self.line(e.span)
                    )));
                }
                Ok(k as usize)
            }
            (Designator::Member(id), Layout::Struct(r)) => {
                let name = &id.node.name;
                (r.fields.iter().position(|(f, _)| f == name)).ok_or_else(|| {
                    FrontError::Syntax(format!(
                        "{}: `struct {}` has no member `{name}`",
                        self.line(id.span),
                        r.tag
                    ))
                })
            }
            (Designator::Range(_), _) => Err(self.unsupported(d.span, "range designators")),
            _ => Err(FrontError::Syntax(format!(
                "{}: a designator that does not fit {}",
                self.line(d.span),
                layout.describe()
            ))),
        }
    }

    /// Fills the leaves of the aggregate `layout` at `at` from `items`,
    /// starting with `items[*next]`. A braced list (`braced`) owns all its
    /// items and takes designators; an elided one (C11 6.7.9p20) takes
    /// items until its subobjects are full or a designator comes.
    pub(super) fn fill(
        &mut self,
        layout: &Layout,
        at: usize,
        items: &'a [Node<InitializerListItem>],
        next: &mut usize,
        braced: bool,
        values: &mut Vec<Option<Term>>,
    ) -> Result<()> {
        let parts = Self::parts(layout);
        let mut k = 0;
        while *next < items.len() {
            let item = &items[*next];
            if let Some((first, rest)) = item.node.designation.split_first() {
                if !braced {
                    return Ok(());
                }
                k = self.designated(layout, first)?;
                if !rest.is_empty() {
                    // `.a.b = v`, `[1].x = v`: into the subobject, whose
                    // other leaves keep what they had.
                    let (sub, offset) = parts[k].clone();
                    self.designate(&sub, at + offset, rest, &item.node.initializer, values)?;
                    *next += 1;
                    k += 1;
                    continue;
                }
            }
            if k >= parts.len() {
                if !braced {
                    return Ok(());
                }
                return Err(FrontError::Syntax(format!(
                    "{}: more initializers than {} has elements",
                    self.line(item.span),
                    layout.describe()
                )));
            }
            let (sub, offset) = parts[k].clone();
            self.fill_one(&sub, at + offset, items, next, values)?;
            // A union holds one member: the list goes on past it.
            k = match layout {
                Layout::Struct(r) if r.union => parts.len(),
                _ => k + 1,
            };
        }
        Ok(())
    }

    /// Fills the subobject `sub` at `at` from `items[*next]` (and, by brace
    /// elision, the items after it).
    fn fill_one(
        &mut self,
        sub: &Layout,
        at: usize,
        items: &'a [Node<InitializerListItem>],
        next: &mut usize,
        values: &mut Vec<Option<Term>>,
    ) -> Result<()> {
        let item = &items[*next];
        match (&item.node.initializer.node, sub) {
            (_, Layout::Scalar(ty)) => {
                values[at] = Some(self.initializer(&item.node.initializer, *ty)?);
                *next += 1;
            }
            (Initializer::List(inner), _) => {
                let mut first = 0;
                self.fill(sub, at, inner, &mut first, true, values)?;
                *next += 1;
            }
            (Initializer::Expression(e), _) => match self.place(e)? {
                // A struct member initialised by a struct of its type.
                Some(from) if from.layout.same(sub) => {
                    for (j, v) in self
                        .leaf_values(&from, &[], item.span)?
                        .into_iter()
                        .enumerate()
                    {
                        values[at + j] = Some(v);
                    }
                    *next += 1;
                }
                _ => {
                    // Brace elision: the items fill the subobject's leaves.
                    let before = *next;
                    self.fill(sub, at, items, next, false, values)?;
                    if *next == before {
                        return Err(self.unsupported(item.span, "this initializer"));
                    }
                }
            },
        }
        Ok(())
    }

    /// Fills the subobject that `designators` name inside `layout` at `at`.
    fn designate(
        &mut self,
        layout: &Layout,
        at: usize,
        designators: &'a [Node<Designator>],
        init: &'a Node<Initializer>,
        values: &mut Vec<Option<Term>>,
    ) -> Result<()> {
        let Some((first, rest)) = designators.split_first() else {
            let item = std::slice::from_ref(init);
            return match (&init.node, layout) {
                (_, Layout::Scalar(ty)) => {
                    values[at] = Some(self.initializer(&item[0], *ty)?);
                    Ok(())
                }
                (Initializer::List(inner), _) => {
                    let mut first = 0;
                    self.fill(layout, at, inner, &mut first, true, values)
                }
                (Initializer::Expression(_), _) => Err(self.unsupported(
                    init.span,
                    "a designated aggregate initialised by an expression",
                )),
            };
        };
        let k = self.designated(layout, first)?;
        let (sub, offset) = Self::parts(layout)[k].clone();
        self.designate(&sub, at + offset, rest, init, values)
    }

    /// How many elements of type `element` an initializer list reaches
    /// (C11 6.7.9p22), counted without evaluating its items.
    fn initialized_count(
        &mut self,
        element: &Layout,
        items: &'a [Node<InitializerListItem>],
    ) -> Result<usize> {
        let per = element.leaves().max(1);
        // The leaf the next item starts at, and the elements reached.
        let (mut leaf, mut count) = (0usize, 0usize);
        for item in items {
            let whole = match (item.node.designation.first(), &item.node.initializer.node) {
                (Some(first), _) => {
                    let Designator::Index(e) = &first.node else {
                        return Err(FrontError::Syntax(format!(
                            "{}: a member designator in an array's list",
                            self.line(first.span)
                        )));
                    };
                    let k = self.constant_of(e).filter(|&k| k >= 0).ok_or_else(|| {
                        FrontError::Syntax(format!(
                            "{}: an array designator that is not a nonnegative integer constant",
                            self.line(e.span)
                        ))
                    })?;
                    leaf = usize::try_from(k)
                        .unwrap_or(usize::MAX / 2)
                        .saturating_mul(per);
                    true
                }
                (None, Initializer::List(_)) => true,
                (None, Initializer::Expression(e)) => match &e.node {
                    Expression::Identifier(id) => {
                        matches!(self.binding(&id.node.name), Some(Binding::Object(..)))
                    }
                    _ => false,
                },
            };
            // A braced list or a struct value at an element's start fills
            // the element; otherwise an item fills one leaf (brace elision).
            let step = if whole && leaf % per == 0 { per } else { 1 };
            leaf = leaf.saturating_add(step);
            count = count.max(leaf.div_ceil(per));
        }
        Ok(count)
    }
}
