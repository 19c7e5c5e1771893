//! Frames as delta-encoded clause sets: a lemma at level i belongs to every
//! frame F_1..F_i; F_0 is the initial states. The infinite frame holds
//! lemmas proven inductive: they belong to every frame from F_1 up.

use super::cube::Cube;

/// The lemmas of each level; `levels[0]` stays empty (F_0 is Init).
#[derive(Default)]
pub struct Frames {
    levels: Vec<Vec<Cube>>,
    infinite: Vec<Cube>,
    /// The lowest level a lemma was added to since the last propagation.
    pub earliest_change: usize,
}

impl Frames {
    /// Frames F_0 and F_1, both without lemmas.
    pub fn new() -> Frames {
        Frames {
            levels: vec![Vec::new(), Vec::new()],
            infinite: Vec::new(),
            earliest_change: 1,
        }
    }

    /// The highest level (k).
    pub fn top(&self) -> usize {
        self.levels.len() - 1
    }

    /// Adds an empty level k+1.
    pub fn extend(&mut self) {
        self.levels.push(Vec::new());
    }

    /// The lemmas introduced exactly at `level`.
    pub fn at(&self, level: usize) -> &[Cube] {
        &self.levels[level]
    }

    /// Adds lemma `¬cube` at `level`, dropping the lemmas at levels `1..=level`
    /// it subsumes. Returns how many were dropped.
    pub fn add(&mut self, cube: Cube, level: usize) -> usize {
        let mut dropped = 0;
        for lemmas in &mut self.levels[1..=level] {
            let before = lemmas.len();
            lemmas.retain(|c| !cube.is_subset_of(c));
            dropped += before - lemmas.len();
        }
        self.levels[level].push(cube);
        self.earliest_change = self.earliest_change.min(level);
        dropped
    }

    /// Moves `cubes`, lemmas of the top level, to the infinite frame.
    pub fn move_to_infinite(&mut self, cubes: Vec<Cube>) {
        let top = self.top();
        self.levels[top].retain(|c| !cubes.contains(c));
        self.infinite.extend(cubes);
    }

    /// Lemmas proven inductive.
    pub fn infinite(&self) -> &[Cube] {
        &self.infinite
    }

    /// Removes and returns the lemmas of `level` (for propagation).
    pub fn take(&mut self, level: usize) -> Vec<Cube> {
        std::mem::take(&mut self.levels[level])
    }

    /// Puts lemmas back at `level` without subsumption checks.
    pub fn put_back(&mut self, level: usize, cubes: Vec<Cube>) {
        self.levels[level].extend(cubes);
    }

    /// Whether a lemma at `level` or above (or in the infinite frame) already
    /// excludes `cube`.
    pub fn blocks(&self, cube: &Cube, level: usize) -> bool {
        self.blocked_up_to(cube, level).is_some()
    }

    /// The highest level up to which a lemma at `level` or above excludes
    /// `cube` (`usize::MAX` for the infinite frame), if one does.
    pub fn blocked_up_to(&self, cube: &Cube, level: usize) -> Option<usize> {
        if self.infinite.iter().any(|c| c.is_subset_of(cube)) {
            return Some(usize::MAX);
        }
        (level..self.levels.len())
            .rev()
            .find(|&l| self.levels[l].iter().any(|c| c.is_subset_of(cube)))
    }

    /// A lemma introduced exactly at `level - 1` (so it did not propagate
    /// to `level`) that excludes `cube`: the parent of a lemma for `cube`
    /// at `level`.
    pub fn parent(&self, cube: &Cube, level: usize) -> Option<&Cube> {
        let below = level.checked_sub(1)?;
        self.levels[below].iter().find(|c| c.is_subset_of(cube))
    }

    /// The lemmas of levels `from..` and of the infinite frame: F_from, and an
    /// inductive invariant once level `from - 1` is empty.
    pub fn lemmas_from(&self, from: usize) -> Vec<Cube> {
        let lemmas = self.levels[from..].iter().flatten().chain(&self.infinite);
        lemmas.cloned().collect()
    }

    /// Number of lemmas per level, the infinite frame last, for statistics.
    pub fn sizes(&self) -> Vec<usize> {
        self.levels
            .iter()
            .map(Vec::len)
            .chain([self.infinite.len()])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::ic3::cube::StateLit;

    fn cube(lits: &[(usize, bool)]) -> Cube {
        Cube::new(lits.iter().map(|&(l, v)| StateLit::new(l, v)).collect())
    }

    #[test]
    fn infinite_lemmas_belong_to_every_frame() {
        let mut f = Frames::new();
        f.extend();
        f.add(cube(&[(0, true)]), 2);
        f.move_to_infinite(vec![cube(&[(0, true)])]);
        f.extend();
        assert!(f.at(2).is_empty());
        // A frame opened after the move still contains the lemma.
        assert_eq!(f.lemmas_from(3), vec![cube(&[(0, true)])]);
        assert!(f.blocks(&cube(&[(0, true), (1, false)]), 3));
        assert!(!f.blocks(&cube(&[(1, false)]), 1));
        assert_eq!(f.blocked_up_to(&cube(&[(0, true)]), 1), Some(usize::MAX));
        f.add(cube(&[(1, true)]), 2);
        assert_eq!(f.blocked_up_to(&cube(&[(1, true)]), 1), Some(2));
        assert_eq!(f.blocked_up_to(&cube(&[(1, true)]), 3), None);
    }

    #[test]
    fn adding_a_lemma_drops_the_ones_it_subsumes_below() {
        let mut f = Frames::new();
        f.extend();
        f.add(cube(&[(0, true), (1, true)]), 1);
        f.add(cube(&[(0, true), (2, true)]), 2);
        assert_eq!(f.add(cube(&[(0, true)]), 2), 2);
        assert_eq!(f.sizes(), vec![0, 0, 1, 0]);
        assert_eq!(f.earliest_change, 1);
    }
}
