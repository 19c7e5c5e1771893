//! Reset functions (AIGER 1.9.23): a latch that starts at the value of a
//! literal (an input, a latch, a gate) in the first state. The engines see
//! none: [`Aig::without_resets`] lowers them to one more latch, `first`
//! (1 in the first state, 0 ever after), and one invariant constraint per
//! such latch, `first → (latch ↔ reset)`, the latch itself uninitialised.
//!
//! Why a lowering, not a richer initial state in every engine:
//! - It is exact. AIGER evaluates a reset function in the first state under
//!   the first step's inputs (aigsim checks a witness's first state that
//!   way), and constraints hold in every step, the first included; so the
//!   lowered circuit's runs are the file's runs with `first` added.
//! - IC3's initial states stay a cube of literals (`first` and the constant
//!   latches), so its initial-state test stays a literal test. It is
//!   conservative on the lowered circuit (a cube with `first` = 1 meets the
//!   cube even where the constraint rules it out), which costs nothing that
//!   matters: every state after the first has `first` = 0, which clashes
//!   with the initial cube, so the lemmas that block them keep that literal.
//! - Every engine and every preprocessing step (cone of influence, latch
//!   merging, SAT sweeping) treats constraints already, and so honours the
//!   resets without a change of its own.
//!
//! The cost: one latch, and signal correspondence, which `auto` runs only
//! without constraints, stays out. Certificates keep the reset functions
//! (`verify::certificate`): a witness circuit built on the lowered circuit,
//! its first latches given the model's reset functions back, is a
//! Certifaiger witness of the model as read.

use super::aig::{Aig, Lit};

impl Aig {
    /// Whether some latch has a reset function.
    pub fn has_resets(&self) -> bool {
        self.latches.iter().any(|l| l.reset.is_some())
    }

    /// The circuit with its reset functions lowered (see the module
    /// header): the latches keep their positions and the `first` latch comes
    /// last; a circuit without resets is returned as it is.
    pub fn without_resets(&self) -> Aig {
        let mut out = self.clone();
        if !self.has_resets() {
            return out;
        }
        let first = out.add_latch(Some(true));
        for (k, latch) in self.latches.iter().enumerate() {
            if let Some(reset) = latch.reset {
                let current = Lit::new(latch.var, false);
                let same = !out.xor(current, reset);
                let holds = out.or(!first, same);
                out.constraints.push(holds);
                out.latches[k].init = None;
                out.latches[k].reset = None;
            }
        }
        out
    }
}
