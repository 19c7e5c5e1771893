//! Cubes: conjunctions of state literals, the currency of IC3.

/// A literal over a state variable: a latch index and the value it asserts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateLit(u32);

impl StateLit {
    /// The literal "latch `latch` has value `value`".
    pub fn new(latch: usize, value: bool) -> StateLit {
        StateLit((latch as u32) << 1 | !value as u32)
    }
    /// The latch index.
    pub fn latch(self) -> usize {
        (self.0 >> 1) as usize
    }
    /// The value the literal asserts.
    pub fn value(self) -> bool {
        self.0 & 1 == 0
    }
}

/// A conjunction of state literals, sorted by latch, at most one per latch,
/// with a 64-bit signature for fast subset rejection (as ABC's `Pdr_Set_t`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cube {
    lits: Vec<StateLit>,
    signature: u64,
}

impl Cube {
    /// A cube of `lits` (sorted here; no latch may appear twice).
    pub fn new(mut lits: Vec<StateLit>) -> Cube {
        lits.sort_unstable();
        debug_assert!(lits.windows(2).all(|w| w[0].latch() != w[1].latch()));
        let signature = lits.iter().fold(0u64, |s, l| s | 1u64 << (l.latch() % 64));
        Cube { lits, signature }
    }

    /// The cube fixing every atom to its value in `values` (atom i to
    /// `values[i]`): a whole state or valuation.
    pub fn from_values(values: &[bool]) -> Cube {
        Cube::new(
            (values.iter().enumerate())
                .map(|(i, &v)| StateLit::new(i, v))
                .collect(),
        )
    }

    /// The literals ordered most active first (by `activity` per atom), so
    /// that a solver's core over them prefers atoms lemmas already use.
    pub fn by_activity(&self, activity: &[f64]) -> Vec<StateLit> {
        let mut lits = self.lits.clone();
        lits.sort_by(|a, b| activity[b.latch()].total_cmp(&activity[a.latch()]));
        lits
    }

    /// The literals, sorted by latch.
    pub fn lits(&self) -> &[StateLit] {
        &self.lits
    }

    /// Number of literals.
    pub fn len(&self) -> usize {
        self.lits.len()
    }

    /// Whether the cube has no literal (it then contains every state).
    pub fn is_empty(&self) -> bool {
        self.lits.is_empty()
    }

    /// Whether every literal of `self` is in `other`: then the clause `¬self`
    /// subsumes the clause `¬other`.
    pub fn is_subset_of(&self, other: &Cube) -> bool {
        if self.signature & !other.signature != 0 || self.len() > other.len() {
            return false;
        }
        let mut j = 0;
        for l in &self.lits {
            while j < other.lits.len() && other.lits[j] < *l {
                j += 1;
            }
            if j == other.lits.len() || other.lits[j] != *l {
                return false;
            }
            j += 1;
        }
        true
    }

    /// The cube without the literal on `latch`.
    pub fn without(&self, latch: usize) -> Cube {
        Cube::new(
            self.lits
                .iter()
                .copied()
                .filter(|l| l.latch() != latch)
                .collect(),
        )
    }

    /// Whether the cube has a literal on `latch`.
    pub fn has_latch(&self, latch: usize) -> bool {
        self.lits
            .binary_search_by_key(&latch, |l| l.latch())
            .is_ok()
    }

    /// Whether some initial state lies in the cube, given every latch's reset
    /// value (`None`: uninitialised, any value).
    pub fn intersects_init(&self, init: &[Option<bool>]) -> bool {
        self.lits
            .iter()
            .all(|l| init[l.latch()].is_none_or(|v| v == l.value()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(lits: &[(usize, bool)]) -> Cube {
        Cube::new(lits.iter().map(|&(l, v)| StateLit::new(l, v)).collect())
    }

    #[test]
    fn subset_respects_polarity_and_signature() {
        let a = cube(&[(1, true), (70, false)]);
        let b = cube(&[(70, false), (3, true), (1, true)]);
        assert!(a.is_subset_of(&b));
        assert!(!b.is_subset_of(&a));
        assert!(!cube(&[(1, false)]).is_subset_of(&b));
        assert!(cube(&[]).is_subset_of(&a));
    }

    #[test]
    fn init_intersection() {
        let init = [Some(false), None, Some(true)];
        assert!(cube(&[(0, false), (1, true)]).intersects_init(&init));
        assert!(!cube(&[(0, true)]).intersects_init(&init));
        assert!(cube(&[(2, true), (1, false)]).intersects_init(&init));
        assert_eq!(
            cube(&[(2, true), (1, false)]).without(2),
            cube(&[(1, false)])
        );
    }
}
