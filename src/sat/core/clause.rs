//! The clause arena and database.
//!
//! Clauses live in one `Vec<u32>` (a header of [`HEADER`] words, then the
//! literal codes), addressed by [`CRef`] offsets, so that propagation reads a
//! clause from one contiguous block instead of chasing a pointer per clause.
//! Deleted clauses leave holes that [`ClauseDb::collect`] compacts once they
//! are a large share of the arena.

use crate::sat::Lit;

/// The offset of a clause in the arena.
pub type CRef = u32;

/// No clause (the reason of a decision, an assumption or a level-0 fact).
pub const CREF_NONE: CRef = u32::MAX;

/// Words before the literals: length, flags with the LBD, activity bits.
const HEADER: usize = 3;

/// Learnt by conflict analysis (may be deleted by reduction).
pub const LEARNT: u32 = 1;
/// Removed; its watches are being cleaned away.
pub const DELETED: u32 = 2;
/// Belongs to the current query only (the temporary clause, or learnt from it).
pub const TEMPORARY: u32 = 4;

/// Every clause of a solver.
#[derive(Default)]
pub struct ClauseDb {
    arena: Vec<u32>,
    /// Words in the arena that belong to deleted clauses.
    wasted: usize,
    /// Problem clauses (kept for ever).
    pub original: Vec<CRef>,
    /// Learnt clauses that may be reduced.
    pub learnt: Vec<CRef>,
    /// Clauses to delete when the current query ends.
    pub temporary: Vec<CRef>,
}

impl ClauseDb {
    /// Stores a clause of at least two literals.
    pub fn alloc(&mut self, lits: &[Lit], flags: u32) -> CRef {
        debug_assert!(lits.len() >= 2);
        let cref = self.arena.len() as CRef;
        self.arena.push(lits.len() as u32);
        self.arena.push(flags);
        self.arena.push(0f32.to_bits());
        self.arena.extend(lits.iter().map(|l| l.code() as u32));
        match () {
            _ if flags & TEMPORARY != 0 => self.temporary.push(cref),
            _ if flags & LEARNT != 0 => self.learnt.push(cref),
            _ => self.original.push(cref),
        }
        cref
    }

    /// Number of literals.
    #[inline]
    pub fn len(&self, c: CRef) -> usize {
        self.arena[c as usize] as usize
    }

    /// Literal `i` of clause `c`.
    #[inline]
    pub fn lit(&self, c: CRef, i: usize) -> Lit {
        Lit::from_code(self.arena[c as usize + HEADER + i])
    }

    /// Swaps literals `i` and `j` of clause `c`.
    #[inline]
    pub fn swap(&mut self, c: CRef, i: usize, j: usize) {
        let base = c as usize + HEADER;
        self.arena.swap(base + i, base + j);
    }

    /// Whether `flag` is set.
    #[inline]
    pub fn has(&self, c: CRef, flag: u32) -> bool {
        self.arena[c as usize + 1] & flag != 0
    }

    /// Sets `flag`.
    pub fn set(&mut self, c: CRef, flag: u32) {
        self.arena[c as usize + 1] |= flag;
    }

    /// The literal block distance recorded at learning (0 for problem clauses).
    #[inline]
    pub fn lbd(&self, c: CRef) -> u32 {
        self.arena[c as usize + 1] >> 8
    }

    /// Records the literal block distance.
    pub fn set_lbd(&mut self, c: CRef, lbd: u32) {
        let w = &mut self.arena[c as usize + 1];
        *w = (*w & 0xff) | lbd.min(0xff_ffff) << 8;
    }

    /// The activity of a learnt clause.
    #[inline]
    pub fn activity(&self, c: CRef) -> f32 {
        f32::from_bits(self.arena[c as usize + 2])
    }

    /// Sets the activity of a learnt clause.
    #[inline]
    pub fn set_activity(&mut self, c: CRef, a: f32) {
        self.arena[c as usize + 2] = a.to_bits();
    }

    /// Marks `c` deleted; its watches must be cleaned by the caller.
    pub fn delete(&mut self, c: CRef) {
        debug_assert!(!self.has(c, DELETED));
        self.set(c, DELETED);
        self.wasted += HEADER + self.len(c);
    }

    /// Whether deleted clauses take enough of the arena to compact it.
    pub fn wants_collection(&self) -> bool {
        self.wasted > 1 << 16 && self.wasted * 2 > self.arena.len()
    }

    /// Compacts the arena, dropping deleted clauses from the lists; returns
    /// the map from old to new references (`CREF_NONE` for deleted ones),
    /// applied by the caller to watches. Reasons must be cleared first.
    pub fn collect(&mut self) -> impl Fn(CRef) -> CRef {
        let mut fresh = Vec::with_capacity(self.arena.len() - self.wasted);
        let mut moved: Vec<(CRef, CRef)> = Vec::new();
        let mut c = 0usize;
        while c < self.arena.len() {
            let size = HEADER + self.arena[c] as usize;
            if self.arena[c + 1] & DELETED == 0 {
                moved.push((c as CRef, fresh.len() as CRef));
                fresh.extend_from_slice(&self.arena[c..c + size]);
            }
            c += size;
        }
        self.arena = fresh;
        self.wasted = 0;
        // `moved` is sorted by old reference: look references up by binary search.
        let remap = move |old: CRef| match moved.binary_search_by_key(&old, |&(o, _)| o) {
            Ok(i) => moved[i].1,
            Err(_) => CREF_NONE,
        };
        for list in [&mut self.original, &mut self.learnt, &mut self.temporary] {
            list.retain_mut(|c| {
                *c = remap(*c);
                *c != CREF_NONE
            });
        }
        remap
    }
}
