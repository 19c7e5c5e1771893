//! Every switch by which a measurement varies the pipeline, as plain data.
//!
//! The defaults are what the measurements in `docs/decisions/` chose; every
//! other value exists to repeat or extend a measurement (an ablation), not
//! as a documented interface. The binary fills a [`Tuning`] from `--tune
//! KEY=VALUE` options ([`Tuning::set`], [`KEYS`]); tests set its fields. The
//! library reads no environment.

use crate::engines::ic3::{Ctp, Generalization, Ic3Options};
use crate::engines::ic3cfa::Ic3CfaOptions;
use crate::engines::ic3ia::IaOptions;

/// The tuning of one run of the pipeline.
#[derive(Clone, Debug)]
pub struct Tuning {
    /// SAT sweeping (merging equivalent gates) before the bit-level
    /// engines, when simplification is on.
    pub sweep: bool,
    /// IC3's options (its `limits` are the request's, set per run).
    pub ic3: Ic3Options,
    /// The conflict limit of BMC's first question, which asks for any
    /// counterexample up to the deepest depth reached (`None`: every depth
    /// asked alone, without limit).
    pub bmc_first_conflicts: Option<u64>,
    /// Which members `auto` runs.
    pub auto: AutoTuning,
    /// IC3CFA's options.
    pub ic3cfa: Ic3CfaOptions,
    /// IC3+IA's options.
    pub ic3ia: IaOptions,
    /// The integer relaxation of a C program watches for overflow, so that
    /// an invariant found over the integers carries over to the machine
    /// integers only where no overflow happens.
    pub relax_overflow_flag: bool,
    /// Several properties (`--property all`) are decided in groups, one
    /// disjunction per group ([`super::check_each`]); off, one after
    /// another.
    pub properties_together: bool,
    /// Grouped properties of a circuit are ordered by the fingerprints of
    /// their cones ([`crate::ir::coi::cone_signatures`]) before groups are
    /// split in halves, so that a half holds properties whose cones
    /// overlap; off, in the model's order. Off: on 20 HWMCC'13
    /// multi-property circuits it decided 1,191 properties against 1,170,
    /// within the noise of one circuit (docs/decisions/).
    pub properties_cone_order: bool,
    /// Under `--property all`, the invariant of each property proved is
    /// assumed while the others are checked (`Request::assumed`). On
    /// HWMCC'13's multi-property circuits, 30 s, it decided 31,126
    /// properties against 31,155 without: off.
    pub properties_assume: bool,
}

/// The members of `auto`.
#[derive(Clone, Debug)]
pub struct AutoTuning {
    /// On circuits, the second core is shared in turns by BMC, a second
    /// IC3 and the members below; without, BMC and IC3 race alone.
    pub turns: bool,
    /// The step cases of k-induction take a turn on the second core.
    pub kind: bool,
    /// Signal correspondence takes a turn on the second core.
    pub scorr: bool,
    /// Signal correspondence's first turn is its share of the run, not one
    /// slice.
    pub scorr_front_loaded: bool,
    /// How the second IC3 generalizes.
    pub second_ic3: SecondIc3,
    /// IC3 searches on cores of their own (`--jobs` 3 and up) share their
    /// lemmas (`engines::ic3::exchange`).
    pub share_lemmas: bool,
    /// On programs, explicit execution runs first (the determined run,
    /// then tests).
    pub explicit: bool,
    /// On programs, IC3CFA runs for its slice.
    pub ic3cfa: bool,
}

/// The second IC3 of `auto` on circuits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SecondIc3 {
    /// The first IC3's options, blocking counterexamples to propagation of
    /// lemmas that failed to push ([`Ctp::Stuck`]).
    CtpStuck,
    /// Plain `down` generalization, no CTGs and no CTPs.
    Down,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            sweep: true,
            ic3: Ic3Options::default(),
            bmc_first_conflicts: Some(crate::engines::bmc::FIRST_CONFLICT_LIMIT),
            auto: AutoTuning {
                turns: true,
                kind: true,
                scorr: true,
                scorr_front_loaded: true,
                second_ic3: SecondIc3::CtpStuck,
                share_lemmas: true,
                explicit: true,
                ic3cfa: true,
            },
            ic3cfa: Ic3CfaOptions::default(),
            ic3ia: IaOptions::default(),
            relax_overflow_flag: true,
            properties_together: true,
            properties_cone_order: false,
            properties_assume: false,
        }
    }
}

/// The keys of [`Tuning::set`], each with what it sets and its values.
pub const KEYS: &[(&str, &str)] = &[
    ("sweep", "SAT sweeping before the bit-level engines (true)"),
    ("ic3.generalization", "ctg (default), down or dynamic"),
    ("ic3.mic_attempts", "literals tried per lemma (all)"),
    (
        "ic3.infinite_frame",
        "lemmas move to the infinite frame (true)",
    ),
    (
        "ic3.skip_unchanged_levels",
        "propagation skips unchanged levels (true)",
    ),
    ("ic3.shared_solver", "one solver for every frame (false)"),
    (
        "ic3.keep_obligations",
        "obligations kept across frames (true)",
    ),
    ("ic3.pin_domain", "the domain pinned per query (true)"),
    (
        "ic3.lift_from_model",
        "lifting starts from the model (true)",
    ),
    ("ic3.relift", "a lifted cube lifted again (true)"),
    (
        "ic3.parent_lemma",
        "generalization guided by the parent lemma (true)",
    ),
    ("ic3.predict", "lemma prediction (false)"),
    (
        "ic3.ctp",
        "counterexamples to propagation: off (default), stuck or every",
    ),
    (
        "ic3.push_witnesses",
        "witnesses of failed pushes kept (false)",
    ),
    (
        "bmc.first_conflicts",
        "BMC's first question's conflict limit, 0: none (5000)",
    ),
    (
        "properties.together",
        "--property all decides properties in groups (true)",
    ),
    (
        "properties.cone_order",
        "groups of properties are split by the overlap of their cones (false)",
    ),
    (
        "properties.assume",
        "--property all assumes the invariants of proved properties (false)",
    ),
    ("auto.turns", "auto shares the second core in turns (true)"),
    ("auto.kind", "k-induction's step cases in auto (true)"),
    ("auto.scorr", "signal correspondence in auto (true)"),
    (
        "auto.scorr_front_loaded",
        "its first turn is its share of the run (true)",
    ),
    ("auto.second_ic3", "ctp-stuck (default) or down"),
    (
        "auto.share_lemmas",
        "IC3 searches on cores of their own share lemmas (true)",
    ),
    (
        "auto.explicit",
        "explicit execution in auto on programs (true)",
    ),
    ("auto.ic3cfa", "IC3CFA in auto on programs (true)"),
    ("ic3cfa.split", "edges split into choice-free paths (true)"),
    (
        "ic3cfa.predecessor_cubes",
        "queries decided by a predecessor's lemma (true)",
    ),
    (
        "ic3cfa.drop_literals",
        "literals dropped after cores (true)",
    ),
    ("ic3cfa.low_bits", "lemmas weakened to low bits (true)"),
    ("ic3cfa.affine", "affine equalities in every frame (true)"),
    ("ic3cfa.seeds", "Houdini's seeds in every frame (true)"),
    ("ic3ia.farkas", "Farkas interpolants in refinement (true)"),
    ("ic3ia.minimise", "refinement predicates minimised (true)"),
    (
        "relax.overflow_flag",
        "the integer relaxation watches for overflow (true)",
    ),
];

impl Tuning {
    /// Sets `key` (one of [`KEYS`]) to `value`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let flag = || match value {
            "true" | "on" | "1" => Ok(true),
            "false" | "off" | "0" => Ok(false),
            _ => Err(format!(
                "--tune {key}: expected true or false, not `{value}`"
            )),
        };
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("--tune {key}: expected a number, not `{value}`"))
        };
        let other = |expected: &str| format!("--tune {key}: expected {expected}, not `{value}`");
        let ic3 = &mut self.ic3;
        match key {
            "sweep" => self.sweep = flag()?,
            "ic3.generalization" => {
                ic3.generalization = match value {
                    "ctg" => Ic3Options::default().generalization,
                    "down" => Generalization::Down,
                    "dynamic" => Generalization::Dynamic { threshold: 10.0 },
                    _ => return Err(other("ctg, down or dynamic")),
                }
            }
            "ic3.mic_attempts" => ic3.mic_attempts = number()? as usize,
            "ic3.infinite_frame" => ic3.infinite_frame = flag()?,
            "ic3.skip_unchanged_levels" => ic3.skip_unchanged_levels = flag()?,
            "ic3.shared_solver" => ic3.shared_solver = flag()?,
            "ic3.keep_obligations" => ic3.keep_obligations = flag()?,
            "ic3.pin_domain" => ic3.pin_domain = flag()?,
            "ic3.lift_from_model" => ic3.lift_from_model = flag()?,
            "ic3.relift" => ic3.relift = flag()?,
            "ic3.parent_lemma" => ic3.parent_lemma = flag()?,
            "ic3.predict" => ic3.predict = flag()?,
            "ic3.ctp" => {
                ic3.ctp = match value {
                    "off" => Ctp::Off,
                    "stuck" => Ctp::Stuck,
                    "every" => Ctp::Every,
                    _ => return Err(other("off, stuck or every")),
                }
            }
            "ic3.push_witnesses" => ic3.push_witnesses = flag()?,
            "bmc.first_conflicts" => {
                self.bmc_first_conflicts = Some(number()?).filter(|&n| n > 0);
            }
            "properties.together" => self.properties_together = flag()?,
            "properties.cone_order" => self.properties_cone_order = flag()?,
            "properties.assume" => self.properties_assume = flag()?,
            "auto.turns" => self.auto.turns = flag()?,
            "auto.kind" => self.auto.kind = flag()?,
            "auto.scorr" => self.auto.scorr = flag()?,
            "auto.scorr_front_loaded" => self.auto.scorr_front_loaded = flag()?,
            "auto.second_ic3" => {
                self.auto.second_ic3 = match value {
                    "ctp-stuck" => SecondIc3::CtpStuck,
                    "down" => SecondIc3::Down,
                    _ => return Err(other("ctp-stuck or down")),
                }
            }
            "auto.share_lemmas" => self.auto.share_lemmas = flag()?,
            "auto.explicit" => self.auto.explicit = flag()?,
            "auto.ic3cfa" => self.auto.ic3cfa = flag()?,
            "ic3cfa.split" => self.ic3cfa.split = flag()?,
            "ic3cfa.predecessor_cubes" => self.ic3cfa.predecessor_cubes = flag()?,
            "ic3cfa.drop_literals" => self.ic3cfa.drop_literals = flag()?,
            "ic3cfa.low_bits" => self.ic3cfa.low_bits = flag()?,
            "ic3cfa.affine" => self.ic3cfa.affine = flag()?,
            "ic3cfa.seeds" => self.ic3cfa.seeds = flag()?,
            "ic3ia.farkas" => self.ic3ia.farkas = flag()?,
            "ic3ia.minimise" => self.ic3ia.minimise = flag()?,
            "relax.overflow_flag" => self.relax_overflow_flag = flag()?,
            _ => {
                return Err(format!(
                    "--tune: unknown key `{key}` (`invar check FILE --tune help` lists them)"
                ))
            }
        }
        Ok(())
    }

    /// Sets every `KEY=VALUE` of `settings`, in order.
    pub fn with(mut self, settings: &[String]) -> Result<Tuning, String> {
        for setting in settings {
            let (key, value) = setting
                .split_once('=')
                .ok_or_else(|| format!("--tune {setting}: expected KEY=VALUE"))?;
            self.set(key.trim(), value.trim())?;
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed key can be set to a value of its kind, and every
    /// value of a key is the field's (spot checks).
    #[test]
    fn every_key_sets_its_field() {
        for (key, _) in KEYS {
            let mut t = Tuning::default();
            let value = match *key {
                "ic3.generalization" => "down",
                "ic3.ctp" => "stuck",
                "auto.second_ic3" => "down",
                "ic3.mic_attempts" | "bmc.first_conflicts" => "0",
                _ => "false",
            };
            t.set(key, value).unwrap_or_else(|e| panic!("{key}: {e}"));
        }
        let t = Tuning::default()
            .with(&["bmc.first_conflicts=0".into(), "ic3.ctp=every".into()])
            .unwrap();
        assert_eq!(t.bmc_first_conflicts, None);
        assert_eq!(t.ic3.ctp, Ctp::Every);
        assert!(Tuning::default().set("ic3.ctp", "sometimes").is_err());
        assert!(Tuning::default().set("no.such.key", "1").is_err());
        assert!(Tuning::default().with(&["sweep".into()]).is_err());
    }
}
