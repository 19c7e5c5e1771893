//! Domain restriction (Su et al., "Accelerate IC3 with Efficient SAT
//! Solving", the GipSAT solver of rIC3): a query decides and propagates only
//! inside the cone of influence of what it asks.
//!
//! A variable added with [`Core::add_definition`](super::Core) is a gate: the
//! clauses that define it mention only it and its fanins (its
//! dependencies), and for every value of the fanins some value of the gate
//! satisfies them. Every other clause (lemmas, constraints, units) is
//! *fixed*: its variables and their cones are always in the domain. A
//! query's domain is the fixed set plus the cone of its roots (assumptions
//! and the temporary clause). Outside the domain there are only gates nobody
//! in the domain depends on and free variables nothing in the domain
//! mentions, so any assignment of the domain that satisfies its clauses
//! extends to a model by evaluating those gates in topological order:
//! restricting the search is exact, and a query on a large circuit costs
//! the size of its cone.
//!
//! Learnt clauses are implied by the others and need no care; variables
//! outside the domain are simply never assigned above level 0.

/// The dependency graph and the current query's domain.
#[derive(Default)]
pub struct Domain {
    /// `deps[v]`: range of `v`'s fanins in `pool` (empty: not a gate).
    deps: Vec<(u32, u32)>,
    pool: Vec<u32>,
    /// Gates with at least one dependency recorded.
    gates: usize,
    /// Variables always in the domain (closed under dependencies).
    fixed: Vec<bool>,
    fixed_list: Vec<u32>,
    /// How much of `fixed_list` the current domain holds.
    fixed_in_domain: usize,
    /// `stamp[v] == epoch`: `v` is in the current domain.
    stamp: Vec<u32>,
    epoch: u32,
    /// The current domain's variables.
    vars: Vec<u32>,
    /// Whether the current query is restricted.
    active: bool,
    /// Whether the domain is kept across queries (see [`Domain::pin`]).
    pinned: bool,
    /// Scratch stack for cone traversals.
    stack: Vec<u32>,
    /// The gate [`Domain::define`] saw last; its fanins are marked with
    /// `mark_epoch` in `mark`.
    defining: Option<u32>,
    mark: Vec<u32>,
    mark_epoch: u32,
}

impl Domain {
    /// Makes room for variable `v`.
    pub fn grow(&mut self, v: u32) {
        let n = v as usize + 1;
        if self.deps.len() < n {
            self.deps.resize(n, (0, 0));
            self.fixed.resize(n, false);
            self.stamp.resize(n, 0);
            self.mark.resize(n, 0);
        }
    }

    /// Records that gate `v` depends on `fanins` (added to earlier ones).
    ///
    /// Linear in the new fanins: a gate is defined by a few clauses in a row
    /// (a wide AND by one per input), so the fanins of the gate defined last
    /// are marked and its list, kept at the end of the pool, grows in place.
    pub fn define(&mut self, v: u32, fanins: impl Iterator<Item = u32>) {
        if self.defining != Some(v) {
            self.defining = Some(v);
            self.mark_epoch = self.mark_epoch.wrapping_add(1);
            if self.mark_epoch == 0 {
                self.mark.iter_mut().for_each(|m| *m = 0);
                self.mark_epoch = 1;
            }
            let (start, len) = self.deps[v as usize];
            if start + len != self.pool.len() as u32 {
                // Move the list to the end of the pool, where it can grow.
                let new_start = self.pool.len() as u32;
                self.pool
                    .extend_from_within(start as usize..(start + len) as usize);
                self.deps[v as usize] = (new_start, len);
            }
            for k in self.pool.len() - len as usize..self.pool.len() {
                let f = self.pool[k];
                self.mark[f as usize] = self.mark_epoch;
            }
        }
        let before = self.deps[v as usize].1;
        let mut added = Vec::new();
        for f in fanins {
            if f != v && self.mark[f as usize] != self.mark_epoch {
                self.mark[f as usize] = self.mark_epoch;
                self.pool.push(f);
                added.push(f);
            }
        }
        if added.is_empty() {
            return;
        }
        if before == 0 {
            self.gates += 1;
        }
        self.deps[v as usize].1 += added.len() as u32;
        if self.fixed[v as usize] {
            self.fix(added.into_iter());
        }
    }

    /// Whether any gate is known: only then do queries restrict.
    pub fn has_gates(&self) -> bool {
        self.gates > 0
    }

    /// Adds variables (and their cones) to the fixed part.
    pub fn fix(&mut self, vars: impl Iterator<Item = u32>) {
        self.stack.clear();
        for v in vars {
            if !self.fixed[v as usize] {
                self.fixed[v as usize] = true;
                self.fixed_list.push(v);
                self.stack.push(v);
            }
        }
        while let Some(v) = self.stack.pop() {
            let (start, len) = self.deps[v as usize];
            for k in start..start + len {
                let d = self.pool[k as usize];
                if !self.fixed[d as usize] {
                    self.fixed[d as usize] = true;
                    self.fixed_list.push(d);
                    self.stack.push(d);
                }
            }
        }
    }

    /// Starts a restricted query whose domain is the fixed part and the cone
    /// of `roots`; a pinned domain is kept and only extended by the roots.
    pub fn start(&mut self, roots: impl Iterator<Item = u32>) {
        self.active = true;
        if !self.pinned {
            self.epoch = self.epoch.wrapping_add(1);
            if self.epoch == 0 {
                self.stamp.iter_mut().for_each(|s| *s = 0);
                self.epoch = 1;
            }
            self.vars.clear();
            self.fixed_in_domain = 0;
        }
        // Fixed variables are closed under dependencies: stamping suffices.
        // (A pinned domain takes in the ones fixed since, such as the
        // variables of a lemma added while the domain was pinned.)
        for i in self.fixed_in_domain..self.fixed_list.len() {
            let v = self.fixed_list[i];
            if self.stamp[v as usize] != self.epoch {
                self.stamp[v as usize] = self.epoch;
                self.vars.push(v);
            }
        }
        self.fixed_in_domain = self.fixed_list.len();
        self.add_cones(roots);
    }

    fn add_cones(&mut self, roots: impl Iterator<Item = u32>) {
        self.stack.clear();
        for v in roots {
            if self.stamp[v as usize] != self.epoch {
                self.stamp[v as usize] = self.epoch;
                self.vars.push(v);
                self.stack.push(v);
            }
        }
        while let Some(v) = self.stack.pop() {
            let (start, len) = self.deps[v as usize];
            for k in start..start + len {
                let d = self.pool[k as usize];
                if self.stamp[d as usize] != self.epoch {
                    self.stamp[d as usize] = self.epoch;
                    self.vars.push(d);
                    self.stack.push(d);
                }
            }
        }
    }

    /// Makes the fixed part and the cone of `roots` the domain of the
    /// queries that follow, until [`Domain::unpin`]; each of them still adds
    /// its own roots' cones, so a pinned domain is never too small, only
    /// perhaps larger than needed. (IC3 pins the cone of a cube while it
    /// drops literals from it: every smaller cube's cone lies inside.)
    pub fn pin(&mut self, roots: impl Iterator<Item = u32>) {
        self.pinned = false;
        self.start(roots);
        self.active = false;
        self.pinned = true;
    }

    /// Ends [`Domain::pin`].
    pub fn unpin(&mut self) {
        self.pinned = false;
    }

    /// Adds a variable made during the current query to its domain.
    pub fn include(&mut self, v: u32) {
        if self.stamp[v as usize] != self.epoch {
            self.stamp[v as usize] = self.epoch;
            self.vars.push(v);
        }
    }

    /// Ends the current query's restriction.
    pub fn stop(&mut self) {
        self.active = false;
    }

    /// Whether `v` is a gate: its value follows from its fanins' by
    /// propagation through its definition.
    #[inline]
    pub fn is_gate(&self, v: u32) -> bool {
        self.deps.get(v as usize).is_some_and(|(a, b)| a != b)
    }

    /// Whether the current query is restricted.
    #[inline]
    pub fn restricts(&self) -> bool {
        self.active
    }

    /// Whether `v` is in the current domain.
    #[inline]
    pub fn has(&self, v: u32) -> bool {
        self.stamp[v as usize] == self.epoch
    }

    /// The current domain's variables.
    pub fn vars(&self) -> &[u32] {
        &self.vars
    }
}
