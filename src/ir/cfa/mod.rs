//! Control-flow automata: locations and edges labelled with guarded commands,
//! an initial and an error location. The C front end lowers programs into
//! this form; large-block encoding ([`lbe`]) compresses it; [`encode`]
//! turns it into a transition system.

pub mod affine;
pub mod encode;
pub mod lbe;
pub mod liveness;

use crate::ir::term::{Term, Terms};
use std::fmt;

/// A location.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc(pub u32);

/// A guarded command over the program variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// Blocks unless the Bool term holds.
    Assume(Term),
    /// Assigns the term's value to the variable.
    Assign(Term, Term),
    /// Gives the variable an arbitrary value.
    Havoc(Term),
    /// Runs the commands one after the other.
    Seq(Vec<Command>),
    /// Runs one of the commands, chosen nondeterministically.
    Choice(Vec<Command>),
}

impl Command {
    /// The commands run one after the other: a sequence's parts, or the
    /// command alone.
    pub fn into_sequence(self) -> Vec<Command> {
        match self {
            Command::Seq(v) => v,
            other => vec![other],
        }
    }

    /// `a ; b`, flattening nested sequences.
    pub fn then(self, next: Command) -> Command {
        let mut parts = self.into_sequence();
        parts.extend(next.into_sequence());
        Command::Seq(parts)
    }

    /// `a [] b`, flattening nested choices.
    pub fn or(self, other: Command) -> Command {
        let mut parts = match self {
            Command::Choice(v) => v,
            c => vec![c],
        };
        match other {
            Command::Choice(v) => parts.extend(v),
            c => parts.push(c),
        }
        Command::Choice(parts)
    }
}

/// An edge: from, command, to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The source location.
    pub from: Loc,
    /// The command executed along the edge.
    pub command: Command,
    /// The target location.
    pub to: Loc,
}

/// A control-flow automaton.
#[derive(Clone, Debug, Default)]
pub struct Cfa {
    /// The store of the commands' terms.
    pub terms: Terms,
    /// Program variables (Bool, bit-vector or Int variables of `terms`).
    pub vars: Vec<Term>,
    /// A label per location (for example its source line), for printing.
    pub labels: Vec<String>,
    /// The edges.
    pub edges: Vec<Edge>,
    /// Where execution starts.
    pub init: Loc,
    /// The location whose reachability is the property's violation.
    pub error: Loc,
}

impl Cfa {
    /// Adds a location with a label.
    pub fn add_location(&mut self, label: impl Into<String>) -> Loc {
        self.labels.push(label.into());
        Loc(self.labels.len() as u32 - 1)
    }

    /// Adds an edge.
    pub fn add_edge(&mut self, from: Loc, command: Command, to: Loc) {
        self.edges.push(Edge { from, command, to });
    }

    /// The locations that some edge touches, plus the initial and error ones.
    pub fn live_locations(&self) -> Vec<Loc> {
        let mut live = vec![false; self.labels.len()];
        for l in [self.init, self.error] {
            if let Some(slot) = live.get_mut(l.0 as usize) {
                *slot = true;
            }
        }
        for e in &self.edges {
            live[e.from.0 as usize] = true;
            live[e.to.0 as usize] = true;
        }
        (0..live.len() as u32)
            .filter(|&i| live[i as usize])
            .map(Loc)
            .collect()
    }
}

impl Cfa {
    /// The automaton in Graphviz dot: live locations labelled with their
    /// source lines (initial bold, error red), edges with their commands.
    pub fn to_dot(&self, title: &str) -> String {
        let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut out = format!("digraph \"{}\" {{\n  node [shape=circle];\n", quote(title));
        for l in self.live_locations() {
            let style = if l == self.init {
                ", style=bold"
            } else if l == self.error {
                ", color=red, shape=doublecircle"
            } else {
                ""
            };
            let label = quote(&self.labels[l.0 as usize]);
            out += &format!("  L{} [label=\"L{}\\n{label}\"{style}];\n", l.0, l.0);
        }
        for e in &self.edges {
            let command = quote(&Show(&self.terms, &e.command).to_string());
            out += &format!("  L{} -> L{} [label=\"{command}\"];\n", e.from.0, e.to.0);
        }
        out + "}\n"
    }
}

struct Show<'a>(&'a Terms, &'a Command);

impl fmt::Display for Show<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let printer = crate::ir::term::print::Printer::new(self.0);
        match self.1 {
            Command::Assume(t) => write!(f, "assume {}", printer.term(*t)),
            Command::Assign(x, e) => write!(f, "{} := {}", printer.term(*x), printer.term(*e)),
            Command::Havoc(x) => write!(f, "havoc {}", printer.term(*x)),
            Command::Seq(v) => {
                let parts: Vec<String> = v.iter().map(|c| Show(self.0, c).to_string()).collect();
                write!(f, "{}", parts.join("; "))
            }
            Command::Choice(v) => {
                let parts: Vec<String> =
                    v.iter().map(|c| format!("({})", Show(self.0, c))).collect();
                write!(f, "{}", parts.join(" [] "))
            }
        }
    }
}

impl fmt::Display for Cfa {
    /// One line per edge: `from -> to: command`, then the initial and error locations.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let locs = self.live_locations();
        writeln!(
            f,
            "cfa: {} locations, {} edges",
            locs.len(),
            self.edges.len()
        )?;
        writeln!(
            f,
            "init L{} ({}), error L{}",
            self.init.0, self.labels[self.init.0 as usize], self.error.0
        )?;
        for e in &self.edges {
            writeln!(
                f,
                "L{} -> L{}: {}",
                e.from.0,
                e.to.0,
                Show(&self.terms, &e.command)
            )?;
        }
        Ok(())
    }
}
