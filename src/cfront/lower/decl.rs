//! Declarations and types: C types of specifiers and declarators, global
//! and local declarations with their initializers, and name lookup.

use super::layout::{Layout, Record};
use super::*;
use std::rc::Rc;

/// The type specifiers of a declaration's specifiers.
pub(super) fn type_specifiers(specs: &[Node<DeclarationSpecifier>]) -> Vec<&TypeSpecifier> {
    (specs.iter())
        .filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        })
        .collect()
}

/// The type specifiers of a type name's or a member's specifiers.
pub(super) fn qualified_type_specifiers(specs: &[Node<SpecifierQualifier>]) -> Vec<&TypeSpecifier> {
    (specs.iter())
        .filter_map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        })
        .collect()
}

/// How an enumeration specifier names its type.
fn enum_key(e: &Node<EnumType>) -> TagKey {
    match &e.node.identifier {
        Some(tag) => TagKey::Tag(tag.node.name.clone()),
        None => TagKey::At(e.span.start),
    }
}

/// The tag of a struct named without its members (`struct s`), if
/// `specs` name one.
/// The stars of an array of pointers' declarator (`T **a[n]`: 2), which
/// lang-c lists before the array's dimensions; 0 for other declarators.
fn leading_pointers(d: &Declarator) -> usize {
    let stars = (d.derived.iter())
        .take_while(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
        .count();
    let rest = &d.derived[stars..];
    let arrays =
        !rest.is_empty() && (rest.iter()).all(|x| matches!(x.node, DerivedDeclarator::Array(_)));
    if arrays {
        stars
    } else {
        0
    }
}

fn forward_tag(specs: &[Node<DeclarationSpecifier>]) -> Option<String> {
    specs.iter().find_map(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
            TypeSpecifier::Struct(st) if st.node.declarations.is_none() => {
                st.node.identifier.as_ref().map(|id| id.node.name.clone())
            }
            _ => None,
        },
        _ => None,
    })
}

/// An array of `dims` (outermost first) of `element`s.
pub(super) fn array_layout(element: Layout, dims: &[usize]) -> Layout {
    (dims.iter().rev()).fold(element, |inner, &n| Layout::Array(Rc::new(inner), n))
}

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

    /// The scalar type of a list of type specifiers (None: `void`).
    pub(super) fn base_type(&self, specs: &[&TypeSpecifier], span: Span) -> Result<Option<CType>> {
        match self.base_layout(specs, span)? {
            None => Ok(None),
            Some(Layout::Scalar(ty)) => Ok(Some(ty)),
            Some(other) => {
                let what = format!("{} where a scalar type is expected", other.describe());
                Err(self.unsupported(span, what))
            }
        }
    }

    /// The type of a list of type specifiers (None: `void`).
    pub(super) fn base_layout(
        &self,
        specs: &[&TypeSpecifier],
        span: Span,
    ) -> Result<Option<Layout>> {
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
                TypeSpecifier::Struct(st) => {
                    return self.record_of(st).map(|r| Some(Layout::Struct(r)))
                }
                TypeSpecifier::Enum(e) => {
                    let key = enum_key(e);
                    return match self.enums.get(&key) {
                        Some(Ok(ty)) => Ok(Some(Layout::Scalar(*ty))),
                        Some(Err(e)) => Err(e.clone()),
                        None => Err(self.unsupported(e.span, "an enumeration not defined before")),
                    };
                }
                TypeSpecifier::TypedefName(n) if self.typedef_tags.contains_key(&n.node.name) => {
                    let tag = &self.typedef_tags[&n.node.name];
                    return match self.records.get(&TagKey::Tag(tag.clone())) {
                        Some(Ok(r)) => Ok(Some(Layout::Struct(r.clone()))),
                        Some(Err(FrontError::Unsupported { what, .. })) => {
                            let what = format!("{what} (through typedef `{}`)", n.node.name);
                            Err(self.unsupported(span, what))
                        }
                        _ => Err(self
                            .unsupported(span, format!("an incomplete struct (`struct {tag}`)"))),
                    };
                }
                TypeSpecifier::TypedefName(n) => match self.typedefs.get(&n.node.name) {
                    Some(Ok(layout)) if specs.len() == 1 => return Ok(layout.clone()),
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
        Ok(Some(Layout::Scalar(ty)))
    }

    /// The struct type a specifier names (defined by [`Self::define_records`]).
    fn record_of(&self, st: &Node<StructType>) -> Result<Rc<Record>> {
        let key = match (&st.node.declarations, &st.node.identifier) {
            (Some(_), _) | (None, None) => TagKey::At(st.span.start),
            (None, Some(tag)) => TagKey::Tag(tag.node.name.clone()),
        };
        match self.records.get(&key) {
            Some(Ok(r)) => Ok(r.clone()),
            Some(Err(e)) => Err(e.clone()),
            None => Err(self.unsupported(st.span, "a struct type not defined before")),
        }
    }

    /// Defines the struct types that `specs` define (nested ones first).
    fn define_records(&mut self, specs: &[&'a TypeSpecifier], span: Span) {
        for s in specs {
            let TypeSpecifier::Struct(st) = s else {
                continue;
            };
            let Some(declarations) = &st.node.declarations else {
                continue; // a use of a tag, or a forward declaration
            };
            let tag = st.node.identifier.as_ref().map(|t| t.node.name.clone());
            let union = st.node.kind.node == StructKind::Union;
            let record = self.fields(declarations, span).map(|fields| {
                Rc::new(Record {
                    tag: tag.clone().unwrap_or_else(|| "<anonymous>".into()),
                    fields,
                    union,
                })
            });
            let key = match &tag {
                Some(tag) => TagKey::Tag(tag.clone()),
                None => TagKey::At(st.span.start),
            };
            if let Ok(r) = &record {
                self.note_record(r, key);
            }
            if let Some(tag) = tag {
                self.records.insert(TagKey::Tag(tag), record.clone());
            }
            self.records.insert(TagKey::At(st.span.start), record);
        }
    }

    /// The fields of a struct definition.
    fn fields(
        &mut self,
        declarations: &'a [Node<StructDeclaration>],
        span: Span,
    ) -> Result<Vec<(String, Layout)>> {
        let mut fields: Vec<(String, Layout)> = Vec::new();
        for d in declarations {
            let StructDeclaration::Field(f) = &d.node else {
                return Err(self.unsupported(d.span, "_Static_assert"));
            };
            let specs = qualified_type_specifiers(&f.node.specifiers);
            self.define_records(&specs, span);
            if f.node.declarators.is_empty() {
                return Err(self.unsupported(f.span, "anonymous members"));
            }
            for sd in &f.node.declarators {
                if sd.node.bit_width.is_some() {
                    return Err(self.unsupported(sd.span, "bit-fields"));
                }
                let Some(declarator) = &sd.node.declarator else {
                    return Err(self.unsupported(sd.span, "anonymous members"));
                };
                let name = name_of(&declarator.node).unwrap_or("?").to_string();
                let shape = self.shape(declarator)?;
                let base = match shape {
                    Shape::Pointer => {
                        let levels = declarator.node.derived.len();
                        Some(Layout::Scalar(self.pointer_type(&specs, levels, sd.span)?))
                    }
                    _ => match self.pointer_elements(&specs, declarator)? {
                        Some(pointer) => Some(pointer),
                        None => self.base_layout(&specs, f.span)?,
                    },
                };
                let Some(base) = base else {
                    return Err(self.unsupported(f.span, "a void member"));
                };
                let layout = match shape {
                    Shape::Scalar | Shape::Pointer => base,
                    Shape::Array(dims) => {
                        let Some(dims) = dims.into_iter().collect::<Option<Vec<usize>>>() else {
                            return Err(self.unsupported(sd.span, "a flexible array member"));
                        };
                        array_layout(base, &dims)
                    }
                };
                if layout.leaves() == 0 {
                    let what = format!("a member without scalars (`{name}`)");
                    return Err(self.unsupported(sd.span, what));
                }
                if fields.iter().any(|(n, _)| *n == name) {
                    return Err(FrontError::Syntax(format!(
                        "{}: a second member `{name}`",
                        self.line(sd.span)
                    )));
                }
                fields.push((name, layout));
            }
        }
        Ok(fields)
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
            let key = enum_key(e);
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
        let ts = type_specifiers(specs);
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

    /// Defines the enumerations and struct types that `specs` define.
    pub(super) fn define_types(
        &mut self,
        specs: &'a [Node<DeclarationSpecifier>],
        span: Span,
    ) -> Result<()> {
        self.define_enums(specs)?;
        let ts = type_specifiers(specs);
        self.define_records(&ts, span);
        Ok(())
    }

    /// The type a declaration's specifiers name (None: `void`).
    pub(super) fn declared_layout(
        &self,
        specs: &'a [Node<DeclarationSpecifier>],
        span: Span,
    ) -> Result<Option<Layout>> {
        let ts = type_specifiers(specs);
        self.base_layout(&ts, span)
    }

    /// The type of an object whose declarator has `shape` over `base`.
    pub(super) fn object_layout(&self, base: Layout, shape: &Shape, span: Span) -> Result<Layout> {
        match shape {
            Shape::Scalar => Ok(base),
            Shape::Pointer => Err(self.unsupported(span, "pointers")),
            Shape::Array(dims) => {
                let Some(dims) = dims.iter().copied().collect::<Option<Vec<usize>>>() else {
                    return Err(self.unsupported(span, "an array without a size"));
                };
                Ok(array_layout(base, &dims))
            }
        }
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
        self.define_types(&d.node.specifiers, d.span)?;
        if typedef && is_function {
            // A function type (`typedef int f(int);`): pointers to it are
            // values; what it returns and takes is not needed.
            for init in &d.node.declarators {
                if let Some(name) = name_of(&init.node.declarator.node) {
                    self.function_typedefs.insert(name.to_string());
                }
            }
            return Ok(());
        }
        // Prototypes (the calls decide) and bare tag declarations (`struct s {…};`).
        if is_function || d.node.declarators.is_empty() {
            return Ok(());
        }
        if typedef {
            // Headers declare many typedefs a program never uses: an
            // unsupported one is refused only where it is used.
            for init in &d.node.declarators {
                let declarator = &init.node.declarator;
                let Some(name) = name_of(&declarator.node) else {
                    continue;
                };
                let shape = self.shape(declarator);
                if let (Ok(Shape::Scalar), Some(tag)) = (&shape, forward_tag(&d.node.specifiers)) {
                    // `typedef struct s s;` before `struct s {…}`: resolved when used.
                    self.typedef_tags.insert(name.to_string(), tag);
                    continue;
                }
                let layout = shape.and_then(|shape| {
                    if let Shape::Pointer = shape {
                        let ty = self.declared_pointer(&d.node.specifiers, declarator)?;
                        return Ok(Some(Layout::Scalar(ty)));
                    }
                    match self.element_layout(&d.node.specifiers, declarator, d.span)? {
                        None if matches!(shape, Shape::Scalar) => Ok(None),
                        None => Err(self.unsupported(d.span, "an array of void")),
                        Some(base) => self.object_layout(base, &shape, declarator.span).map(Some),
                    }
                });
                self.typedefs.insert(name.to_string(), layout);
            }
            return Ok(());
        }
        let is_extern = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Extern)
        });
        let declared = self
            .declared_layout(&d.node.specifiers, d.span)
            .and_then(|base| {
                let mut shapes = Vec::new();
                for init in &d.node.declarators {
                    let declarator = &init.node.declarator;
                    let shape = self.shape(declarator)?;
                    if let Shape::Pointer = shape {
                        let ty = self.declared_pointer(&d.node.specifiers, declarator)?;
                        shapes.push((Some(Layout::Scalar(ty)), Shape::Scalar));
                        continue;
                    }
                    let specs = type_specifiers(&d.node.specifiers);
                    shapes.push((self.pointer_elements(&specs, declarator)?, shape));
                }
                Ok((base, shapes))
            });
        if let (true, Err(e)) = (is_extern, &declared) {
            for init in &d.node.declarators {
                if let Some(name) = name_of(&init.node.declarator.node) {
                    self.refused.insert(name.to_string(), e.clone());
                }
            }
            return Ok(());
        }
        let (base, shapes) = declared?;
        for (init, (pointer, shape)) in d.node.declarators.iter().zip(shapes) {
            let Some(base) = pointer.or_else(|| base.clone()) else {
                return Err(self.unsupported(d.span, "a void variable"));
            };
            let name = name_of(&init.node.declarator.node)
                .unwrap_or("?")
                .to_string();
            // Globals start at zero unless initialised.
            let initializer = init.node.initializer.as_ref();
            let binding = self.declare(&name, base.clone(), shape, initializer, true, d.span)?;
            self.scopes[0].insert(name, binding);
        }
        Ok(())
    }

    pub(super) fn lookup(&self, name: &str, span: Span) -> Result<(Term, CType)> {
        match self.binding(name) {
            Some(Binding::Scalar(var, ty)) => return Ok((*var, *ty)),
            Some(Binding::Object(_, Layout::Array(..)) | Binding::Memory(_)) => {
                let what = format!("the array `{name}` used as a pointer");
                return Err(self.unsupported(span, what));
            }
            Some(Binding::Object(_, layout)) => {
                let what = format!("{} (`{name}`) used as a value here", layout.describe());
                return Err(self.unsupported(span, what));
            }
            Some(Binding::Pointer | Binding::Alias(_)) => {
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
        self.define_types(&d.node.specifiers, d.span)?;
        let is_static = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Static)
        });
        if is_static {
            return self.static_declaration(d);
        }
        for init in &d.node.declarators {
            let declarator = &init.node.declarator;
            if (declarator.node.derived.iter())
                .any(|x| matches!(x.node, DerivedDeclarator::Function(_)))
            {
                continue; // a local prototype
            }
            let name = name_of(&declarator.node).unwrap_or("?").to_string();
            if let Some(sizes) = self.variable_sizes(declarator) {
                let base = self.declared_layout(&d.node.specifiers, d.span)?;
                let Some(element @ (Layout::Scalar(_) | Layout::Struct(_))) = base else {
                    let what = "a variable-length array of other than scalars and structs";
                    return Err(self.unsupported(d.span, what));
                };
                if init.node.initializer.is_some() {
                    return Err(FrontError::Syntax(format!(
                        "{}: a variable-length array with an initializer",
                        self.line(d.span)
                    )));
                }
                let binding = self.declare_variable_length(&name, element, &sizes, d.span)?;
                self.scopes.last_mut().expect("scope").insert(name, binding);
                continue;
            }
            let shape = self.shape(declarator)?;
            if let Shape::Pointer = shape {
                let frame = self.frames.last().expect("frame");
                if let (Some(Initializer::Expression(e)), false) = (
                    init.node.initializer.as_ref().map(|i| &i.node),
                    frame.assigned.contains(&name),
                ) {
                    if let Some(target) = self.target_of(e)? {
                        let pointee = self.pointee(&d.node.specifiers, declarator, d.span)?;
                        let alias =
                            self.bind_alias(name.clone(), pointee.as_ref(), target, d.span)?;
                        self.scopes.last_mut().expect("scope").insert(name, alias);
                        continue;
                    }
                }
                if self.given_an_address(&name, init.node.initializer.as_ref()) {
                    if let Some(i) = &init.node.initializer {
                        let Initializer::Expression(e) = &i.node else {
                            let what = "pointers (a pointer given this value)";
                            return Err(self.unsupported(i.span, what));
                        };
                        self.dropped_pointer_value(e)?;
                    }
                    let scope = self.scopes.last_mut().expect("scope");
                    scope.insert(name, Binding::Pointer);
                    continue;
                }
                let ty = self.declared_pointer(&d.node.specifiers, declarator)?;
                let initializer = init.node.initializer.as_ref();
                let binding = self.declare(
                    &name,
                    Layout::Scalar(ty),
                    Shape::Scalar,
                    initializer,
                    false,
                    d.span,
                )?;
                let scope = self.scopes.last_mut().expect("scope");
                scope.insert(name, binding);
                continue;
            }
            let base = self.element_layout(&d.node.specifiers, declarator, d.span)?;
            let Some(base) = base else {
                return Err(self.unsupported(d.span, "a void variable"));
            };
            // An uninitialised local holds an indeterminate value each time.
            let binding = self.declare(
                &name,
                base,
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

    /// A local declared `static`: one object for the whole execution
    /// (C11 6.2.4p3), zero unless initialised, initialised once where the
    /// program starts (its initializer is a constant). Lowered at its first
    /// instance, on a path of its own spliced before the program's start;
    /// every instance binds the same variables.
    fn static_declaration(&mut self, d: &'a Node<Declaration>) -> Result<()> {
        let bindings = match self.statics.get(&d.span.start) {
            Some(bindings) => bindings.clone(),
            None => {
                let (resume, start) = (self.cur, self.cfa.add_location("static"));
                self.cur = start;
                let declared = self.static_objects(d);
                let end = self.cur;
                self.cur = resume;
                let bindings = declared?;
                self.static_starts.push((start, end));
                self.statics.insert(d.span.start, bindings.clone());
                bindings
            }
        };
        let scope = self.scopes.last_mut().expect("scope");
        scope.extend(bindings);
        Ok(())
    }

    /// The objects of a `static` local declaration, declared as globals
    /// are, at the current location.
    fn static_objects(&mut self, d: &'a Node<Declaration>) -> Result<Vec<(String, Binding)>> {
        let mut bindings = Vec::new();
        for init in &d.node.declarators {
            let declarator = &init.node.declarator;
            if (declarator.node.derived.iter())
                .any(|x| matches!(x.node, DerivedDeclarator::Function(_)))
            {
                continue;
            }
            let name = name_of(&declarator.node).unwrap_or("?").to_string();
            let (layout, shape) = match self.shape(declarator)? {
                Shape::Pointer => {
                    let ty = self.declared_pointer(&d.node.specifiers, declarator)?;
                    (Layout::Scalar(ty), Shape::Scalar)
                }
                shape => match self.element_layout(&d.node.specifiers, declarator, d.span)? {
                    Some(base) => (base, shape),
                    None => return Err(self.unsupported(d.span, "a void variable")),
                },
            };
            let initializer = init.node.initializer.as_ref();
            let binding = self.declare(&name, layout, shape, initializer, true, d.span)?;
            bindings.push((name, binding));
        }
        Ok(bindings)
    }

    /// The element type of an array of pointers declared by `d` over
    /// `specs` (None for other declarators).
    pub(super) fn pointer_elements(
        &self,
        specs: &[&TypeSpecifier],
        d: &Node<Declarator>,
    ) -> Result<Option<Layout>> {
        match leading_pointers(&d.node) {
            0 => Ok(None),
            stars => Ok(Some(Layout::Scalar(
                self.pointer_type(specs, stars, d.span)?,
            ))),
        }
    }

    /// The type a declarator's object (or array's element) has over
    /// `specs`: the pointer of an array of pointers, else the specifiers'
    /// type (None: void).
    fn element_layout(
        &self,
        specs: &[Node<DeclarationSpecifier>],
        d: &Node<Declarator>,
        span: Span,
    ) -> Result<Option<Layout>> {
        match self.pointer_elements(&type_specifiers(specs), d)? {
            Some(pointer) => Ok(Some(pointer)),
            None => self.declared_layout(specs, span),
        }
    }

    /// The type of the pointer a declarator of stars only (`T **p`)
    /// declares over `specs`.
    pub(super) fn declared_pointer(
        &self,
        specs: &[Node<DeclarationSpecifier>],
        d: &Node<Declarator>,
    ) -> Result<CType> {
        self.pointer_type(&type_specifiers(specs), d.node.derived.len(), d.span)
    }

    /// What a pointer declarator (`T *p`) or an array parameter (`T a[]`,
    /// `T m[][4]`) points to: None for `void` and for a pointer to a pointer.
    pub(super) fn pointee(
        &mut self,
        specs: &'a [Node<DeclarationSpecifier>],
        d: &'a Node<Declarator>,
        span: Span,
    ) -> Result<Option<Layout>> {
        let Some(base) = self.declared_layout(specs, span)? else {
            return Ok(None);
        };
        match self.shape(d)? {
            Shape::Pointer if d.node.derived.len() == 1 => Ok(Some(base)),
            Shape::Array(dims) => {
                let inner: Option<Vec<usize>> = dims[1..].iter().copied().collect();
                Ok(inner.map(|inner| array_layout(base, &inner)))
            }
            _ => Ok(None),
        }
    }

    /// What a declarator declares: a scalar, an array of constant
    /// dimensions (a first `[]` takes the initializer's count), or a pointer.
    pub(super) fn shape(&mut self, d: &'a Node<Declarator>) -> Result<Shape> {
        if let DeclaratorKind::Declarator(inner) = &d.node.kind.node {
            if !inner.node.derived.is_empty() {
                return Err(self.unsupported(d.span, "a parenthesized declarator"));
            }
        }
        let derived = &d.node.derived;
        if derived.is_empty() {
            return Ok(Shape::Scalar);
        }
        if (derived.iter()).all(|x| matches!(x.node, DerivedDeclarator::Pointer(_))) {
            return Ok(Shape::Pointer);
        }
        // An array of pointers (`T *a[n]`: lang-c lists the stars first):
        // its elements' type is the pointer ([`Lowerer::pointer_elements`]).
        let stars = leading_pointers(&d.node);
        let mut dims = Vec::new();
        for (k, one) in derived[stars..].iter().enumerate() {
            let DerivedDeclarator::Array(a) = &one.node else {
                let what = match one.node {
                    DerivedDeclarator::Pointer(_) => "arrays of pointers or pointers to arrays",
                    _ => "this declarator",
                };
                return Err(self.unsupported(one.span, what));
            };
            dims.push(match &a.node.size {
                ArraySize::Unknown if k == 0 => None,
                ArraySize::Unknown => {
                    return Err(FrontError::Syntax(format!(
                        "{}: an inner array dimension without a size",
                        self.line(one.span)
                    )))
                }
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                    let n = self.constant_of(e).filter(|&n| n >= 0).ok_or_else(|| {
                        self.unsupported(e.span, "an array whose size is not a constant")
                    })?;
                    // Beyond usize it is beyond the limit too.
                    Some(usize::try_from(n).unwrap_or(usize::MAX))
                }
                ArraySize::VariableUnknown => {
                    return Err(self.unsupported(one.span, "an array of unspecified size `[*]`"))
                }
            });
        }
        Ok(Shape::Array(dims))
    }

    /// The size expressions of an array declarator with a size that is not
    /// a constant (a variable-length array), outermost first.
    fn variable_sizes(&mut self, d: &'a Node<Declarator>) -> Option<Vec<&'a Node<Expression>>> {
        let derived = &d.node.derived;
        let mut sizes = Vec::new();
        let mut variable = false;
        for one in derived {
            let DerivedDeclarator::Array(a) = &one.node else {
                return None;
            };
            match &a.node.size {
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                    variable |= self.constant_of(e).is_none();
                    sizes.push(&**e);
                }
                _ => return None,
            }
        }
        (variable && !sizes.is_empty()).then_some(sizes)
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
        let mut evaluator = Evaluator::new(&self.cfa.terms);
        let value = match evaluator.eval(v) {
            Ok(value) => value,
            // It may read variables that hold one constant (`fixed`).
            Err(_) if !self.fixed.is_empty() => {
                for (&var, value) in &self.fixed {
                    evaluator.set(var, value.clone());
                }
                evaluator.eval(v).ok()?
            }
            Err(_) => return None,
        };
        match value {
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
}
