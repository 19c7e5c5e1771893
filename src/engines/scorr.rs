//! Signal correspondence as a prover: when the equalities that
//! [`crate::preprocess::scorr`] proves inductive together make the bad
//! property constantly false, they are the proof (van Eijk, TCAD 2000;
//! Mishchenko et al., ICCAD 2008). HWMCC's industrial circuits (`cal226`,
//! `cal228`, `cal229`) reduce to nothing this way, while IC3 and
//! interpolation find no invariant in minutes: their invariants are
//! thousands of equalities between gates, which clauses over latches state
//! badly.
//!
//! The proof is the equalities; the invariant they make is stated over the
//! checked model's own gates (an equality between gates may read the
//! current input) and checked apart from this engine through its witness
//! circuit (`check::certificate`). Under
//! invariant constraints it holds where they do, which is what the
//! witness checks assume (Certifaiger's C_W in every frame).

use super::{interrupted_reason, Limits, Outcome, Proof, Stats, Verdict};
use crate::ir::aig::Aig;
use crate::preprocess::scorr::correspondence;
use std::time::Instant;

/// Proves the property by signal correspondence, or says why not.
pub fn check(aig: &Aig, limits: &Limits) -> Outcome {
    if let Some(outcome) = super::sabotaged_outcome(super::EngineId::Scorr, limits.backend) {
        return outcome;
    }
    let start = Instant::now();
    let verdict = match correspondence(aig, &limits.budget) {
        None => Verdict::Unknown(interrupted_reason(&limits.budget)),
        Some(c) if c.is_false(aig.bad[0]) => Verdict::Safe(Proof::Correspondence(c.repr)),
        Some(c) => Verdict::Unknown(format!(
            "signal correspondence proved {} equalities ({} of latches) in {} rounds; \
             the property is not among them",
            c.stats.proved, c.stats.latches, c.stats.rounds
        )),
    };
    let stats = Stats {
        time: start.elapsed(),
        ..Stats::default()
    };
    let outcome = Outcome {
        verdict,
        engine: super::EngineId::Scorr,
        // Its SAT checks run on invar's core: the proof's check must not.
        backend: crate::sat::Backend::Core,
        stats,
    };
    super::sabotage(aig, outcome)
}
