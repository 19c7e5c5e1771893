//! Lowering of the lang-c AST into a [`Cfa`]: statements become locations
//! and edges, expressions become terms over the program variables with C's
//! conversions, calls to defined functions are inlined, and the SV-COMP
//! intrinsics become havocs, assumptions and jumps to the error location.

use super::lines::{LineMap, SourceLine};
use super::types::{CType, Numbers};
use super::{FrontError, Options, SourcePoint};
use crate::ir::cfa::{Cfa, Command, Loc};
use crate::ir::term::eval::{Evaluator, Value};
use crate::ir::term::{Op, Sort, Term};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashMap;

/// A lowered program: its CFA and the C type of every variable.
#[derive(Clone, Debug)]
pub struct Program {
    /// The control-flow automaton (error location: a reached `reach_error`).
    pub cfa: Cfa,
    /// The C type of each program variable.
    pub types: HashMap<Term, CType>,
    /// Under `--int` with [`super::Options::overflow_flag`]: the Bool
    /// variable set by an assignment outside the assigned variable's range.
    pub overflow: Option<Term>,
    /// The Bool variable set, on the way to the error location, by an array
    /// access out of bounds (undefined behaviour, C11 6.5.6p8): a trace that
    /// ends with it set shows undefined behaviour, not the property's
    /// violation. None when the program has no such access.
    pub out_of_bounds: Option<Term>,
    /// The loops of the program, one per inlined instance: where an
    /// SV-COMP correctness witness puts its loop invariants.
    pub loop_heads: Vec<LoopHead>,
    /// The calls that reach the error location (`reach_error()`, a failing
    /// `__VERIFIER_assert`), one per inlined instance: a violation
    /// witness's target.
    pub error_calls: Vec<SourcePoint>,
    /// The first statement or declaration of `main`'s body, where an
    /// invariant holds before anything has run.
    pub main_start: Option<SourcePoint>,
}

/// A `while` or `for` loop: its head is the location before each
/// evaluation of the condition, where a loop invariant holds.
#[derive(Clone, Debug)]
pub struct LoopHead {
    /// The head.
    pub loc: Loc,
    /// The loop's keyword. None when the loop is not in the main file.
    pub at: Option<SourcePoint>,
    /// The scalar variables in scope at the head, by their C names (the
    /// function's own and the globals).
    pub scope: Vec<(String, Term)>,
}

/// The most elements an array may have: each becomes a variable, and each
/// access with a variable index a multiplexer over all of them.
pub const MAX_ARRAY_ELEMENTS: usize = 1024;

/// What a declarator declares (see [`Lowerer::shape`]).
#[derive(Copy, Clone, Debug)]
enum Shape {
    Scalar,
    /// An array; None: its size comes from the initializer.
    Array(Option<usize>),
    Pointer,
}

/// An array index after its bounds check.
enum ArrayIndex {
    /// A constant within bounds.
    Constant(usize),
    /// A term of the given type (64 bits, or an integer).
    Variable(Term, CType),
}

/// What a name in scope stands for.
#[derive(Clone, Debug)]
enum Binding {
    /// A scalar variable.
    Scalar(Term, CType),
    /// An array, scalarized: one variable per element.
    Array(std::rc::Rc<[Term]>, CType),
    /// A local pointer. Assigning it a side-effect-free value is dropped (a
    /// pointer nobody reads changes nothing); any other use is refused.
    Pointer,
}

type Result<T> = std::result::Result<T, FrontError>;

struct Lowerer<'a> {
    lines: LineMap,
    options: Options,
    num: Numbers,
    cfa: Cfa,
    types: HashMap<Term, CType>,
    scopes: Vec<HashMap<String, Binding>>,
    functions: HashMap<String, &'a FunctionDefinition>,
    active: Vec<String>,
    /// (break target, continue target) of the enclosing loops.
    loops: Vec<(Loc, Loc)>,
    /// The current function instance: labels, pending gotos, exit and return slot.
    frames: Vec<Frame>,
    cur: Loc,
    sink: Loc,
    fresh: usize,
    /// See [`Program::overflow`].
    overflow: Option<Term>,
    /// See [`Program::out_of_bounds`].
    out_of_bounds: Option<Term>,
    /// Global typedefs: the scalar type named, or why it is refused when used.
    typedefs: HashMap<String, Result<Option<CType>>>,
    /// Extern globals of unsupported types (from headers): refused when used.
    refused: HashMap<String, FrontError>,
    /// See [`Program::loop_heads`].
    loop_heads: Vec<LoopHead>,
    /// See [`Program::error_calls`].
    error_calls: Vec<SourcePoint>,
    /// See [`Program::main_start`].
    main_start: Option<SourcePoint>,
}

struct Frame {
    /// The function's outermost scope in [`Lowerer::scopes`]: names of the
    /// callers' scopes above the globals are not its own.
    scope_base: usize,
    labels: HashMap<String, Loc>,
    exit: Loc,
    ret: Option<(Term, CType)>,
    is_main: bool,
}

fn name_of(declarator: &Declarator) -> Option<&str> {
    match &declarator.kind.node {
        DeclaratorKind::Identifier(id) => Some(&id.node.name),
        DeclaratorKind::Declarator(inner) => name_of(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// Whether `e` or a subexpression evaluated with it passes `test` (the
/// operands of `sizeof` and members are not visited).
fn any_subexpression(e: &Expression, test: &dyn Fn(&Expression) -> bool) -> bool {
    let any = |operands: &[&Node<Expression>]| {
        (operands.iter()).any(|operand| any_subexpression(&operand.node, test))
    };
    test(e)
        || match e {
            Expression::UnaryOperator(u) => any(&[&u.node.operand]),
            Expression::BinaryOperator(b) => any(&[&b.node.lhs, &b.node.rhs]),
            Expression::Cast(c) => any(&[&c.node.expression]),
            Expression::Conditional(c) => any(&[
                &c.node.condition,
                &c.node.then_expression,
                &c.node.else_expression,
            ]),
            Expression::Comma(v) => v.iter().any(|e| any_subexpression(&e.node, test)),
            Expression::Call(c) => {
                (c.node.arguments.iter()).any(|e| any_subexpression(&e.node, test))
            }
            _ => false,
        }
}

/// Whether the operator at the top of `e` has a side effect: a call, `++`,
/// `--` or an assignment.
fn side_effect(e: &Expression) -> bool {
    use BinaryOperator::*;
    match e {
        Expression::Call(_) => true,
        Expression::UnaryOperator(u) => matches!(
            u.node.operator.node,
            UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement
                | UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement
        ),
        Expression::BinaryOperator(b) => matches!(
            b.node.operator.node,
            Assign
                | AssignMultiply
                | AssignDivide
                | AssignModulo
                | AssignPlus
                | AssignMinus
                | AssignShiftLeft
                | AssignShiftRight
                | AssignBitwiseAnd
                | AssignBitwiseXor
                | AssignBitwiseOr
        ),
        _ => false,
    }
}

fn has_side_effects(e: &Expression) -> bool {
    any_subexpression(e, &side_effect)
}

/// Whether evaluating `e` may leave straight-line code: a side effect, or
/// an array access (whose bounds check branches). Such an operand of `&&`,
/// `||` or `?:` is evaluated only when C evaluates it.
fn may_branch(e: &Expression) -> bool {
    any_subexpression(e, &|e| {
        side_effect(e)
            || matches!(e, Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index)
    })
}

/// Lowers a translation unit whose `main` is the entry point.
pub fn lower(source: &str, unit: &TranslationUnit, options: &Options) -> Result<Program> {
    let mut cfa = Cfa::default();
    let init = cfa.add_location("entry");
    let error = cfa.add_location("error");
    let sink = cfa.add_location("end");
    cfa.init = init;
    cfa.error = error;
    let overflow = (options.int && options.overflow_flag).then(|| {
        let flag = cfa.terms.var("int-overflow", Sort::Bool);
        cfa.vars.push(flag);
        flag
    });
    let mut l = Lowerer {
        lines: LineMap::new(source),
        options: *options,
        num: Numbers { int: options.int },
        cfa,
        types: HashMap::new(),
        scopes: vec![HashMap::new()],
        functions: HashMap::new(),
        active: Vec::new(),
        loops: Vec::new(),
        frames: Vec::new(),
        cur: init,
        sink,
        fresh: 0,
        overflow,
        out_of_bounds: None,
        typedefs: HashMap::new(),
        refused: HashMap::new(),
        loop_heads: Vec::new(),
        error_calls: Vec::new(),
        main_start: None,
    };
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::FunctionDefinition(f) => {
                if let Some(name) = name_of(&f.node.declarator.node) {
                    l.functions.insert(name.to_string(), &f.node);
                }
            }
            ExternalDeclaration::Declaration(d) => l.global_declaration(d)?,
            ExternalDeclaration::StaticAssert(s) => {
                return Err(l.unsupported(s.span, "_Static_assert"))
            }
        }
    }
    let Some(main) = l.functions.get("main").copied() else {
        return Err(FrontError::Syntax("no `main` function".into()));
    };
    let end = l.sink;
    l.inline(main, "main", &[], true)?;
    let cur = l.cur;
    l.jump(cur, end);
    if let Some(flag) = l.out_of_bounds {
        // The flag starts false: a new entry clears it.
        let (old, entry) = (l.cfa.init, l.cfa.add_location("entry"));
        let no = l.cfa.terms.bool(false);
        l.cfa.add_edge(entry, Command::Assign(flag, no), old);
        l.cfa.init = entry;
    }
    Ok(Program {
        cfa: l.cfa,
        types: l.types,
        overflow: l.overflow,
        out_of_bounds: l.out_of_bounds,
        loop_heads: l.loop_heads,
        error_calls: l.error_calls,
        main_start: l.main_start,
    })
}

impl<'a> Lowerer<'a> {
    fn line(&self, span: Span) -> SourceLine {
        self.lines.locate(span.start)
    }

    /// The point of the main file where `span` starts, in the current function.
    fn point(&self, span: Span) -> Option<SourcePoint> {
        let (line, column) = self.lines.position(span.start)?;
        let function = self.active.last().cloned().unwrap_or_default();
        Some(SourcePoint {
            line,
            column,
            function,
        })
    }

    /// Records the head of a loop that starts at `span`.
    fn loop_head(&mut self, loc: Loc, span: Span) {
        let base = self.frames.last().map_or(0, |f| f.scope_base);
        let mut scope: Vec<(String, Term)> = Vec::new();
        // Innermost first; a name seen already is shadowed further out.
        let visible = (self.scopes[base..].iter().rev()).chain(self.scopes[..1.min(base)].iter());
        for names in visible {
            for (name, binding) in names {
                if let Binding::Scalar(var, _) = binding {
                    if !scope.iter().any(|(n, _)| n == name) {
                        scope.push((name.clone(), *var));
                    }
                }
            }
        }
        scope.sort();
        let at = self.point(span);
        self.loop_heads.push(LoopHead { loc, at, scope });
    }

    fn unsupported(&self, span: Span, what: impl Into<String>) -> FrontError {
        FrontError::Unsupported {
            at: self.line(span),
            what: what.into(),
        }
    }

    fn new_loc(&mut self, span: Span) -> Loc {
        let at = self.line(span);
        self.cfa.add_location(at.to_string())
    }

    fn jump(&mut self, from: Loc, to: Loc) {
        let yes = self.cfa.terms.bool(true);
        self.cfa.add_edge(from, Command::Assume(yes), to);
    }

    /// Emits `command` from the current location to a new one.
    fn emit(&mut self, command: Command, span: Span) {
        let command = self.flag_overflow(command);
        let next = self.new_loc(span);
        self.cfa.add_edge(self.cur, command, next);
        self.cur = next;
    }

    /// An assignment that also sets the overflow flag (if there is one) when
    /// the value is outside the variable's range; on the same edge, so that
    /// the automaton keeps the locations of the bit-precise one.
    fn flag_overflow(&mut self, command: Command) -> Command {
        let (Some(flag), Command::Assign(var, value)) = (self.overflow, &command) else {
            return command;
        };
        let Some(&ty) = self.types.get(var) else {
            return command;
        };
        if *self.cfa.terms.sort(*var) != Sort::Int {
            return command;
        }
        let (lo, hi) = ty.range();
        let terms = &mut self.cfa.terms;
        let lo = self.num.constant(terms, lo, ty);
        let hi = self.num.constant(terms, hi, ty);
        let above = terms.mk(Op::Le, &[lo, *value]);
        let below = terms.mk(Op::Le, &[*value, hi]);
        let inside = terms.mk(Op::And, &[above, below]);
        let outside = terms.not(inside);
        let raised = terms.mk(Op::Or, &[flag, outside]);
        Command::Assign(flag, raised).then(command)
    }

    /// A loop body from the current location: `break` leaves to `exit`,
    /// `continue` and the body's end go to `next`.
    fn loop_body(&mut self, body: &'a Node<Statement>, exit: Loc, next: Loc) -> Result<()> {
        self.loops.push((exit, next));
        self.statement(body)?;
        self.loops.pop();
        self.jump(self.cur, next);
        Ok(())
    }

    /// Ends the current straight-line code with a jump; later code is unreachable.
    fn jump_away(&mut self, to: Loc, span: Span) {
        self.jump(self.cur, to);
        self.cur = self.new_loc(span);
    }

    fn new_var(&mut self, name: &str, ty: CType) -> Term {
        self.fresh += 1;
        let t = self
            .cfa
            .terms
            .var(&format!("{name}#{}", self.fresh), self.num.sort(ty));
        self.cfa.vars.push(t);
        self.types.insert(t, ty);
        t
    }

    fn base_type(&self, specs: &[&TypeSpecifier], span: Span) -> Result<Option<CType>> {
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
                TypeSpecifier::Enum(_) => return Err(self.unsupported(span, "enums")),
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

    fn declared_type(
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

    fn check_declarator(&self, d: &Node<Declarator>) -> Result<()> {
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

    fn global_declaration(&mut self, d: &'a Node<Declaration>) -> Result<()> {
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

    fn initializer(&mut self, i: &'a Node<Initializer>, ty: CType) -> Result<Term> {
        match &i.node {
            Initializer::Expression(e) => {
                let (v, from) = self.expr(e)?;
                Ok(self.num.convert(&mut self.cfa.terms, v, from, ty))
            }
            Initializer::List(_) => Err(self.unsupported(i.span, "initializer lists")),
        }
    }

    fn lookup(&self, name: &str, span: Span) -> Result<(Term, CType)> {
        match self.binding(name) {
            Some(Binding::Scalar(var, ty)) => return Ok((*var, *ty)),
            Some(Binding::Array(..)) => {
                let what = format!("the array `{name}` used as a pointer");
                return Err(self.unsupported(span, what));
            }
            Some(Binding::Pointer) => {
                return Err(self.unsupported(span, format!("pointers (`{name}` read)")))
            }
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
    fn binding(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name))
    }

    /// The array named by `e`, if it is an identifier bound to one.
    fn array_of(&self, e: &Node<Expression>) -> Option<(std::rc::Rc<[Term]>, CType)> {
        match &e.node {
            Expression::Identifier(id) => match self.binding(&id.node.name) {
                Some(Binding::Array(elements, ty)) => Some((elements.clone(), *ty)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Inlines a call of `f` with the given argument values.
    fn inline(
        &mut self,
        f: &'a FunctionDefinition,
        name: &str,
        args: &[(Term, CType)],
        is_main: bool,
    ) -> Result<Option<(Term, CType)>> {
        if self.active.iter().any(|a| a == name) {
            return Err(self.unsupported(f.declarator.span, format!("recursion (`{name}`)")));
        }
        let ret_ty = self.declared_type(&f.specifiers, f.declarator.span)?;
        let ret = ret_ty.map(|t| (self.new_var(&format!("{name}::return"), t), t));
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
            self.check_declarator(decl)?;
            let Some(ty) = self.declared_type(&p.node.specifiers, p.span)? else {
                continue;
            };
            let pname = name_of(&decl.node).unwrap_or("?").to_string();
            let var = self.new_var(&format!("{name}::{pname}"), ty);
            let Some(&(value, from)) = args.get(k) else {
                return Err(
                    self.unsupported(p.span, format!("a call of `{name}` with too few arguments"))
                );
            };
            let value = self.num.convert(&mut self.cfa.terms, value, from, ty);
            self.emit(Command::Assign(var, value), p.span);
            self.scopes
                .last_mut()
                .expect("scope")
                .insert(pname, Binding::Scalar(var, ty));
            k += 1;
        }
        self.frames.push(Frame {
            scope_base: self.scopes.len() - 1,
            labels: HashMap::new(),
            exit,
            ret,
            is_main,
        });
        self.collect_labels(&f.statement);
        if let (true, Statement::Compound(items)) = (is_main, &f.statement.node) {
            self.main_start = items.first().and_then(|i| self.point(i.span));
        }
        let result = self.statement(&f.statement);
        self.frames.pop();
        result?;
        self.jump(self.cur, exit);
        self.cur = exit;
        self.scopes.pop();
        self.active.pop();
        Ok(ret)
    }

    /// Creates the locations of the labels in a function body, so that gotos
    /// may jump forward.
    fn collect_labels(&mut self, s: &'a Node<Statement>) {
        let mut stack = vec![s];
        while let Some(s) = stack.pop() {
            match &s.node {
                Statement::Labeled(l) => {
                    if let Label::Identifier(id) = &l.node.label.node {
                        let loc = self.new_loc(l.span);
                        self.frames
                            .last_mut()
                            .expect("frame")
                            .labels
                            .insert(id.node.name.clone(), loc);
                    }
                    stack.push(&l.node.statement);
                }
                Statement::Compound(items) => {
                    for i in items {
                        if let BlockItem::Statement(st) = &i.node {
                            stack.push(st);
                        }
                    }
                }
                Statement::If(i) => {
                    stack.push(&i.node.then_statement);
                    if let Some(e) = &i.node.else_statement {
                        stack.push(e);
                    }
                }
                Statement::While(w) => stack.push(&w.node.statement),
                Statement::DoWhile(d) => stack.push(&d.node.statement),
                Statement::For(f) => stack.push(&f.node.statement),
                _ => {}
            }
        }
    }

    fn statement(&mut self, s: &'a Node<Statement>) -> Result<()> {
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.local_declaration(d)?,
                        BlockItem::Statement(st) => self.statement(st)?,
                        BlockItem::StaticAssert(_) => {
                            return Err(self.unsupported(item.span, "_Static_assert"))
                        }
                    }
                }
                self.scopes.pop();
                Ok(())
            }
            Statement::Expression(e) => {
                if let Some(e) = e {
                    if !self.dropped_pointer_assignment(e)? {
                        self.expr(e)?;
                    }
                }
                Ok(())
            }
            Statement::Labeled(l) => match &l.node.label.node {
                Label::Identifier(id) => {
                    let target = self.frames.last().expect("frame").labels[&id.node.name];
                    self.jump(self.cur, target);
                    self.cur = target;
                    self.statement(&l.node.statement)
                }
                _ => Err(self.unsupported(l.span, "switch (case labels)")),
            },
            Statement::Goto(id) => {
                let Some(&target) = self.frames.last().expect("frame").labels.get(&id.node.name)
                else {
                    return Err(self.unsupported(
                        id.span,
                        format!("goto to unknown label `{}`", id.node.name),
                    ));
                };
                self.jump_away(target, s.span);
                Ok(())
            }
            Statement::If(i) => {
                let (then_l, else_l, join) = (
                    self.new_loc(s.span),
                    self.new_loc(s.span),
                    self.new_loc(s.span),
                );
                self.branch(&i.node.condition, then_l, else_l)?;
                self.cur = then_l;
                self.statement(&i.node.then_statement)?;
                self.jump(self.cur, join);
                self.cur = else_l;
                if let Some(e) = &i.node.else_statement {
                    self.statement(e)?;
                }
                self.jump(self.cur, join);
                self.cur = join;
                Ok(())
            }
            Statement::While(w) => {
                let (head, body, exit) = (
                    self.new_loc(s.span),
                    self.new_loc(s.span),
                    self.new_loc(s.span),
                );
                self.jump(self.cur, head);
                self.cur = head;
                self.loop_head(head, s.span);
                self.branch(&w.node.expression, body, exit)?;
                self.cur = body;
                self.loop_body(&w.node.statement, exit, head)?;
                self.cur = exit;
                Ok(())
            }
            Statement::DoWhile(d) => {
                let (body, test, exit) = (
                    self.new_loc(s.span),
                    self.new_loc(s.span),
                    self.new_loc(s.span),
                );
                self.jump(self.cur, body);
                self.cur = body;
                self.loop_body(&d.node.statement, exit, test)?;
                self.cur = test;
                self.branch(&d.node.expression, body, exit)?;
                self.cur = exit;
                Ok(())
            }
            Statement::For(f) => {
                self.scopes.push(HashMap::new());
                match &f.node.initializer.node {
                    ForInitializer::Empty => {}
                    ForInitializer::Expression(e) => {
                        self.expr(e)?;
                    }
                    ForInitializer::Declaration(d) => self.local_declaration(d)?,
                    ForInitializer::StaticAssert(_) => {
                        return Err(self.unsupported(s.span, "_Static_assert"))
                    }
                }
                let (head, body, step, exit) = (
                    self.new_loc(s.span),
                    self.new_loc(s.span),
                    self.new_loc(s.span),
                    self.new_loc(s.span),
                );
                self.jump(self.cur, head);
                self.cur = head;
                self.loop_head(head, s.span);
                match &f.node.condition {
                    Some(c) => self.branch(c, body, exit)?,
                    None => self.jump(head, body),
                }
                self.cur = body;
                self.loop_body(&f.node.statement, exit, step)?;
                self.cur = step;
                if let Some(e) = &f.node.step {
                    self.expr(e)?;
                }
                self.jump(self.cur, head);
                self.cur = exit;
                self.scopes.pop();
                Ok(())
            }
            Statement::Break => {
                let Some(&(exit, _)) = self.loops.last() else {
                    return Err(self.unsupported(s.span, "break outside a loop (switch)"));
                };
                self.jump_away(exit, s.span);
                Ok(())
            }
            Statement::Continue => {
                let Some(&(_, next)) = self.loops.last() else {
                    return Err(self.unsupported(s.span, "continue outside a loop"));
                };
                self.jump_away(next, s.span);
                Ok(())
            }
            Statement::Return(e) => {
                let value = match e {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                let frame = self.frames.last().expect("frame");
                let (exit, ret, is_main) = (frame.exit, frame.ret, frame.is_main);
                if is_main {
                    let sink = self.sink;
                    self.jump_away(sink, s.span);
                    return Ok(());
                }
                if let (Some((var, ty)), Some((v, from))) = (ret, value) {
                    let v = self.num.convert(&mut self.cfa.terms, v, from, ty);
                    self.emit(Command::Assign(var, v), s.span);
                }
                self.jump_away(exit, s.span);
                Ok(())
            }
            Statement::Switch(_) => Err(self.unsupported(s.span, "switch")),
            Statement::Asm(_) => Err(self.unsupported(s.span, "inline assembly")),
        }
    }

    fn local_declaration(&mut self, d: &'a Node<Declaration>) -> Result<()> {
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
    fn shape(&mut self, d: &'a Node<Declarator>) -> Result<Shape> {
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
    fn constant_of(&mut self, e: &'a Node<Expression>) -> Option<i128> {
        // Reading an array would emit its bounds check: not a constant.
        if may_branch(&e.node) {
            return None;
        }
        let (v, ty) = self.expr(e).ok()?;
        self.constant_value(v, ty)
    }

    /// The value of the term `v` of type `ty`, if it reads no variable.
    fn constant_value(&self, v: Term, ty: CType) -> Option<i128> {
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
    fn declare(
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

    /// Whether `e` is `p = value` for a local pointer `p`: then the
    /// assignment is dropped (see [`Self::dropped_pointer_value`]).
    fn dropped_pointer_assignment(&self, e: &'a Node<Expression>) -> Result<bool> {
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
    fn dropped_pointer_value(&self, e: &Node<Expression>) -> Result<()> {
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

    /// Branches on a condition with C's short-circuit evaluation.
    fn branch(&mut self, e: &'a Node<Expression>, t: Loc, f: Loc) -> Result<()> {
        match &e.node {
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
            {
                self.branch_logical(b, t, f)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.branch(&u.node.operand, f, t)
            }
            _ => {
                let (v, ty) = self.expr(e)?;
                let yes = self.num.truth(&mut self.cfa.terms, v, ty);
                let no = self.cfa.terms.not(yes);
                self.cfa.add_edge(self.cur, Command::Assume(yes), t);
                self.cfa.add_edge(self.cur, Command::Assume(no), f);
                Ok(())
            }
        }
    }

    /// Branches on `a && b` or `a || b`, evaluating `b` only when needed.
    fn branch_logical(
        &mut self,
        b: &'a Node<BinaryOperatorExpression>,
        t: Loc,
        f: Loc,
    ) -> Result<()> {
        let mid = self.new_loc(b.span);
        if b.node.operator.node == BinaryOperator::LogicalAnd {
            self.branch(&b.node.lhs, mid, f)?;
        } else {
            self.branch(&b.node.lhs, t, mid)?;
        }
        self.cur = mid;
        self.branch(&b.node.rhs, t, f)
    }

    /// Copies a value into a temporary, so that later side effects do not change it.
    fn stabilize(&mut self, v: (Term, CType), span: Span) -> (Term, CType) {
        if matches!(self.cfa.terms.op(v.0), Op::Bv(_) | Op::Num(..)) {
            return v;
        }
        let tmp = self.new_var("tmp", v.1);
        self.emit(Command::Assign(tmp, v.0), span);
        (tmp, v.1)
    }

    fn integer(&mut self, c: &Node<Constant>) -> Result<(Term, CType)> {
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

    fn expr(&mut self, e: &'a Node<Expression>) -> Result<(Term, CType)> {
        match &e.node {
            Expression::Constant(c) => match c.node {
                Constant::Integer(_) | Constant::Character(_) => self.integer(c),
                Constant::Float(_) => Err(self.unsupported(c.span, "this constant")),
            },
            Expression::Identifier(id) => self.lookup(&id.node.name, e.span),
            Expression::Call(call) => self.call(call, e.span),
            Expression::Cast(c) => {
                let (v, from) = self.expr(&c.node.expression)?;
                let specs: Vec<&TypeSpecifier> = c
                    .node
                    .type_name
                    .node
                    .specifiers
                    .iter()
                    .filter_map(|s| match &s.node {
                        SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                        _ => None,
                    })
                    .collect();
                if let Some(d) = &c.node.type_name.node.declarator {
                    self.check_declarator(d)?;
                }
                match self.base_type(&specs, c.span)? {
                    Some(to) => Ok((self.num.convert(&mut self.cfa.terms, v, from, to), to)),
                    None => Ok((v, from)), // (void) casts discard
                }
            }
            Expression::UnaryOperator(u) => self.unary(u, e.span),
            Expression::BinaryOperator(b) => self.binary(b, e.span),
            Expression::Conditional(c) => {
                let pure = !may_branch(&c.node.then_expression.node)
                    && !may_branch(&c.node.else_expression.node);
                if pure {
                    let (cv, cty) = self.expr(&c.node.condition)?;
                    let cond = self.num.truth(&mut self.cfa.terms, cv, cty);
                    let (a, at) = self.expr(&c.node.then_expression)?;
                    let (b, bt) = self.expr(&c.node.else_expression)?;
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
            Expression::Member(_) => Err(self.unsupported(e.span, "structs and unions")),
            Expression::SizeOfTy(t) => {
                let name = &t.node.0;
                let specs: Vec<&TypeSpecifier> = (name.node.specifiers.iter())
                    .filter_map(|s| match &s.node {
                        SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                        _ => None,
                    })
                    .collect();
                if let Some(d) = &name.node.declarator {
                    self.check_declarator(d)?;
                }
                match self.base_type(&specs, e.span)? {
                    Some(ty) => Ok(self.size_of(ty, 1)),
                    None => Err(self.unsupported(e.span, "sizeof(void)")),
                }
            }
            Expression::SizeOfVal(v) => {
                // The operand is not evaluated (C11 6.5.3.4p2): only its type counts.
                let operand = &v.node.0;
                if let Some((elements, ty)) = self.array_of(operand) {
                    return Ok(self.size_of(ty, elements.len()));
                }
                if let Expression::BinaryOperator(b) = &operand.node {
                    if b.node.operator.node == BinaryOperator::Index {
                        if let Some((_, ty)) = self.array_of(&b.node.lhs) {
                            return Ok(self.size_of(ty, 1));
                        }
                    }
                }
                if has_side_effects(&v.node.0.node) {
                    return Err(
                        self.unsupported(e.span, "sizeof of an expression with side effects")
                    );
                }
                let (_, ty) = self.expr(&v.node.0)?;
                Ok(self.size_of(ty, 1))
            }
            _ => Err(self.unsupported(e.span, "this expression")),
        }
    }

    /// `sizeof` `count` objects of a scalar type (an array of them): their
    /// bytes, as a `size_t` (`unsigned long`).
    fn size_of(&mut self, ty: CType, count: usize) -> (Term, CType) {
        let size_t = CType::int(if self.options.lp64 { 64 } else { 32 }, false);
        let bytes = if ty.boolean {
            1
        } else {
            i128::from(ty.width / 8)
        };
        (
            self.num
                .constant(&mut self.cfa.terms, bytes * count as i128, size_t),
            size_t,
        )
    }

    fn assign_to(
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
    fn assign_element(
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
    fn reads_any(&self, t: Term, vars: &[Term]) -> bool {
        let terms = &self.cfa.terms;
        terms.topological(&[t]).iter().any(|x| vars.contains(x))
    }

    /// Evaluates an index into `elements`. Out of bounds (undefined
    /// behaviour), the path goes to the error location with the
    /// out-of-bounds flag set ([`Program::out_of_bounds`]); the index is
    /// compared in 64 bits of its own signedness (or as an integer).
    fn index(
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

    fn unary(&mut self, u: &'a Node<UnaryOperatorExpression>, span: Span) -> Result<(Term, CType)> {
        use UnaryOperator::*;
        let op = u.node.operator.node.clone();
        match op {
            PreIncrement | PreDecrement | PostIncrement | PostDecrement => {
                let (old, ty) = self.expr(&u.node.operand)?;
                let old = if matches!(op, PostIncrement | PostDecrement) {
                    self.stabilize((old, ty), span).0
                } else {
                    old
                };
                let p = ty.promoted();
                let wide = self.num.convert(&mut self.cfa.terms, old, ty, p);
                let one = self.num.constant(&mut self.cfa.terms, 1, p);
                let arith = match (matches!(op, PreIncrement | PostIncrement), self.num.int) {
                    (true, false) => Op::BvAdd,
                    (false, false) => Op::BvSub,
                    (true, true) => Op::Add,
                    (false, true) => Op::Sub,
                };
                let new = self.cfa.terms.mk(arith, &[wide, one]);
                let (var, vty) = self.assign_to(&u.node.operand, new, p, span)?;
                Ok(if matches!(op, PreIncrement | PreDecrement) {
                    (var, vty)
                } else {
                    (old, ty)
                })
            }
            Plus | Minus | Complement => {
                let (v, ty) = self.expr(&u.node.operand)?;
                let p = ty.promoted();
                let v = self.num.convert(&mut self.cfa.terms, v, ty, p);
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
            Address | Indirection => Err(self.unsupported(span, "pointers")),
        }
    }

    fn arith(
        &mut self,
        op: &BinaryOperator,
        a: (Term, CType),
        b: (Term, CType),
        span: Span,
    ) -> Result<(Term, CType)> {
        use BinaryOperator::*;
        let num = self.num;
        let terms = &mut self.cfa.terms;
        if matches!(
            op,
            ShiftLeft | ShiftRight | AssignShiftLeft | AssignShiftRight
        ) {
            // Operands promote separately; the result has the left one's type.
            let (lt, rt) = (a.1.promoted(), b.1.promoted());
            let l = num.convert(terms, a.0, a.1, lt);
            if num.int {
                return self.int_shift(op, l, lt, b.0, span);
            }
            let r = num.convert(terms, b.0, b.1, rt);
            let amount = num.convert(
                terms,
                r,
                CType::int(rt.width, false),
                CType::int(lt.width, false),
            );
            let o = match op {
                ShiftLeft | AssignShiftLeft => Op::BvShl,
                _ if lt.signed => Op::BvAshr,
                _ => Op::BvLshr,
            };
            return Ok((terms.mk(o, &[l, amount]), lt));
        }
        let ty = CType::common(a.1, b.1);
        let l = num.convert(terms, a.0, a.1, ty);
        let r = num.convert(terms, b.0, b.1, ty);
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

    /// A shift on mathematical integers: by a constant amount it is a
    /// multiplication or a floor division by a power of two (what gcc's
    /// arithmetic `>>` computes); by a variable amount it is refused.
    fn int_shift(
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

    fn binary(
        &mut self,
        b: &'a Node<BinaryOperatorExpression>,
        span: Span,
    ) -> Result<(Term, CType)> {
        use BinaryOperator::*;
        let op = b.node.operator.node.clone();
        match op {
            Assign => {
                let (v, ty) = self.expr(&b.node.rhs)?;
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
                let (c, ct) = self.expr(&b.node.rhs)?;
                let x = self.num.truth(&mut self.cfa.terms, a, at);
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
                let lhs = self.expr(&b.node.lhs)?;
                let (v, ty) = self.arith(&op, lhs, rhs, span)?;
                self.assign_to(&b.node.lhs, v, ty, span)
            }
            Index => {
                let Some((elements, ty)) = self.array_of(&b.node.lhs) else {
                    return Err(self.unsupported(span, "indexing something other than an array"));
                };
                let value = match self.index(&elements, &b.node.rhs, span)? {
                    ArrayIndex::Constant(k) => elements[k],
                    ArrayIndex::Variable(i, ity) => {
                        let mut value = elements[elements.len() - 1];
                        for k in (0..elements.len() - 1).rev() {
                            let at = self.num.constant(&mut self.cfa.terms, k as i128, ity);
                            let here = self.cfa.terms.eq(i, at);
                            value = self.cfa.terms.mk(Op::Ite, &[here, elements[k], value]);
                        }
                        value
                    }
                };
                Ok((value, ty))
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

    /// The one argument of a call of a verifier builtin (`assume`,
    /// `assert`): a call with another count is a malformed program, not an
    /// unsupported one, so it gets a located error.
    fn only_argument(
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
    fn no_value(&mut self) -> (Term, CType) {
        (
            self.num.constant(&mut self.cfa.terms, 0, CType::INT),
            CType::INT,
        )
    }

    fn call(&mut self, call: &'a Node<CallExpression>, span: Span) -> Result<(Term, CType)> {
        let Expression::Identifier(id) = &call.node.callee.node else {
            return Err(self.unsupported(span, "calls through function pointers"));
        };
        let name = id.node.name.as_str();
        if let Some(kind) = name.strip_prefix("__VERIFIER_nondet_") {
            let long = if self.options.lp64 { 64 } else { 32 };
            let ty = match kind {
                "int" => CType::int(32, true),
                "uint" | "unsigned" => CType::int(32, false),
                "char" => CType::int(8, true),
                "uchar" => CType::int(8, false),
                "short" => CType::int(16, true),
                "ushort" => CType::int(16, false),
                "long" => CType::int(long, true),
                "ulong" => CType::int(long, false),
                "bool" | "_Bool" => CType::bool(),
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
                self.error_calls.extend(self.point(span));
                let error = self.cfa.error;
                self.jump_away(error, span);
                Ok(self.no_value())
            }
            ("abort" | "exit", None) => {
                for a in &call.node.arguments {
                    self.expr(a)?;
                }
                let sink = self.sink;
                self.jump_away(sink, span);
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
                self.error_calls.extend(self.point(span));
                let (ok, fail) = (self.new_loc(span), self.cfa.error);
                self.branch(cond, ok, fail)?;
                self.cur = ok;
                Ok(self.no_value())
            }
            (_, Some(f)) => {
                let mut args = Vec::new();
                for a in &call.node.arguments {
                    let v = self.expr(a)?;
                    args.push(self.stabilize(v, span));
                }
                let ret = self.inline(f, name, &args, false)?;
                Ok(ret.unwrap_or_else(|| self.no_value()))
            }
            (_, None) => {
                Err(self.unsupported(span, format!("a call of the undefined function `{name}`")))
            }
        }
    }
}
