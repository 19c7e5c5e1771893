//! Lowering of the lang-c AST into a [`Cfa`]: statements become locations
//! and edges, expressions become terms over the program variables with C's
//! conversions, calls to defined functions are inlined, and the SV-COMP
//! intrinsics become havocs, assumptions and jumps to the error location.

mod alias;
mod calls;
mod decl;
mod expr;
mod heap;
mod init;
mod layout;
mod memory;
mod place;
mod stmt;
mod switch;
mod undefined;

use super::lines::{LineMap, SourceLine};
use super::types::{CType, Numbers};
use super::{FrontError, Options, SourcePoint, Spec};
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
    /// The element type of each array kept whole (one SMT array variable).
    pub element_types: HashMap<Term, CType>,
    /// What a dereference of a pointer reads, by the pointer type's number
    /// ([`CType::pointee`]): each scalar leaf's path in C (`.next`,
    /// `.data[2]`, empty for a scalar) and its region array, indexed by the
    /// pointer. Traces show `p->next` through it.
    pub views: HashMap<u32, Vec<(String, Term)>>,
    /// Under `--int` with [`super::Options::overflow_flag`]: the Bool
    /// variable set by an assignment outside the assigned variable's range.
    pub overflow: Option<Term>,
    /// The Bool variable set, on the way to the error location, by
    /// undefined behaviour the encoding does not end the execution at (an
    /// object read at a type it was not given, a place out of bounds taken
    /// for its address, an allocation it cannot number; invalid accesses
    /// themselves end the execution): a trace that ends with it set is no
    /// verdict. None when the program has no such place. Under memory
    /// safety it is also set where the encoding cannot tell whether an
    /// object still live is lost ([`Lowerer::track_memory`]).
    pub out_of_bounds: Option<Term>,
    /// The Bool variable set, on the way to the error location, by a
    /// recursive call deeper than the program was inlined to ([`lower`]):
    /// a trace that ends with it set is no verdict.
    pub cut: Option<Term>,
    /// Under memory safety: the Bool variables set, on the way to the
    /// error location, by a violation of each sub-property (a trace that
    /// ends with one set violates that one).
    pub violations: Vec<(Term, Fault)>,
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

/// The sub-properties of SV-COMP's valid-memsafety.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// A dereference of NULL, of a dead object, or outside its object.
    Deref,
    /// A `free` of something other than the start of a live object.
    Free,
    /// An allocated object no longer reachable and never freed.
    Memtrack,
}

impl Fault {
    /// SV-COMP's name of the sub-property, as in `false(valid-deref)`.
    pub fn property(self) -> &'static str {
        match self {
            Fault::Deref => "valid-deref",
            Fault::Free => "valid-free",
            Fault::Memtrack => "valid-memtrack",
        }
    }

    /// The name of its flag variable.
    fn flag(self) -> &'static str {
        match self {
            Fault::Deref => "invalid-deref",
            Fault::Free => "invalid-free",
            Fault::Memtrack => "lost-object",
        }
    }
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
#[derive(Clone, Debug)]
enum Shape {
    Scalar,
    /// An array of the given dimensions, outermost first; a first one of
    /// None takes its size from the initializer.
    Array(Vec<Option<usize>>),
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
    /// An array or a struct, scalarized: one variable per scalar leaf.
    Object(std::rc::Rc<[Term]>, layout::Layout),
    /// A local pointer given the address of a variable in its function.
    /// Assigning it a side-effect-free value is dropped (a pointer nobody
    /// reads changes nothing); any other use is refused.
    Pointer,
    /// An enumeration constant: its value, an `int` (C11 6.7.2.2p3).
    Constant(Term),
    /// A pointer that can only point to one object.
    Alias(place::Target),
    /// An array kept whole, one SMT array (`memory.rs`).
    Memory(std::rc::Rc<layout::Memory>),
}

type Result<T> = std::result::Result<T, FrontError>;

struct Lowerer<'a> {
    lines: LineMap,
    options: Options,
    num: Numbers,
    cfa: Cfa,
    types: HashMap<Term, CType>,
    element_types: HashMap<Term, CType>,
    views: HashMap<u32, Vec<(String, Term)>>,
    scopes: Vec<HashMap<String, Binding>>,
    functions: HashMap<String, &'a FunctionDefinition>,
    active: Vec<String>,
    /// The call being lowered is the whole operand of a `return`: the
    /// function it inlines is entered by a tail call ([`Frame::by_tail`]).
    tail_entry: bool,
    /// (break target, continue target) of the enclosing loops and
    /// switches (a switch has no continue target of its own).
    loops: Vec<(Loc, Option<Loc>)>,
    /// The case labels of the enclosing switches, innermost last: where
    /// each label (by the offset where it starts) leads.
    switches: Vec<HashMap<usize, Loc>>,
    /// The integer type of each enumeration, by tag, and of each anonymous
    /// one, by the offset where its specifier starts.
    enums: HashMap<TagKey, Result<CType>>,
    /// The struct types, keyed as enumerations are, or why one is refused
    /// where it is used.
    records: HashMap<TagKey, Result<std::rc::Rc<layout::Record>>>,
    /// The current function instance: labels, pending gotos, exit and return slot.
    frames: Vec<Frame>,
    cur: Loc,
    /// Where `main` returns.
    sink: Loc,
    /// Where `abort`, `exit` and, unless they are the property, the error
    /// functions end the execution (`sink` but under memory safety, whose
    /// leak check differs there).
    halt: Loc,
    fresh: usize,
    /// See [`Program::overflow`].
    overflow: Option<Term>,
    /// See [`Program::out_of_bounds`].
    out_of_bounds: Option<Term>,
    /// See [`Program::cut`].
    cut: Option<Term>,
    /// The depth recursion is inlined to, and the recursive calls inlined.
    recursion: (usize, usize),
    /// See [`Program::violations`].
    violations: Vec<(Term, Fault)>,
    /// The `static` locals' bindings, by where their declaration starts.
    statics: HashMap<usize, Vec<(String, Binding)>>,
    /// The paths (first and last location) that initialise the `static`
    /// locals, run before the program.
    static_starts: Vec<(Loc, Loc)>,
    /// Whether the place being lowered is only addressed (`&a[i]`), not
    /// accessed: a failed bounds check there is undefined behaviour, no
    /// invalid dereference.
    addressing: bool,
    /// The conditions under which the operand being lowered is evaluated
    /// (the left of `&&`, `||`, the condition of `?:`): its definedness is
    /// assumed under them ([`Lowerer::defined_only_if`]).
    guards: Vec<Term>,
    /// Global typedefs: the type named (None: void), or why it is refused
    /// when used.
    typedefs: HashMap<String, Result<Option<layout::Layout>>>,
    /// Global typedefs of a struct tag named before its members
    /// (`typedef struct s s;`): the tag, resolved where the name is used.
    typedef_tags: HashMap<String, String>,
    /// Global typedefs of function types (`typedef int f(int);`).
    function_typedefs: std::collections::HashSet<String>,
    /// Extern globals of unsupported types (from headers): refused when used.
    refused: HashMap<String, FrontError>,
    /// See [`Program::loop_heads`].
    loop_heads: Vec<LoopHead>,
    /// See [`Program::error_calls`].
    error_calls: Vec<SourcePoint>,
    /// See [`Program::main_start`].
    main_start: Option<SourcePoint>,
    /// What each pointer type points to, by [`CType::pointee`].
    pointees: std::cell::RefCell<Vec<heap::Pointee>>,
    /// The heap, once a program allocates.
    heap: Option<heap::Heap>,
    /// The key of each struct type, by its address (a pointer names it so).
    record_keys: HashMap<*const layout::Record, TagKey>,
    /// The pointer type the value being lowered is converted to (`calloc`
    /// gives its object that type at once).
    wanted: Option<CType>,
    /// Variables that hold one constant while they exist: parameters of an
    /// inlined call given a constant, which the body neither assigns nor
    /// takes the address of, of a function that does not call itself (a
    /// call in tail position would assign them again).
    fixed: HashMap<Term, Value>,
}

/// How an enumeration or struct type is named: by its tag, or, without
/// one, by where its specifier starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum TagKey {
    Tag(String),
    At(usize),
}

struct Frame {
    /// The function's outermost scope in [`Lowerer::scopes`]: names of the
    /// callers' scopes above the globals are not its own.
    scope_base: usize,
    labels: HashMap<String, Loc>,
    exit: Loc,
    ret: Option<(Term, CType)>,
    is_main: bool,
    /// The names the function's body assigns or takes the address of.
    assigned: std::collections::HashSet<String>,
    /// The assignments `name = value` of the function's body.
    values: Vec<(String, alias::Given)>,
    /// Where a call of the function in tail position goes instead of
    /// being inlined (`calls.rs`).
    tail: Option<Tail>,
    /// Whether the caller's `return` returns this call's value as it is.
    by_tail: bool,
    /// The pointer type the call's value is converted to, where the
    /// function returns `void *`: an allocation wrapper (`kzalloc`) gives
    /// `calloc`'s object the caller's type.
    wanted: Option<CType>,
}

/// A function's body as a loop: its name, the location after its
/// parameters are bound and those parameters (each an integer scalar).
struct Tail {
    name: String,
    start: Loc,
    params: Vec<(Term, CType)>,
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

/// The deepest call stack a recursive program is inlined to, at first.
const RECURSION_DEPTH: usize = 8;

/// The most instances of recursive calls inlined; beyond them the depth
/// is halved and the program lowered again.
const RECURSIVE_INSTANCES: usize = 1024;

/// Lowers a translation unit whose `main` is the entry point. A recursive
/// program is inlined up to a depth of the call stack; a call beyond it
/// reaches the error location with the flag [`Program::cut`] set, so a
/// proof shows that no execution recurses deeper, and a trace through it is
/// no verdict. The depth starts at [`RECURSION_DEPTH`] and is halved until
/// at most [`RECURSIVE_INSTANCES`] recursive calls are inlined (a function
/// calling itself twice doubles them per level).
pub fn lower(source: &str, unit: &TranslationUnit, options: &Options) -> Result<Program> {
    let mut depth = RECURSION_DEPTH;
    loop {
        let (program, instances) = lower_to_depth(source, unit, options, depth)?;
        if instances <= RECURSIVE_INSTANCES || depth == 1 {
            return Ok(program);
        }
        depth /= 2;
    }
}

/// Lowers with recursion inlined to `depth`: the program and the number of
/// recursive calls inlined.
fn lower_to_depth(
    source: &str,
    unit: &TranslationUnit,
    options: &Options,
    depth: usize,
) -> Result<(Program, usize)> {
    let mut cfa = Cfa::default();
    let init = cfa.add_location("entry");
    let error = cfa.add_location("error");
    let sink = cfa.add_location("end");
    let halt = match options.property {
        super::Spec::MemSafety => cfa.add_location("halt"),
        _ => sink,
    };
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
        element_types: HashMap::new(),
        views: HashMap::new(),
        scopes: vec![HashMap::new()],
        functions: HashMap::new(),
        active: Vec::new(),
        tail_entry: false,
        loops: Vec::new(),
        switches: Vec::new(),
        enums: HashMap::new(),
        records: HashMap::new(),
        frames: Vec::new(),
        cur: init,
        sink,
        halt,
        fresh: 0,
        overflow,
        out_of_bounds: None,
        cut: None,
        recursion: (depth, 0),
        violations: Vec::new(),
        statics: HashMap::new(),
        static_starts: Vec::new(),
        addressing: false,
        guards: Vec::new(),
        typedefs: HashMap::new(),
        typedef_tags: HashMap::new(),
        refused: HashMap::new(),
        function_typedefs: Default::default(),
        loop_heads: Vec::new(),
        error_calls: Vec::new(),
        main_start: None,
        pointees: Default::default(),
        heap: None,
        record_keys: HashMap::new(),
        wanted: None,
        fixed: HashMap::new(),
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
    l.inline(main, "main", &[], true, None)?;
    let cur = l.cur;
    l.jump(cur, end);
    l.track_memory();
    for (start, end) in std::mem::take(&mut l.static_starts) {
        let (old, entry) = (l.cfa.init, l.cfa.add_location("entry"));
        l.jump(entry, start);
        l.jump(end, old);
        l.cfa.init = entry;
    }
    if let Some(start) = l.heap_start() {
        let (old, entry) = (l.cfa.init, l.cfa.add_location("entry"));
        l.cfa.add_edge(entry, start, old);
        l.cfa.init = entry;
    }
    let flags = l.out_of_bounds.into_iter().chain(l.cut);
    for flag in flags
        .chain(l.violations.iter().map(|v| v.0))
        .collect::<Vec<_>>()
    {
        // The flag starts false: a new entry clears it.
        let (old, entry) = (l.cfa.init, l.cfa.add_location("entry"));
        let no = l.cfa.terms.bool(false);
        l.cfa.add_edge(entry, Command::Assign(flag, no), old);
        l.cfa.init = entry;
    }
    let instances = l.recursion.1;
    let program = Program {
        cfa: l.cfa,
        types: l.types,
        element_types: l.element_types,
        views: l.views,
        overflow: l.overflow,
        out_of_bounds: l.out_of_bounds,
        cut: l.cut,
        violations: l.violations,
        loop_heads: l.loop_heads,
        error_calls: l.error_calls,
        main_start: l.main_start,
    };
    Ok((program, instances))
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

    /// `N` new locations at the line of `span`.
    fn new_locs<const N: usize>(&mut self, span: Span) -> [Loc; N] {
        std::array::from_fn(|_| self.new_loc(span))
    }

    fn jump(&mut self, from: Loc, to: Loc) {
        let yes = self.cfa.terms.bool(true);
        self.cfa.add_edge(from, Command::Assume(yes), to);
    }

    /// Control passes from the current location to `to`, which becomes
    /// the current one.
    fn go_to(&mut self, to: Loc) {
        self.jump(self.cur, to);
        self.cur = to;
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
        let value = *value;
        let inside = self.in_range(value, ty);
        let terms = &mut self.cfa.terms;
        let outside = terms.not(inside);
        let raised = terms.mk(Op::Or, &[flag, outside]);
        Command::Assign(flag, raised).then(command)
    }

    /// A loop body from the current location: `break` leaves to `exit`,
    /// `continue` and the body's end go to `next`.
    fn loop_body(&mut self, body: &'a Node<Statement>, exit: Loc, next: Loc) -> Result<()> {
        self.loops.push((exit, Some(next)));
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
}
