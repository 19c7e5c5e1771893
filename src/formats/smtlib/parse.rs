//! The SMT-LIB 2 script parser: commands and terms straight into a [`Terms`]
//! store, without an intermediate S-expression tree, so memory stays
//! proportional to the distinct terms of the file.

use super::lex::{Lexer, Token};
use crate::formats::{Location, ParseError};
use crate::ir::bv::BvValue;
use crate::ir::term::{Op, Rational, Sort, Term, Terms, MAX_BV_WIDTH};
use std::collections::HashMap;

/// Most `push` scopes open at once. Each opens a scope in the solver too;
/// without a bound `(push 264240240)` allocated gigabytes before the next
/// command was read (found by fuzzing the SMT-LIB reader).
pub const MAX_OPEN_SCOPES: usize = 1 << 16;

/// Deeper nesting than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 20_000;

/// An annotation `(! term :key value)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    /// The annotated term (without the annotation).
    pub term: Term,
    /// The keyword without its colon.
    pub key: String,
    /// The attribute value as written, if it is a single token.
    pub value: Option<String>,
    /// The line of the keyword.
    pub line: usize,
}

/// What a script declares, defines and annotates.
#[derive(Clone, Debug, Default)]
pub struct Script {
    /// The logic of `set-logic`, if any.
    pub logic: Option<String>,
    /// Declared constants (`declare-fun x () S`, `declare-const`), in order.
    pub declared: Vec<Term>,
    /// Annotations in the order they appear.
    pub annotations: Vec<Annotation>,
    /// Asserted terms, with their lines.
    pub asserts: Vec<(Term, usize)>,
}

/// A command of an interactive script ([`ScriptReader`]); declarations and
/// definitions are handled by the reader itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `(assert t)`, with its `:named` name if it has one.
    Assert {
        /// The asserted term.
        term: Term,
        /// The name given by `(! t :named n)`.
        name: Option<String>,
    },
    /// `(check-sat)`.
    CheckSat,
    /// `(check-sat-assuming (l …))`.
    CheckSatAssuming(Vec<Term>),
    /// `(push n)`.
    Push(u32),
    /// `(pop n)`.
    Pop(u32),
    /// `(get-value (t …))`.
    GetValue(Vec<Term>),
    /// `(get-model)`.
    GetModel,
    /// `(get-unsat-core)`.
    GetUnsatCore,
    /// `(get-unsat-assumptions)`.
    GetUnsatAssumptions,
    /// `(echo "s")`.
    Echo(String),
    /// `(exit)`.
    Exit,
    /// `(set-option :key value)`.
    SetOption(String, Option<String>),
    /// `(get-info :key)`.
    GetInfo(String),
    /// A declaration, definition, `set-logic`, `set-info`: nothing to do.
    Done,
}

enum Binding {
    Term(Term),
    /// A function defined with parameters: substituted at each use.
    Macro {
        params: Vec<Term>,
        body: Term,
    },
}

struct Parser<'a, 't> {
    file: &'a str,
    lex: Lexer<'a>,
    peeked: Option<Token<'a>>,
    terms: &'t mut Terms,
    globals: HashMap<String, Binding>,
    sorts: HashMap<String, Sort>,
    scopes: Vec<HashMap<String, Term>>,
    script: Script,
    depth: usize,
    /// Whether commands are returned ([`ScriptReader`]) or skipped.
    interactive: bool,
    /// Names declared in each open `push` scope.
    declared_in: Vec<Vec<String>>,
}

impl<'a, 't> Parser<'a, 't> {
    /// A parser at the start of `text` (from `file`, for messages),
    /// building into `terms`; `interactive` for a reader that hands
    /// commands over one at a time.
    fn new(file: &'a str, text: &'a str, terms: &'t mut Terms, interactive: bool) -> Self {
        Parser {
            file,
            lex: Lexer::new(text),
            peeked: None,
            terms,
            globals: HashMap::new(),
            sorts: HashMap::new(),
            scopes: Vec::new(),
            script: Script::default(),
            depth: 0,
            interactive,
            declared_in: Vec::new(),
        }
    }
}

/// Parses an SMT-LIB script into `terms`.
pub fn parse_script(file: &str, text: &str, terms: &mut Terms) -> Result<Script, ParseError> {
    let mut p = Parser::new(file, text, terms, false);
    while let Some(tok) = p.next()? {
        if tok != Token::Open {
            return Err(p.err(format!(
                "expected `(` to start a command, found {}",
                show(tok)
            )));
        }
        p.command()?;
    }
    Ok(p.script)
}

fn show(tok: Token) -> String {
    match tok {
        Token::Open => "`(`".into(),
        Token::Close => "`)`".into(),
        Token::Symbol(s) => format!("`{s}`"),
        Token::Keyword(k) => format!("`:{k}`"),
        Token::Numeral(n) | Token::Decimal(n) => format!("`{n}`"),
        Token::Binary(b) => format!("`#b{b}`"),
        Token::Hex(h) => format!("`#x{h}`"),
        Token::Str(s) => format!("\"{s}\""),
    }
}

impl<'a> Parser<'a, '_> {
    fn err(&self, message: impl Into<String>) -> ParseError {
        ParseError::new(self.file, Location::Line(self.lex.line), message)
    }

    fn next(&mut self) -> Result<Option<Token<'a>>, ParseError> {
        if let Some(t) = self.peeked.take() {
            return Ok(Some(t));
        }
        self.lex.next().map_err(|m| self.err(m))
    }

    fn peek(&mut self) -> Result<Option<Token<'a>>, ParseError> {
        if self.peeked.is_none() {
            self.peeked = self.lex.next().map_err(|m| self.err(m))?;
        }
        Ok(self.peeked)
    }

    fn expect_token(&mut self, what: &str) -> Result<Token<'a>, ParseError> {
        self.next()?
            .ok_or_else(|| self.err(format!("expected {what}, found the end of the file")))
    }

    fn expect(&mut self, want: Token, what: &str) -> Result<(), ParseError> {
        let tok = self.expect_token(what)?;
        if tok == want {
            Ok(())
        } else {
            Err(self.err(format!("expected {what}, found {}", show(tok))))
        }
    }

    fn symbol(&mut self, what: &str) -> Result<&'a str, ParseError> {
        match self.expect_token(what)? {
            Token::Symbol(s) => Ok(s),
            other => Err(self.err(format!("expected {what}, found {}", show(other)))),
        }
    }

    fn numeral(&mut self, what: &str) -> Result<u32, ParseError> {
        match self.expect_token(what)? {
            Token::Numeral(n) => n
                .parse()
                .map_err(|_| self.err(format!("{what} `{n}` is out of range"))),
            other => Err(self.err(format!("expected {what}, found {}", show(other)))),
        }
    }

    /// Skips the rest of a parenthesised form whose `(` was consumed.
    fn skip_form(&mut self) -> Result<(), ParseError> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.expect_token("`)`")? {
                Token::Open => depth += 1,
                Token::Close => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    fn command(&mut self) -> Result<(), ParseError> {
        self.command_of_script().map(|_| ())
    }

    /// A command of an interactive script.
    fn interactive_command(&mut self, name: &'a str) -> Result<Command, ParseError> {
        let close = |p: &mut Self, c: Command| p.expect(Token::Close, "`)`").map(|()| c);
        match name {
            "check-sat" => close(self, Command::CheckSat),
            "check-sat-assuming" => {
                self.expect(Token::Open, "`(` before the assumptions")?;
                let mut terms = Vec::new();
                while self.peek()? != Some(Token::Close) {
                    let t = self.term()?;
                    if *self.terms.sort(t) != Sort::Bool {
                        return Err(self.err("check-sat-assuming needs Bool terms"));
                    }
                    terms.push(t);
                }
                self.next()?;
                close(self, Command::CheckSatAssuming(terms))
            }
            "push" | "pop" => {
                let n = if self.peek()? == Some(Token::Close) {
                    1
                } else {
                    self.numeral("the number of scopes")?
                };
                self.expect(Token::Close, "`)`")?;
                if name == "push" {
                    if self.declared_in.len() + n as usize > MAX_OPEN_SCOPES {
                        return Err(self.err(format!(
                            "push {n}: at most {MAX_OPEN_SCOPES} scopes may be open (invar's limit)"
                        )));
                    }
                    for _ in 0..n {
                        self.declared_in.push(Vec::new());
                    }
                    Ok(Command::Push(n))
                } else {
                    if n as usize > self.declared_in.len() {
                        return Err(self.err(format!(
                            "pop {n}: only {} scopes are open",
                            self.declared_in.len()
                        )));
                    }
                    for _ in 0..n {
                        for gone in self.declared_in.pop().expect("open") {
                            self.globals.remove(&gone);
                        }
                    }
                    Ok(Command::Pop(n))
                }
            }
            "get-value" => {
                self.expect(Token::Open, "`(` before the terms")?;
                let mut terms = Vec::new();
                while self.peek()? != Some(Token::Close) {
                    terms.push(self.term()?);
                }
                self.next()?;
                close(self, Command::GetValue(terms))
            }
            "get-model" => close(self, Command::GetModel),
            "get-unsat-core" => close(self, Command::GetUnsatCore),
            "get-unsat-assumptions" => close(self, Command::GetUnsatAssumptions),
            "exit" => close(self, Command::Exit),
            "echo" => match self.expect_token("a string")? {
                Token::Str(s) => {
                    let s = s.to_string();
                    close(self, Command::Echo(s))
                }
                other => Err(self.err(format!("expected a string, found {}", show(other)))),
            },
            "set-option" | "get-info" => {
                let key = match self.expect_token("a keyword")? {
                    Token::Keyword(k) => k.to_string(),
                    other => {
                        return Err(self.err(format!("expected a keyword, found {}", show(other))))
                    }
                };
                let value = match self.peek()? {
                    Some(Token::Close) => None,
                    Some(Token::Symbol(v) | Token::Numeral(v) | Token::Str(v)) => {
                        self.next()?;
                        Some(v.to_string())
                    }
                    _ => {
                        self.next()?;
                        self.skip_form()?;
                        return Ok(if name == "set-option" {
                            Command::SetOption(key, None)
                        } else {
                            Command::GetInfo(key)
                        });
                    }
                };
                self.expect(Token::Close, "`)`")?;
                Ok(if name == "set-option" {
                    Command::SetOption(key, value)
                } else {
                    Command::GetInfo(key)
                })
            }
            "get-assertions" | "get-assignment" | "get-proof" | "reset" | "reset-assertions" => {
                Err(self.err(format!("`{name}` is not supported")))
            }
            _ => unreachable!("only the commands above come here"),
        }
    }

    fn command_of_script(&mut self) -> Result<Command, ParseError> {
        let name = self.symbol("a command name")?;
        match name {
            "set-logic" => {
                let logic = self.symbol("a logic name")?;
                self.script.logic = Some(logic.to_string());
                self.expect(Token::Close, "`)`").map(|()| Command::Done)
            }
            "set-info" => self.skip_form().map(|()| Command::Done),
            "set-option"
            | "check-sat"
            | "check-sat-assuming"
            | "exit"
            | "get-model"
            | "get-info"
            | "get-value"
            | "push"
            | "pop"
            | "echo"
            | "get-assertions"
            | "get-unsat-core"
            | "get-unsat-assumptions"
            | "get-assignment"
            | "get-proof"
            | "reset"
            | "reset-assertions"
                if self.interactive =>
            {
                self.interactive_command(name)
            }
            "set-option" | "check-sat" | "exit" | "get-model" | "get-info" | "get-value"
            | "push" | "pop" | "echo" | "get-assertions" => {
                self.skip_form().map(|()| Command::Done)
            }
            "declare-fun" | "declare-const" => {
                let var = self.symbol("the name being declared")?;
                if name == "declare-fun" {
                    self.expect(Token::Open, "`(` before the argument sorts")?;
                    if self.peek()? != Some(Token::Close) {
                        return Err(self.err(format!(
                            "`{var}` has arguments: uninterpreted functions are not supported"
                        )));
                    }
                    self.next()?;
                }
                let sort = self.sort()?;
                self.expect(Token::Close, "`)`")?;
                if self.globals.contains_key(var) {
                    return Err(self.err(format!("`{var}` is declared twice")));
                }
                let t = self.terms.var(var, sort);
                self.globals.insert(var.to_string(), Binding::Term(t));
                self.script.declared.push(t);
                if let Some(scope) = self.declared_in.last_mut() {
                    scope.push(var.to_string());
                }
                Ok(Command::Done)
            }
            "define-fun" => {
                let fname = self.symbol("the name being defined")?;
                self.expect(Token::Open, "`(` before the parameters")?;
                let mut params = Vec::new();
                let mut scope = HashMap::new();
                while self.peek()? == Some(Token::Open) {
                    self.next()?;
                    let pname = self.symbol("a parameter name")?;
                    let psort = self.sort()?;
                    self.expect(Token::Close, "`)` after the parameter")?;
                    // A name of its own, so that substituting the parameter
                    // never touches a global constant of the same name.
                    let pv = self
                        .terms
                        .var(&format!("{pname} #{} of {fname}", params.len()), psort);
                    scope.insert(pname.to_string(), pv);
                    params.push(pv);
                }
                self.expect(Token::Close, "`)` after the parameters")?;
                let sort = self.sort()?;
                self.scopes.push(scope);
                let body = self.term();
                self.scopes.pop();
                let body = self.coerce(body?, &sort)?;
                if *self.terms.sort(body) != sort {
                    return Err(self.err(format!(
                        "`{fname}` is declared {sort} but its body has sort {}",
                        self.terms.sort(body)
                    )));
                }
                self.expect(Token::Close, "`)`")?;
                let binding = if params.is_empty() {
                    Binding::Term(body)
                } else {
                    Binding::Macro { params, body }
                };
                self.globals.insert(fname.to_string(), binding);
                if let Some(scope) = self.declared_in.last_mut() {
                    scope.push(fname.to_string());
                }
                Ok(Command::Done)
            }
            "define-sort" => {
                let sname = self.symbol("the sort name")?;
                self.expect(Token::Open, "`(`")?;
                if self.peek()? != Some(Token::Close) {
                    return Err(self.err("define-sort with parameters is not supported"));
                }
                self.next()?;
                let sort = self.sort()?;
                self.expect(Token::Close, "`)`")?;
                self.sorts.insert(sname.to_string(), sort);
                Ok(Command::Done)
            }
            "declare-sort" => Err(self.err("declare-sort: uninterpreted sorts are not supported")),
            "assert" => {
                let line = self.lex.line;
                let before = self.script.annotations.len();
                let t = self.term()?;
                if *self.terms.sort(t) != Sort::Bool {
                    return Err(self.err("assert needs a Bool term"));
                }
                self.expect(Token::Close, "`)`")?;
                self.script.asserts.push((t, line));
                let name = self.script.annotations[before..]
                    .iter()
                    .find(|a| a.term == t && a.key == "named")
                    .and_then(|a| a.value.clone());
                if let Some(n) = &name {
                    // A named assertion's name denotes the term.
                    self.globals.insert(n.clone(), Binding::Term(t));
                }
                Ok(Command::Assert { term: t, name })
            }
            other => Err(self.err(format!("unknown command `{other}`"))),
        }
    }

    fn sort(&mut self) -> Result<Sort, ParseError> {
        match self.expect_token("a sort")? {
            Token::Symbol("Bool") => Ok(Sort::Bool),
            Token::Symbol("Int") => Ok(Sort::Int),
            Token::Symbol("Real") => Ok(Sort::Real),
            Token::Symbol(s) => self
                .sorts
                .get(s)
                .cloned()
                .ok_or_else(|| self.err(format!("unknown sort `{s}`"))),
            Token::Open => match self.symbol("`_` or `Array`")? {
                "_" => {
                    let bv = self.symbol("`BitVec`")?;
                    if bv != "BitVec" {
                        return Err(self.err(format!("unknown indexed sort `{bv}`")));
                    }
                    let w = self.numeral("a bit-vector width")?;
                    if w == 0 {
                        return Err(self.err("bit-vector width 0"));
                    }
                    if w > MAX_BV_WIDTH {
                        return Err(self.err(format!(
                            "bit-vector width {w} is above invar's limit of {MAX_BV_WIDTH} bits"
                        )));
                    }
                    self.expect(Token::Close, "`)`")?;
                    Ok(Sort::BitVec(w))
                }
                "Array" => {
                    let i = self.sort()?;
                    let e = self.sort()?;
                    self.expect(Token::Close, "`)`")?;
                    Ok(Sort::array(i, e))
                }
                other => Err(self.err(format!("unknown sort constructor `{other}`"))),
            },
            other => Err(self.err(format!("expected a sort, found {}", show(other)))),
        }
    }

    fn lookup(&mut self, name: &str) -> Result<Term, ParseError> {
        for scope in self.scopes.iter().rev() {
            if let Some(&t) = scope.get(name) {
                return Ok(t);
            }
        }
        match (self.globals.get(name), name) {
            (Some(Binding::Term(t)), _) => Ok(*t),
            (Some(Binding::Macro { .. }), _) => {
                Err(self.err(format!("`{name}` is a function and needs arguments")))
            }
            (None, "true") => Ok(self.terms.bool(true)),
            (None, "false") => Ok(self.terms.bool(false)),
            (None, _) => Err(self.err(format!("unknown symbol `{name}`"))),
        }
    }

    fn term(&mut self) -> Result<Term, ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(format!("terms nested deeper than {MAX_DEPTH} levels")));
        }
        let t = self.term_inner();
        self.depth -= 1;
        t
    }

    fn term_inner(&mut self) -> Result<Term, ParseError> {
        match self.expect_token("a term")? {
            Token::Numeral(n) => {
                let r = Rational::parse(n)
                    .ok_or_else(|| self.err(format!("numeral `{n}` is too large")))?;
                Ok(self.terms.mk(Op::Num(r, Sort::Int), &[]))
            }
            Token::Decimal(d) => {
                let r = Rational::parse(d)
                    .ok_or_else(|| self.err(format!("decimal `{d}` is too large")))?;
                Ok(self.terms.mk(Op::Num(r, Sort::Real), &[]))
            }
            Token::Binary(b) => Ok(self
                .terms
                .bv(BvValue::from_binary(b).expect("lexed binary"))),
            Token::Hex(h) => {
                let w = u32::try_from(h.len() * 4).map_err(|_| self.err("hex literal too long"))?;
                Ok(self.terms.bv(BvValue::from_hex(w, h).expect("lexed hex")))
            }
            Token::Symbol(s) => self.lookup(s),
            Token::Open => self.application(),
            other => Err(self.err(format!("expected a term, found {}", show(other)))),
        }
    }

    fn application(&mut self) -> Result<Term, ParseError> {
        match self.expect_token("an operator")? {
            Token::Symbol("let") => {
                self.expect(Token::Open, "`(` before the let bindings")?;
                let mut scope = HashMap::new();
                while self.peek()? == Some(Token::Open) {
                    self.next()?;
                    let name = self.symbol("a let variable")?;
                    let value = self.term()?;
                    self.expect(Token::Close, "`)` after the binding")?;
                    scope.insert(name.to_string(), value);
                }
                self.expect(Token::Close, "`)` after the let bindings")?;
                self.scopes.push(scope);
                let body = self.term();
                self.scopes.pop();
                let body = body?;
                self.expect(Token::Close, "`)` after the let body")?;
                Ok(body)
            }
            Token::Symbol("!") => {
                let t = self.term()?;
                loop {
                    match self.expect_token("an attribute or `)`")? {
                        Token::Close => return Ok(t),
                        Token::Keyword(key) => {
                            let line = self.lex.line;
                            let value = match self.peek()? {
                                Some(Token::Symbol(v) | Token::Numeral(v) | Token::Str(v)) => {
                                    self.next()?;
                                    Some(v.to_string())
                                }
                                Some(Token::Open) => {
                                    self.next()?;
                                    self.skip_form()?;
                                    None
                                }
                                _ => None,
                            };
                            self.script.annotations.push(Annotation {
                                term: t,
                                key: key.to_string(),
                                value,
                                line,
                            });
                        }
                        other => {
                            return Err(self.err(format!(
                                "expected an attribute keyword, found {}",
                                show(other)
                            )))
                        }
                    }
                }
            }
            Token::Symbol("_") => {
                // (_ bvN W)
                let name = self.symbol("`bvN`")?;
                let digits = name
                    .strip_prefix("bv")
                    .ok_or_else(|| self.err(format!("unknown indexed constant `{name}`")))?;
                let w = self.numeral("a bit-vector width")?;
                self.expect(Token::Close, "`)`")?;
                let v = (w > 0)
                    .then(|| BvValue::from_decimal(w, digits))
                    .flatten()
                    .ok_or_else(|| self.err(format!("`(_ {name} {w})` is not a valid constant")))?;
                Ok(self.terms.bv(v))
            }
            Token::Open => {
                let op = match self.symbol("`_` or `as`")? {
                    "_" => self.indexed_op()?,
                    "as" => {
                        let c = self.symbol("`const`")?;
                        if c != "const" {
                            return Err(self.err(format!("unsupported `(as {c} …)`")));
                        }
                        let sort = self.sort()?;
                        self.expect(Token::Close, "`)`")?;
                        Op::ConstArray(sort)
                    }
                    other => return Err(self.err(format!("unexpected `({other}` as an operator"))),
                };
                let args = self.arguments()?;
                self.build(op, "", args)
            }
            Token::Symbol(f) => {
                let args = self.arguments()?;
                if let Some(Binding::Macro { params, body }) = self.globals.get(f) {
                    let (params, body) = (params.clone(), *body);
                    if params.len() != args.len() {
                        return Err(self.err(format!(
                            "`{f}` takes {} arguments, got {}",
                            params.len(),
                            args.len()
                        )));
                    }
                    let mut subst = HashMap::new();
                    for (&p, &a) in params.iter().zip(&args) {
                        let a = self.coerce(a, &self.terms.sort(p).clone())?;
                        if self.terms.sort(a) != self.terms.sort(p) {
                            return Err(self.err(format!("`{f}`: argument of the wrong sort")));
                        }
                        subst.insert(p, a);
                    }
                    return Ok(self.terms.substitute(&[body], &subst)[0]);
                }
                let op = builtin(f, args.len())
                    .ok_or_else(|| self.err(format!("unknown function `{f}`")))?;
                self.build(op, f, args)
            }
            other => Err(self.err(format!("expected an operator, found {}", show(other)))),
        }
    }

    fn indexed_op(&mut self) -> Result<Op, ParseError> {
        let name = self.symbol("an indexed operator")?;
        let op = match name {
            "extract" => {
                let hi = self.numeral("an index")?;
                let lo = self.numeral("an index")?;
                Op::Extract(hi, lo)
            }
            "zero_extend" => Op::ZeroExtend(self.numeral("an index")?),
            "sign_extend" => Op::SignExtend(self.numeral("an index")?),
            "rotate_left" => Op::RotateLeft(self.numeral("an index")?),
            "rotate_right" => Op::RotateRight(self.numeral("an index")?),
            "repeat" => Op::Repeat(self.numeral("an index")?),
            other => return Err(self.err(format!("unknown indexed operator `{other}`"))),
        };
        self.expect(Token::Close, "`)`")?;
        Ok(op)
    }

    fn arguments(&mut self) -> Result<Vec<Term>, ParseError> {
        let mut args = Vec::new();
        while self.peek()? != Some(Token::Close) {
            args.push(self.term()?);
        }
        self.next()?;
        Ok(args)
    }

    /// An Int numeral where a Real is wanted becomes a Real numeral.
    fn coerce(&mut self, t: Term, want: &Sort) -> Result<Term, ParseError> {
        if *want == Sort::Real && *self.terms.sort(t) == Sort::Int {
            if let Op::Num(r, _) = self.terms.op(t) {
                let r = *r;
                return Ok(self.terms.mk(Op::Num(r, Sort::Real), &[]));
            }
            return Ok(self.terms.mk(Op::ToReal, &[t]));
        }
        Ok(t)
    }

    fn build(&mut self, op: Op, name: &str, mut args: Vec<Term>) -> Result<Term, ParseError> {
        // Mixed Int/Real arithmetic: lift the Int side to Real, as solvers do.
        let mixes = args.iter().any(|&a| *self.terms.sort(a) == Sort::Real)
            && args.iter().any(|&a| *self.terms.sort(a) == Sort::Int);
        // `/` is real division: `(/ 1 3)` with integer numerals means 1/3
        // (the usual reading of numerals in real arithmetic).
        let real_division = op == Op::Div;
        if mixes || real_division {
            for a in args.iter_mut() {
                *a = self.coerce(*a, &Sort::Real)?;
            }
        }
        self.terms.app(op, &args).map_err(|e| {
            let what = if name.is_empty() {
                e.to_string()
            } else {
                format!("{e} (in `{name}`)")
            };
            self.err(what)
        })
    }
}

/// The operator a function symbol names.
fn builtin(name: &str, arity: usize) -> Option<Op> {
    use Op::*;
    Some(match name {
        "not" => Not,
        "and" => And,
        "or" => Or,
        "xor" => Xor,
        "=>" => Implies,
        "=" => Eq,
        "distinct" => Distinct,
        "ite" => Ite,
        "bvnot" => BvNot,
        "bvneg" => BvNeg,
        "bvand" => BvAnd,
        "bvor" => BvOr,
        "bvxor" => BvXor,
        "bvnand" => BvNand,
        "bvnor" => BvNor,
        "bvxnor" => BvXnor,
        "bvadd" => BvAdd,
        "bvsub" => BvSub,
        "bvmul" => BvMul,
        "bvudiv" => BvUdiv,
        "bvurem" => BvUrem,
        "bvsdiv" => BvSdiv,
        "bvsrem" => BvSrem,
        "bvsmod" => BvSmod,
        "bvshl" => BvShl,
        "bvlshr" => BvLshr,
        "bvashr" => BvAshr,
        "ext_rotate_left" | "bvrol" => BvRol,
        "ext_rotate_right" | "bvror" => BvRor,
        "concat" => Concat,
        "bvcomp" => BvComp,
        "bvult" => BvUlt,
        "bvule" => BvUle,
        "bvugt" => BvUgt,
        "bvuge" => BvUge,
        "bvslt" => BvSlt,
        "bvsle" => BvSle,
        "bvsgt" => BvSgt,
        "bvsge" => BvSge,
        "bvredand" => BvRedAnd,
        "bvredor" => BvRedOr,
        "bvredxor" => BvRedXor,
        "bvuaddo" => BvUaddo,
        "bvsaddo" => BvSaddo,
        "bvusubo" => BvUsubo,
        "bvssubo" => BvSsubo,
        "bvumulo" => BvUmulo,
        "bvsmulo" => BvSmulo,
        "bvsdivo" => BvSdivo,
        "-" if arity == 1 => Neg,
        "+" => Add,
        "-" => Sub,
        "*" => Mul,
        "/" => Div,
        "div" => IntDiv,
        "mod" => Mod,
        "abs" => Abs,
        "<=" => Le,
        "<" => Lt,
        ">=" => Ge,
        ">" => Gt,
        "to_real" => ToReal,
        "to_int" => ToInt,
        "is_int" => IsInt,
        "select" => Select,
        "store" => Store,
        _ => return None,
    })
}

/// Reads an SMT-LIB script command by command, for a solver to act on.
pub struct ScriptReader<'a, 't> {
    parser: Parser<'a, 't>,
}

impl<'a, 't> ScriptReader<'a, 't> {
    /// A reader of `text` (from `file`, for messages) building into `terms`.
    pub fn new(file: &'a str, text: &'a str, terms: &'t mut Terms) -> ScriptReader<'a, 't> {
        ScriptReader {
            parser: Parser::new(file, text, terms, true),
        }
    }

    /// The next command, or `None` at the end of the text.
    pub fn next_command(&mut self) -> Result<Option<Command>, ParseError> {
        let p = &mut self.parser;
        match p.next()? {
            None => Ok(None),
            Some(Token::Open) => p.command_of_script().map(Some),
            Some(tok) => Err(p.err(format!(
                "expected `(` to start a command, found {}",
                show(tok)
            ))),
        }
    }

    /// The term store.
    pub fn terms(&self) -> &Terms {
        self.parser.terms
    }

    /// The term store, to build terms in (the script's own stay as read).
    pub fn terms_mut(&mut self) -> &mut Terms {
        self.parser.terms
    }

    /// The constants declared so far and still in scope, in order.
    pub fn declared(&self) -> Vec<Term> {
        let p = &self.parser;
        (p.script.declared.iter().copied())
            .filter(|&t| {
                let name = p.terms.var_name(t).unwrap_or("");
                matches!(p.globals.get(name), Some(Binding::Term(u)) if *u == t)
            })
            .collect()
    }

    /// The line the reader is at.
    pub fn line(&self) -> usize {
        self.parser.lex.line
    }
}
