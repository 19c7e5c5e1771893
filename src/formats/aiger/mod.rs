//! AIGER 1.9: the file-level model, its reader and writer, and the map to the AIG IR.
//!
//! [`Aiger`] mirrors a file faithfully (literal numbers, order of gates,
//! symbols and comments), so a read–write round trip keeps everything; the
//! engines work on the [`crate::ir::aig::Aig`] built by [`Aiger::to_aig`].
//! Format reference: the `FORMAT` file and `aiger.c` of the AIGER tools
//! (v1.9), and "AIGER 1.9 and beyond" (Biere, Heljanko, Wieringa, 2011).

mod convert;
mod read;
mod write;

pub use read::{read_bytes, read_file};
pub use write::{write_ascii, write_binary};

/// The reset value of a latch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reset {
    /// Starts at 0 (the default when the reset is omitted).
    Zero,
    /// Starts at 1.
    One,
    /// Starts at any value (written as the latch's own literal).
    Uninitialized,
    /// A reset function (AIGER 1.9.23): the latch starts at the value of
    /// this literal (an input, another latch or a gate) in the first state,
    /// under the first step's inputs. The reader accepts only stratified
    /// resets (no latch's reset depends on itself through other resets).
    Function(u32),
}

/// A latch line: current-state literal, next-state literal and reset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AigerLatch {
    /// The even literal that reads the latch.
    pub lit: u32,
    /// The next-state literal.
    pub next: u32,
    /// The reset value.
    pub reset: Reset,
}

/// An AND gate line: `lhs = rhs0 & rhs1`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AigerAnd {
    /// The even literal defined by this gate.
    pub lhs: u32,
    /// First operand.
    pub rhs0: u32,
    /// Second operand.
    pub rhs1: u32,
}

/// The section a symbol names an entry of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    /// `i`
    Input,
    /// `l`
    Latch,
    /// `o`
    Output,
    /// `b`
    Bad,
    /// `c`
    Constraint,
    /// `j`
    Justice,
    /// `f`
    Fairness,
}

impl SymbolKind {
    /// The letter that starts a symbol line of this kind.
    pub fn letter(self) -> char {
        match self {
            SymbolKind::Input => 'i',
            SymbolKind::Latch => 'l',
            SymbolKind::Output => 'o',
            SymbolKind::Bad => 'b',
            SymbolKind::Constraint => 'c',
            SymbolKind::Justice => 'j',
            SymbolKind::Fairness => 'f',
        }
    }

    fn from_letter(c: u8) -> Option<SymbolKind> {
        Some(match c {
            b'i' => SymbolKind::Input,
            b'l' => SymbolKind::Latch,
            b'o' => SymbolKind::Output,
            b'b' => SymbolKind::Bad,
            b'c' => SymbolKind::Constraint,
            b'j' => SymbolKind::Justice,
            b'f' => SymbolKind::Fairness,
            _ => return None,
        })
    }
}

/// A symbol-table entry: a name for one position of one section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The section.
    pub kind: SymbolKind,
    /// 0-based position in the section.
    pub pos: usize,
    /// The name (may contain spaces).
    pub name: String,
}

/// An AIGER 1.9 file as read: every section, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aiger {
    /// The maximal variable index M.
    pub maxvar: u32,
    /// Input literals.
    pub inputs: Vec<u32>,
    /// Latches.
    pub latches: Vec<AigerLatch>,
    /// Output literals.
    pub outputs: Vec<u32>,
    /// Bad-state literals.
    pub bad: Vec<u32>,
    /// Invariant-constraint literals.
    pub constraints: Vec<u32>,
    /// Justice properties, each a list of literals.
    pub justice: Vec<Vec<u32>>,
    /// Fairness literals.
    pub fairness: Vec<u32>,
    /// AND gates in file order.
    pub ands: Vec<AigerAnd>,
    /// The symbol table, in file order.
    pub symbols: Vec<Symbol>,
    /// Comment lines (after the `c` line), without line ends.
    pub comments: Vec<String>,
}

/// The kind of a property a witness or verdict refers to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PropertyKind {
    /// A bad-state property `b<i>` (also outputs read as bad when B = 0).
    Bad,
    /// A justice property `j<i>`.
    Justice,
}

impl Aiger {
    /// The literals checked as bad-state properties: the `B` section, or the
    /// outputs when a pre-1.9 file has neither bad nor justice properties.
    pub fn bad_properties(&self) -> &[u32] {
        if self.bad.is_empty() && self.justice.is_empty() {
            &self.outputs
        } else {
            &self.bad
        }
    }

    /// Gate indices in an order where every gate comes after the gates it reads.
    ///
    /// WARNING: assumes the file was validated by the reader (no cycles).
    pub fn topological_ands(&self) -> Vec<usize> {
        let mut gate_of = vec![u32::MAX; self.maxvar as usize + 1];
        for (i, g) in self.ands.iter().enumerate() {
            gate_of[(g.lhs >> 1) as usize] = i as u32;
        }
        let mut done = vec![false; self.ands.len()];
        let mut order = Vec::with_capacity(self.ands.len());
        let mut stack: Vec<(usize, bool)> = Vec::new();
        for root in 0..self.ands.len() {
            stack.push((root, false));
            while let Some((g, expanded)) = stack.pop() {
                if done[g] {
                    continue;
                }
                if expanded {
                    done[g] = true;
                    order.push(g);
                    continue;
                }
                stack.push((g, true));
                for rhs in [self.ands[g].rhs0, self.ands[g].rhs1] {
                    let child = gate_of[(rhs >> 1) as usize];
                    if child != u32::MAX && !done[child as usize] {
                        stack.push((child as usize, false));
                    }
                }
            }
        }
        order
    }

    /// The name given to position `pos` of section `kind`, if any.
    pub fn symbol(&self, kind: SymbolKind, pos: usize) -> Option<&str> {
        self.symbols
            .iter()
            .find(|s| s.kind == kind && s.pos == pos)
            .map(|s| s.name.as_str())
    }
}
