//! Certificates of checked proofs, in forms others can check: a
//! Certifaiger witness circuit for a circuit's proof (`check::certificate`
//! builds and checks them), and for a word-level model (or a C program's
//! encoding) an inductive invariant over its state variables, written as
//! the model in VMT followed by `(define-fun invar-certificate …)`.

use super::Evidence;
use crate::bitblast::Blasted;
use crate::check::{certificate, smt_proof};
use crate::ir::aig::{Aig, Lit};
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::ts::Ts;

/// The certificate of a proof.
#[derive(Clone, Debug)]
pub enum Certificate {
    /// A Certifaiger witness circuit for the circuit's proof.
    Circuit(Box<Aig>),
    /// An inductive invariant of the word-level model: a term of `store`
    /// (the model's terms, extended) over its state variables.
    System {
        /// The terms.
        store: Box<Terms>,
        /// The invariant.
        invariant: Term,
    },
}

/// Why a proof has no certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoCertificate {
    /// The proof has no certificate form: word-level k-induction, k-induction
    /// with simple paths, or a circuit proof of a blasted word-level model.
    Unsupported,
    /// Building it failed, and why.
    Failed(String),
}

impl Certificate {
    /// The text of a word-level certificate: `ts` as VMT, then the
    /// certificate function over its states (`invar certify` checks it; so
    /// can any SMT solver). `None` for a circuit.
    pub fn system_text(&self, ts: &Ts) -> Option<String> {
        let Certificate::System { store, invariant } = self else {
            return None;
        };
        let mut out = crate::formats::vmt::write(ts);
        out += "; the invariant over the state variables, in the order of their :next\n";
        out += &smt_proof::certificate_function(ts, store, *invariant);
        Some(out)
    }
}

/// The witness circuit of a proof of "no `bad`" on the circuit `full`
/// (the proof is over `full` with its reset functions lowered, as the
/// engines saw it). The witness is built on the lowered circuit, and its
/// first latches, the model's, get the model's reset functions back: where
/// the model starts, the witness starts (Certifaiger's reset check), and
/// the lowering's constraint holds there.
pub(super) fn of_circuit(
    full: &Aig,
    bad: &[Lit],
    evidence: &Evidence,
) -> Result<Certificate, NoCertificate> {
    let lowered = full.without_resets();
    let mut witness = match evidence {
        Evidence::Invariant(cubes) => certificate::witness_from_invariant(&lowered, bad, cubes),
        Evidence::KInduction {
            k,
            simple_path: false,
            lemmas,
        } => certificate::witness_from_kinduction(&lowered, bad, *k, lemmas),
        Evidence::Circuit(inv) => certificate::witness_from_circuit(&lowered, bad, inv),
        _ => return Err(NoCertificate::Unsupported),
    };
    for (w, m) in witness.latches.iter_mut().zip(&full.latches) {
        if m.reset.is_some() {
            (w.init, w.reset) = (None, m.reset);
        }
    }
    Ok(Certificate::Circuit(Box::new(witness)))
}

/// The invariant of a proof of the word-level model `ts`; `blasted` is its
/// bit-blasting, when the proof is over that circuit.
pub(super) fn of_system(
    ts: &Ts,
    blasted: Option<&Blasted>,
    evidence: &Evidence,
) -> Result<Certificate, NoCertificate> {
    match (evidence, blasted) {
        (
            Evidence::WordInvariant {
                store, invariant, ..
            },
            _,
        ) => Ok(Certificate::System {
            store: store.clone(),
            invariant: *invariant,
        }),
        (Evidence::Invariant(cubes), Some(blasted)) => {
            let (store, invariant) =
                bit_invariant(ts, blasted, cubes).map_err(NoCertificate::Failed)?;
            Ok(Certificate::System {
                store: Box::new(store),
                invariant,
            })
        }
        _ => Err(NoCertificate::Unsupported),
    }
}

/// The word-level form of an invariant of `ts`'s bit-blasted circuit
/// (`cubes` over its latch positions, as [`Evidence::Invariant`] holds
/// them): each latch is one bit of a state, `((_ extract i i) x) = #b1`
/// (or the Bool state itself), and the invariant is the conjunction of the
/// cubes' negations over those bits.
///
/// The blaster's two helper latches are no state of the model. `valid`
/// (every relational transition so far held) is true on every state a
/// word-level run reaches, so it is read as true. `first` (step 0, where
/// the init relations are constraints) is read both ways: the invariant
/// is `INV[first := 0] ∨ (Init ∧ INV[first := 1])`. It is inductive: an
/// Init state meets the second disjunct (the circuit's initial states
/// include it with `first` set), and a transition from either disjunct is
/// a transition of the circuit, which lands where `first` is 0.
fn bit_invariant(
    ts: &Ts,
    blasted: &Blasted,
    cubes: &[Vec<(usize, bool)>],
) -> Result<(Terms, Term), String> {
    let mut bit_of = vec![None; blasted.aig.latches.len()];
    for (i, latches) in blasted.state_latches.iter().enumerate() {
        for (b, &l) in latches.iter().enumerate() {
            bit_of[l] = Some((i, b as u32));
        }
    }
    let mut store = ts.terms.clone();
    let bit = |store: &mut Terms, latch: usize, first: bool| -> Result<Term, String> {
        if Some(latch) == blasted.valid {
            return Ok(store.bool(true));
        }
        if Some(latch) == blasted.first {
            return Ok(store.bool(first));
        }
        let (i, b) = bit_of
            .get(latch)
            .copied()
            .flatten()
            .ok_or_else(|| format!("latch {latch} is not a bit of a state"))?;
        let var = ts.states[i].var;
        match store.sort(var).clone() {
            Sort::Bool => Ok(var),
            Sort::BitVec(_) => {
                let extracted = store.mk(Op::Extract(b, b), &[var]);
                let one = store.bv(crate::ir::bv::BvValue::from_u64(1, 1));
                Ok(store.eq(extracted, one))
            }
            other => Err(format!(
                "a state of sort {other} has no bit-level certificate"
            )),
        }
    };
    let invariant = |store: &mut Terms, first: bool| -> Result<Term, String> {
        let mut clauses = Vec::with_capacity(cubes.len());
        for cube in cubes {
            let mut negated = Vec::with_capacity(cube.len());
            for &(latch, value) in cube {
                let t = bit(store, latch, first)?;
                negated.push(if value { store.not(t) } else { t });
            }
            clauses.push(store.or_all(&negated));
        }
        Ok(store.and_all(&clauses))
    };
    let later = invariant(&mut store, false)?;
    let invariant = if blasted.first.is_some() {
        let at_first = invariant(&mut store, true)?;
        let mut init: Vec<Term> = ts.init.clone();
        for s in &ts.states {
            if let Some(value) = s.init {
                init.push(store.eq(s.var, value));
            }
        }
        init.push(at_first);
        let start = store.and_all(&init);
        store.or_all(&[later, start])
    } else {
        later
    };
    Ok((store, invariant))
}
