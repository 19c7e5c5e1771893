//! Restarts on the Luby sequence (Luby, Sinclair, Zuckerman, 1993), as in
//! MiniSat: restart `k` comes after `UNIT · luby(k)` conflicts. IC3's queries
//! rarely restart at all; the long ones (deep CTG chains, SMT lemmas) do.

/// Conflicts in one unit of the sequence.
const UNIT: f64 = 100.0;

/// `luby(y, x)`: the x-th element of the Luby sequence scaled by powers of y.
fn luby(y: f64, mut x: u64) -> f64 {
    let (mut size, mut seq) = (1u64, 0i32);
    while size < x + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != x {
        size = (size - 1) >> 1;
        seq -= 1;
        x %= size;
    }
    y.powi(seq)
}

/// Where the restart schedule stands.
#[derive(Default)]
pub struct Restarts {
    count: u64,
}

impl Restarts {
    /// Conflicts allowed before the next restart.
    pub fn limit(&self) -> u64 {
        (UNIT * luby(2.0, self.count)) as u64
    }

    /// Moves to the next element.
    pub fn next(&mut self) {
        self.count += 1;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn luby_sequence() {
        let seq: Vec<f64> = (0..15).map(|i| super::luby(2.0, i)).collect();
        assert_eq!(
            seq,
            [1., 1., 2., 1., 1., 2., 4., 1., 1., 2., 1., 1., 2., 4., 8.]
        );
    }
}
