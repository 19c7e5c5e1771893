//! Frames as delta-encoded clause sets: a lemma at level i belongs to every
//! frame F_1..F_i; F_0 is the initial states.

use super::cube::Cube;

/// The lemmas of each level; `levels[0]` stays empty (F_0 is Init).
#[derive(Default)]
pub struct Frames {
    levels: Vec<Vec<Cube>>,
}

impl Frames {
    /// Frames F_0 and F_1, both without lemmas.
    pub fn new() -> Frames {
        Frames {
            levels: vec![Vec::new(), Vec::new()],
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
        dropped
    }

    /// Removes and returns the lemmas of `level` (for propagation).
    pub fn take(&mut self, level: usize) -> Vec<Cube> {
        std::mem::take(&mut self.levels[level])
    }

    /// Puts lemmas back at `level` without subsumption checks.
    pub fn put_back(&mut self, level: usize, cubes: Vec<Cube>) {
        self.levels[level].extend(cubes);
    }

    /// Whether a lemma at `level` or above already excludes `cube`.
    pub fn blocks(&self, cube: &Cube, level: usize) -> bool {
        self.levels[level..]
            .iter()
            .flatten()
            .any(|c| c.is_subset_of(cube))
    }

    /// The lemmas of levels `from..`, which form an inductive invariant once
    /// level `from - 1` is empty.
    pub fn lemmas_from(&self, from: usize) -> Vec<Cube> {
        self.levels[from..].iter().flatten().cloned().collect()
    }

    /// Number of lemmas per level, for statistics.
    pub fn sizes(&self) -> Vec<usize> {
        self.levels.iter().map(Vec::len).collect()
    }
}
