//! Declarations and types: C types of specifiers and declarators, global
//! and local declarations with their initializers, and name lookup.

use super::*;

impl<'a> Lowerer<'a> {
    pub(super) fn new_var(&mut self, name: &str, ty: CType) -> Term {
        self.fresh += 1;
        let t = self
            .cfa
            .terms
            .var(&format!("{name}#{}", self.fresh), self.num.sort(ty));
        self.cfa.vars.push(t);
        self.types.insert(t, ty);
        t
    }

    pub(super) fn base_type(&self, specs: &[&TypeSpecifier], span: Span) -> Result<Option<CType>> {
        let (mut longs, mut unsigned) = (0, false);
        let mut base: Option<&str> = None;
        for s in specs {
            match s {
                TypeSpecifier::Void => base = Some("void"),
                TypeSpecifier::Char => base = Some("char"),
                TypeSpecifier::Short => base = Some("short"),
                TypeSpecifier::Int => base = base.or(Some("int")),
                TypeSpecifier::Long => longs += 1,
                // `signed` only confirms the default signedness of int, short and long.
                TypeSpecifier::Signed => {}
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Bool => base = Some("bool"),
                TypeSpecifier::Float | TypeSpecifier::Double => {
                    return Err(self.unsupported(span, "floating-point types"))
                }
                TypeSpecifier::Struct(_) => {
                    return Err(self.unsupported(span, "structs and unions"))
                }
                TypeSpecifier::Enum(e) => {
                    let key = match &e.node.identifier {
                        Some(tag) => EnumKey::Tag(tag.node.name.clone()),
                        None => EnumKey::At(e.span.start),
                    };
                    return match self.enums.get(&key) {
                        Some(Ok(ty)) => Ok(Some(*ty)),
                        Some(Err(e)) => Err(e.clone()),
                        None => Err(self.unsupported(e.span, "an enumeration not defined before")),
                    };
                }
                TypeSpecifier::TypedefName(n) => match self.typedefs.get(&n.node.name) {
                    Some(Ok(Some(ty))) if specs.len() == 1 => return Ok(Some(*ty)),
                    Some(Ok(None)) if specs.len() == 1 => return Ok(None),
                    Some(Err(FrontError::Unsupported { what, .. })) => {
                        let what = format!("{what} (through typedef `{}`)", n.node.name);
                        return Err(self.unsupported(span, what));
                    }
                    _ => {
                        let what = format!("typedef name `{}` here", n.node.name);
                        return Err(self.unsupported(span, what));
                    }
                },
                _ => return Err(self.unsupported(span, "this type specifier")),
            }
        }
        let long_width = if self.options.lp64 { 64 } else { 32 };
        let ty = match (base, longs) {
            (Some("void"), _) => return Ok(None),
            (Some("bool"), _) => CType::bool(),
            (Some("char"), _) => CType::int(8, !unsigned),
            (Some("short"), _) => CType::int(16, !unsigned),
            (_, 0) => CType::int(32, !unsigned),
            (_, 1) => CType::int(long_width, !unsigned),
            _ => CType::int(64, !unsigned),
        };
        Ok(Some(ty))
    }

    /// Defines the enumerations that `specs` declare: their constants in
    /// the current scope, their types in [`Lowerer::enums`].
    pub(super) fn define_enums(&mut self, specs: &'a [Node<DeclarationSpecifier>]) -> Result<()> {
        for s in specs {
            let DeclarationSpecifier::TypeSpecifier(t) = &s.node else {
                continue;
            };
            let TypeSpecifier::Enum(e) = &t.node else {
                continue;
            };
            if e.node.enumerators.is_empty() {
                continue; // a use of a tag, or a forward declaration
            }
            let key = match &e.node.identifier {
                Some(tag) => EnumKey::Tag(tag.node.name.clone()),
                None => EnumKey::At(e.span.start),
            };
            let (mut next, mut negative) = (0i128, false);
            let mut failed = None;
            for item in &e.node.enumerators {
                let name = item.node.identifier.node.name.clone();
                let value = match (&failed, &item.node.expression) {
                    (Some(_), _) => None,
                    (None, Some(x)) => self.constant_of(x),
                    (None, None) => Some(next),
                };
                // C11 6.7.2.2p2; gcc extends it, invar does not.
                let (lo, hi) = CType::INT.range();
                let Some(value) = value.filter(|v| (lo..=hi).contains(v)) else {
                    // Headers define enumerations a program never uses: one
                    // is refused where it is used.
                    let e = failed.get_or_insert_with(|| {
                        let what = format!("the value of the enumerator `{name}`");
                        self.unsupported(item.span, what)
                    });
                    self.refused.insert(name, e.clone());
                    continue;
                };
                negative |= value < 0;
                next = value + 1;
                let term = self.num.constant(&mut self.cfa.terms, value, CType::INT);
                let scope = self.scopes.last_mut().expect("scope");
                scope.insert(name, Binding::Constant(term));
            }
            // gcc's choice (C11 6.7.2.2p4 leaves it to the implementation):
            // `unsigned int` unless a value is negative.
            let ty = failed.map_or(Ok(CType::int(32, negative)), Err);
            self.enums.insert(key, ty);
        }
        Ok(())
    }

    pub(super) fn declared_type(
        &self,
        specs: &'a [Node<DeclarationSpecifier>],
        span: Span,
    ) -> Result<Option<CType>> {
        let ts: Vec<&TypeSpecifier> = specs
            .iter()
            .filter_map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
                _ => None,
            })
            .collect();
        self.base_type(&ts, span)
    }

    pub(super) fn check_declarator(&self, d: &Node<Declarator>) -> Result<()> {
        for derived in &d.node.derived {
            match derived.node {
                DerivedDeclarator::Pointer(_) => {
                    return Err(self.unsupported(derived.span, "pointers"))
                }
                DerivedDeclarator::Array(_) => return Err(self.unsupported(derived.span, "arrays")),
                _ => {}
            }
        }
        Ok(())
    }

    pub(super) fn global_declaration(&mut self, d: &'a Node<Declaration>) -> Result<()> {
        let is_function = d.node.declarators.iter().any(|i| {
            i.node.declarator.node.derived.iter().any(|x| {
                matches!(
                    x.node,
                    DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
                )
            })
        });
        let typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Typedef)
        });
        self.define_enums(&d.node.specifiers)?;
        // Prototypes (the calls decide) and bare tag declarations (`struct s {…};`).
        if is_function || d.node.declarators.is_empty() {
            return Ok(());
        }
        if typedef {
            // Headers declare many typedefs a program never uses: an
            // unsupported one is refused only where it is used.
            for init in &d.node.declarators {
                let declarator = &init.node.declarator;
                let ty = self
                    .check_declarator(declarator)
                    .and_then(|()| self.declared_type(&d.node.specifiers, d.span));
                if let Some(name) = name_of(&declarator.node) {
                    self.typedefs.insert(name.to_string(), ty);
                }
            }
            return Ok(());
        }
        let is_extern = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Extern)
        });
        let declared = self
            .declared_type(&d.node.specifiers, d.span)
            .and_then(|ty| {
                let mut shapes = Vec::new();
                for init in &d.node.declarators {
                    let shape = self.shape(&init.node.declarator)?;
                    match (shape, &init.node.initializer) {
                        (Shape::Pointer, _) => return Err(self.unsupported(init.span, "pointers")),
                        (Shape::Array(None), None) => {
                            return Err(self.unsupported(init.span, "an array without a size"))
                        }
                        _ => shapes.push(shape),
                    }
                }
                Ok((ty, shapes))
            });
        if let (true, Err(e)) = (is_extern, &declared) {
            for init in &d.node.declarators {
                if let Some(name) = name_of(&init.node.declarator.node) {
                    self.refused.insert(name.to_string(), e.clone());
                }
            }
            return Ok(());
        }
        let (Some(ty), shapes) = declared? else {
            return Err(self.unsupported(d.span, "a void variable"));
        };
        for (init, shape) in d.node.declarators.iter().zip(shapes) {
            let name = name_of(&init.node.declarator.node)
                .unwrap_or("?")
                .to_string();
            // Globals start at zero unless initialised.
            let initializer = init.node.initializer.as_ref();
            let binding = self.declare(&name, ty, shape, initializer, true, d.span)?;
            self.scopes[0].insert(name, binding);
        }
        Ok(())
    }

    pub(super) fn initializer(&mut self, i: &'a Node<Initializer>, ty: CType) -> Result<Term> {
        match &i.node {
            Initializer::Expression(e) => {
                let (v, from) = self.expr(e)?;
                Ok(self.num.convert(&mut self.cfa.terms, v, from, ty))
            }
            Initializer::List(_) => Err(self.unsupported(i.span, "initializer lists")),
        }
    }

    pub(super) fn lookup(&self, name: &str, span: Span) -> Result<(Term, CType)> {
        match self.binding(name) {
            Some(Binding::Scalar(var, ty)) => return Ok((*var, *ty)),
            Some(Binding::Array(..)) => {
                let what = format!("the array `{name}` used as a pointer");
                return Err(self.unsupported(span, what));
            }
            Some(Binding::Pointer) => {
                return Err(self.unsupported(span, format!("pointers (`{name}` read)")))
            }
            Some(Binding::Constant(value)) => return Ok((*value, CType::INT)),
            None => {}
        }
        if let Some(e) = self.refused.get(name) {
            return Err(e.clone());
        }
        Err(self.unsupported(
            span,
            format!("`{name}` is not a variable of a supported kind (enumerator or undeclared?)"),
        ))
    }

    /// The innermost binding of `name`.
    pub(super) fn binding(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name))
    }

    pub(super) fn local_declaration(&mut self, d: &'a Node<Declaration>) -> Result<()> {
        self.define_enums(&d.node.specifiers)?;
        for init in &d.node.declarators {
            let declarator = &init.node.declarator;
            if (declarator.node.derived.iter())
                .any(|x| matches!(x.node, DerivedDeclarator::Function(_)))
            {
                continue; // a local prototype
            }
            let name = name_of(&declarator.node).unwrap_or("?").to_string();
            let shape = self.shape(declarator)?;
            if let Shape::Pointer = shape {
                if let Some(i) = &init.node.initializer {
                    let Initializer::Expression(e) = &i.node else {
                        return Err(
                            self.unsupported(i.span, "pointers (a pointer given this value)")
                        );
                    };
                    self.dropped_pointer_value(e)?;
                }
                let scope = self.scopes.last_mut().expect("scope");
                scope.insert(name, Binding::Pointer);
                continue;
            }
            let Some(ty) = self.declared_type(&d.node.specifiers, d.span)? else {
                return Err(self.unsupported(d.span, "a void variable"));
            };
            // An uninitialised local holds an indeterminate value each time.
            let binding = self.declare(
                &name,
                ty,
                shape,
                init.node.initializer.as_ref(),
                false,
                d.span,
            )?;
            let scope = self.scopes.last_mut().expect("scope");
            scope.insert(name, binding);
        }
        Ok(())
    }

    /// What a declarator declares: a scalar, an array of a constant number
    /// of elements (`[]` takes the initializer's count), or a pointer.
    pub(super) fn shape(&mut self, d: &'a Node<Declarator>) -> Result<Shape> {
        if let DeclaratorKind::Declarator(inner) = &d.node.kind.node {
            if !inner.node.derived.is_empty() {
                return Err(self.unsupported(d.span, "a parenthesized declarator"));
            }
        }
        match &d.node.derived[..] {
            [] => Ok(Shape::Scalar),
            all if all
                .iter()
                .all(|x| matches!(x.node, DerivedDeclarator::Pointer(_))) =>
            {
                Ok(Shape::Pointer)
            }
            [one] => match &one.node {
                DerivedDeclarator::Array(a) => match &a.node.size {
                    ArraySize::Unknown => Ok(Shape::Array(None)),
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        let n = self.constant_of(e).filter(|&n| n >= 0).ok_or_else(|| {
                            self.unsupported(e.span, "an array whose size is not a constant")
                        })?;
                        // Beyond usize it is beyond the limit too.
                        Ok(Shape::Array(Some(usize::try_from(n).unwrap_or(usize::MAX))))
                    }
                    ArraySize::VariableUnknown => {
                        Err(self.unsupported(one.span, "an array of unspecified size `[*]`"))
                    }
                },
                _ => Err(self.unsupported(one.span, "this declarator")),
            },
            [_, second, ..] if matches!(second.node, DerivedDeclarator::Array(_)) => {
                Err(self.unsupported(second.span, "multi-dimensional arrays"))
            }
            [first, ..] => {
                Err(self.unsupported(first.span, "arrays of pointers or pointers to arrays"))
            }
        }
    }

    /// The value of a constant expression, if it is one (an array's size).
    pub(super) fn constant_of(&mut self, e: &'a Node<Expression>) -> Option<i128> {
        // Reading an array would emit its bounds check: not a constant.
        if may_branch(&e.node) {
            return None;
        }
        let (v, ty) = self.expr(e).ok()?;
        self.constant_value(v, ty)
    }

    /// The value of the term `v` of type `ty`, if it reads no variable.
    pub(super) fn constant_value(&self, v: Term, ty: CType) -> Option<i128> {
        match Evaluator::new(&self.cfa.terms).eval(v).ok()? {
            Value::Bv(b) => {
                let u = i128::from(b.to_u64()?);
                Some(if ty.signed && b.msb() {
                    u - (1i128 << b.width())
                } else {
                    u
                })
            }
            Value::Num(r) => r.is_int().then(|| r.numer()),
            _ => None,
        }
    }

    /// Declares a variable of `shape` whose elements have type `ty`, with
    /// its initial value: the initializer's, else zero (`zero`, for
    /// globals: C11 6.7.9p10) or indeterminate (a havoc). An array's
    /// elements not named by its initializer list are zero (C11 6.7.9p21).
    pub(super) fn declare(
        &mut self,
        name: &str,
        ty: CType,
        shape: Shape,
        initializer: Option<&'a Node<Initializer>>,
        zero: bool,
        span: Span,
    ) -> Result<Binding> {
        let Shape::Array(size) = shape else {
            let var = self.new_var(name, ty);
            let command = match initializer {
                Some(i) => Command::Assign(var, self.initializer(i, ty)?),
                None if zero => Command::Assign(var, self.num.constant(&mut self.cfa.terms, 0, ty)),
                None => Command::Havoc(var),
            };
            self.emit(command, span);
            return Ok(Binding::Scalar(var, ty));
        };
        let items: &[Node<InitializerListItem>] = match initializer.map(|i| &i.node) {
            Some(Initializer::List(items)) => items,
            Some(Initializer::Expression(_)) => {
                let i = initializer.expect("initializer");
                return Err(self.unsupported(i.span, "an array initialised by an expression"));
            }
            None => &[],
        };
        let n = match size {
            Some(n) => n,
            None if initializer.is_some() => items.len(),
            None => {
                return Err(self.unsupported(span, format!("the array `{name}` without a size")))
            }
        };
        if n == 0 || n > MAX_ARRAY_ELEMENTS {
            let what = format!(
                "an array of {n} elements (`{name}`; invar takes 1 to {MAX_ARRAY_ELEMENTS})"
            );
            return Err(self.unsupported(span, what));
        }
        if items.len() > n {
            return Err(FrontError::Syntax(format!(
                "{}: {} initializers for the {n} elements of `{name}`",
                self.line(items[n].span),
                items.len()
            )));
        }
        let mut values = Vec::with_capacity(n);
        for item in items {
            if !item.node.designation.is_empty() {
                return Err(self.unsupported(item.span, "designated initializers"));
            }
            values.push(Some(self.initializer(&item.node.initializer, ty)?));
        }
        // With an initializer list (or a global), the rest is zero.
        let rest_zero = zero || initializer.is_some();
        let zero_value = self.num.constant(&mut self.cfa.terms, 0, ty);
        values.resize(n, rest_zero.then_some(zero_value));
        let mut elements = Vec::with_capacity(n);
        let mut commands = Vec::with_capacity(n);
        for (k, value) in values.into_iter().enumerate() {
            let var = self.new_var(&format!("{name}[{k}]"), ty);
            commands.push(match value {
                Some(v) => Command::Assign(var, v),
                None => Command::Havoc(var),
            });
            elements.push(var);
        }
        self.emit(Command::Seq(commands), span);
        Ok(Binding::Array(elements.into(), ty))
    }
}
