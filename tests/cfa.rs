//! Control-flow automata built by hand (as the C front end will build them):
//! large-block encoding shrinks them and keeps every verdict, and the encoded
//! transition systems get the verdicts worked out by hand, with every
//! counterexample replayed on the word-level system.

use invar::bitblast::bitblast;
use invar::check::word;
use invar::engines::ic3::{self, Ic3Options};
use invar::engines::Verdict;
use invar::ir::bv::BvValue;
use invar::ir::cfa::encode::encode;
use invar::ir::cfa::lbe::{large_block_encoding, LbeOptions};
use invar::ir::cfa::{Cfa, Command};
use invar::ir::term::{Op, Sort, Term};

/// `x = 0; while (x < limit) x += step; assert(x == limit);` over 8-bit x.
fn counting_loop(step: u64, limit: u64) -> Cfa {
    let mut cfa = Cfa::default();
    let x = cfa.terms.var("x", Sort::BitVec(8));
    cfa.vars.push(x);
    let bv = |cfa: &mut Cfa, v: u64| cfa.terms.bv(BvValue::from_u64(8, v));
    let (l0, head, body, after, done, error) = (
        cfa.add_location("entry"),
        cfa.add_location("loop head"),
        cfa.add_location("loop body"),
        cfa.add_location("after the loop"),
        cfa.add_location("end"),
        cfa.add_location("error"),
    );
    cfa.init = l0;
    cfa.error = error;
    let zero = bv(&mut cfa, 0);
    let lim = bv(&mut cfa, limit);
    let st = bv(&mut cfa, step);
    cfa.add_edge(l0, Command::Assign(x, zero), head);
    let below = cfa.terms.mk(Op::BvUlt, &[x, lim]);
    let not_below = cfa.terms.not(below);
    cfa.add_edge(head, Command::Assume(below), body);
    cfa.add_edge(head, Command::Assume(not_below), after);
    let sum = cfa.terms.mk(Op::BvAdd, &[x, st]);
    cfa.add_edge(body, Command::Assign(x, sum), head);
    let ok = cfa.terms.eq(x, lim);
    let fail = cfa.terms.not(ok);
    cfa.add_edge(after, Command::Assume(ok), done);
    cfa.add_edge(after, Command::Assume(fail), error);
    cfa
}

/// `y = nondet(); if (y > 5) x = y; else x = 6; assert(x > 5);` plus a
/// variant whose else branch assigns 5 (then unsafe).
fn branches(else_value: u64) -> Cfa {
    let mut cfa = Cfa::default();
    let x = cfa.terms.var("x", Sort::BitVec(4));
    let y = cfa.terms.var("y", Sort::BitVec(4));
    cfa.vars.extend([x, y]);
    let (l0, l1, l2, l3, error) = (
        cfa.add_location("entry"),
        cfa.add_location("if"),
        cfa.add_location("join"),
        cfa.add_location("end"),
        cfa.add_location("error"),
    );
    cfa.init = l0;
    cfa.error = error;
    let five = cfa.terms.bv(BvValue::from_u64(4, 5));
    let other = cfa.terms.bv(BvValue::from_u64(4, else_value));
    cfa.add_edge(l0, Command::Havoc(y), l1);
    let big = cfa.terms.mk(Op::BvUgt, &[y, five]);
    let small = cfa.terms.not(big);
    cfa.add_edge(l1, Command::Assume(big).then(Command::Assign(x, y)), l2);
    cfa.add_edge(
        l1,
        Command::Assume(small).then(Command::Assign(x, other)),
        l2,
    );
    let ok = cfa.terms.mk(Op::BvUgt, &[x, five]);
    let fail = cfa.terms.not(ok);
    cfa.add_edge(l2, Command::Assume(ok), l3);
    cfa.add_edge(l2, Command::Assume(fail), error);
    cfa
}

/// Decides the encoded CFA with IC3; replays any counterexample.
fn decide(cfa: &Cfa) -> &'static str {
    let ts = encode(cfa);
    let blasted = bitblast(&ts).expect("Bool/BV only");
    let outcome = ic3::check(&blasted.aig, &Ic3Options::default());
    match outcome.verdict {
        Verdict::Safe(_) => "safe",
        Verdict::Unsafe(trace) => {
            let words = blasted.word_trace(&ts, &trace);
            let reached = word::replay(&ts, &words, &[0]).expect("the trace replays");
            assert_eq!(reached.step + 1, words.len());
            "unsafe"
        }
        Verdict::Unknown(r) => panic!("unknown: {r}"),
    }
}

fn vars_of(cfa: &Cfa) -> Vec<Term> {
    cfa.vars.clone()
}

#[test]
fn lbe_shrinks_the_cfa_and_keeps_the_verdicts() {
    let cases = [
        (counting_loop(1, 10), "safe"),
        (counting_loop(2, 10), "safe"),
        (counting_loop(3, 10), "unsafe"), // 0, 3, 6, 9, 12: ends at 12
        (counting_loop(200, 10), "unsafe"), // 0, 200: ends at 200
        (branches(6), "safe"),
        (branches(5), "unsafe"),
    ];
    for (i, (cfa, expected)) in cases.into_iter().enumerate() {
        assert_eq!(decide(&cfa), expected, "case {i}, single-block encoding");
        for advanced in [false, true] {
            let mut small = cfa.clone();
            let stats = large_block_encoding(&mut small, LbeOptions { advanced });
            assert_eq!(vars_of(&small), vars_of(&cfa));
            assert!(
                stats.after.0 < stats.before.0 && stats.after.1 < stats.before.1,
                "case {i}: {stats:?}\n{small}"
            );
            assert_eq!(
                decide(&small),
                expected,
                "case {i}, LBE (advanced: {advanced})\n{small}"
            );
        }
    }
}

#[test]
fn lbe_reduces_a_loop_to_its_head_and_a_branch_to_one_edge() {
    let mut cfa = counting_loop(1, 10);
    let stats = large_block_encoding(&mut cfa, LbeOptions { advanced: false });
    // The body folds into a self-loop on the head, and the assertion into the
    // head's two exits: entry, head, end and error remain, with 4 edges.
    assert_eq!(stats.before, (6, 6));
    assert_eq!(stats.after, (4, 4), "{cfa}");
    assert!(cfa.edges.iter().any(|e| e.from == e.to), "{cfa}");
    let mut b = branches(6);
    let stats = large_block_encoding(&mut b, LbeOptions::default());
    // The two branches become one choice, then everything one edge from the
    // entry to the end and one to the error.
    assert_eq!(stats.before, (5, 5));
    assert_eq!(stats.after, (3, 2), "{b}");
    assert!(b.edges.iter().all(|e| e.from == b.init), "{b}");
    assert!(b.edges.iter().all(|e| matches!(&e.command, Command::Seq(parts) if parts.iter().any(|p| matches!(p, Command::Choice(_))))), "{b}");
}

#[test]
fn encoded_cfas_export_to_vmt_that_reads_back_with_the_same_verdict() {
    use invar::formats::vmt;
    for (mut cfa, expected) in [(counting_loop(2, 10), "safe"), (branches(5), "unsafe")] {
        large_block_encoding(&mut cfa, LbeOptions::default());
        let ts = encode(&cfa);
        let text = vmt::write(&ts);
        let back = vmt::read_str("export", &text).expect("reads back");
        assert_eq!(vmt::write(&back), text);
        let blasted = bitblast(&back).expect("Bool/BV only");
        let outcome = ic3::check(&blasted.aig, &Ic3Options::default());
        let got = match outcome.verdict {
            Verdict::Safe(_) => "safe",
            Verdict::Unsafe(_) => "unsafe",
            Verdict::Unknown(_) => "unknown",
        };
        assert_eq!(got, expected);
    }
}

/// One edge running `c; c` where `c` adds 1 or 2 to x (a choice), from
/// x = 0, and an error edge taken when x equals `target` afterwards.
fn twice(target: u64, copies_in_branches: bool) -> Cfa {
    let mut cfa = Cfa::default();
    let x = cfa.terms.var("x", Sort::BitVec(4));
    cfa.vars.push(x);
    let (l0, l1, done, error) = (
        cfa.add_location("entry"),
        cfa.add_location("after"),
        cfa.add_location("end"),
        cfa.add_location("error"),
    );
    cfa.init = l0;
    cfa.error = error;
    let bv = |cfa: &mut Cfa, v: u64| cfa.terms.bv(BvValue::from_u64(4, v));
    let (zero, one, two) = (bv(&mut cfa, 0), bv(&mut cfa, 1), bv(&mut cfa, 2));
    let plus_one = cfa.terms.mk(Op::BvAdd, &[x, one]);
    let plus_two = cfa.terms.mk(Op::BvAdd, &[x, two]);
    let step = Command::Assign(x, plus_one).or(Command::Assign(x, plus_two));
    let body = if copies_in_branches {
        // The same prefix copied into both branches of a choice, as the
        // sequence rule of LBE does: the copies are exclusive.
        let t = cfa.terms.bool(true);
        let tail_a = Command::Assume(t);
        let tail_b = Command::Assign(x, plus_one);
        let a = step.clone().then(step.clone()).then(tail_a);
        let b = step.clone().then(step.clone()).then(tail_b);
        a.or(b)
    } else {
        step.clone().then(step)
    };
    cfa.add_edge(l0, Command::Assign(x, zero).then(body), l1);
    let tv = bv(&mut cfa, target);
    let hit = cfa.terms.eq(x, tv);
    let miss = cfa.terms.not(hit);
    cfa.add_edge(l1, Command::Assume(hit), error);
    cfa.add_edge(l1, Command::Assume(miss), done);
    cfa
}

/// The encoder shares the encoding of equal commands only between exclusive
/// branches: two runs of one choice in sequence must choose independently.
#[test]
fn repeated_commands_choose_independently_and_exclusive_copies_share() {
    // c; c from 0 reaches 2, 3 and 4 (3 only if the runs choose differently).
    for (target, verdict) in [(2, "unsafe"), (3, "unsafe"), (4, "unsafe"), (5, "safe")] {
        assert_eq!(decide(&twice(target, false)), verdict, "x == {target}");
    }
    // (c; c; skip) [] (c; c; x += 1) reaches 2..=5: the copies of `c; c`
    // share their inputs, and both branches keep all of their paths.
    for (target, verdict) in [(3, "unsafe"), (5, "unsafe"), (1, "safe"), (6, "safe")] {
        assert_eq!(decide(&twice(target, true)), verdict, "x == {target}");
    }
    // The shared encoding is smaller: the copies' choice inputs appear once.
    let ts = encode(&twice(3, true));
    let choices = ts
        .inputs
        .iter()
        .filter(|&&i| ts.terms.var_name(i).unwrap_or("").starts_with("choice"))
        .count();
    assert_eq!(
        choices, 3,
        "two for the shared `c; c` and one for the outer choice"
    );
}

/// The number of commands in `c`, compounds included.
fn command_size(c: &Command) -> usize {
    match c {
        Command::Seq(parts) | Command::Choice(parts) => {
            1 + parts.iter().map(command_size).sum::<usize>()
        }
        _ => 1,
    }
}

/// test_locks_n as SV-COMP writes it: `lk_i = 0; if (p_i) lk_i = 1;` for
/// each i, then `if (p_i) { if (lk_i != 1) error; lk_i = 0; }` for each i.
/// With `forget` = Some(j), lock j is never taken (then unsafe).
fn locks(n: usize, forget: Option<usize>) -> Cfa {
    let mut cfa = Cfa::default();
    let sort = Sort::BitVec(2);
    let p: Vec<Term> = (0..n)
        .map(|i| cfa.terms.var(&format!("p{i}"), sort.clone()))
        .collect();
    let lk: Vec<Term> = (0..n)
        .map(|i| cfa.terms.var(&format!("lk{i}"), sort.clone()))
        .collect();
    cfa.vars.extend(p.iter().chain(&lk));
    let bv = |cfa: &mut Cfa, v: u64| cfa.terms.bv(BvValue::from_u64(2, v));
    let (zero, one) = (bv(&mut cfa, 0), bv(&mut cfa, 1));
    let entry = cfa.add_location("entry");
    let error = cfa.add_location("error");
    cfa.init = entry;
    cfa.error = error;
    let mut at = cfa.add_location("havocs");
    let havocs = p
        .iter()
        .fold(Command::Seq(Vec::new()), |c, &x| c.then(Command::Havoc(x)));
    cfa.add_edge(entry, havocs, at);
    for i in 0..n {
        let taken = cfa.add_location(format!("lock {i}"));
        let next = cfa.add_location(format!("after lock {i}"));
        cfa.add_edge(at, Command::Assign(lk[i], zero), taken);
        let is_zero = cfa.terms.eq(p[i], zero);
        let set = cfa.terms.not(is_zero);
        let value = if forget == Some(i) { zero } else { one };
        cfa.add_edge(
            taken,
            Command::Assume(set).then(Command::Assign(lk[i], value)),
            next,
        );
        cfa.add_edge(taken, Command::Assume(is_zero), next);
        at = next;
    }
    for i in 0..n {
        let check = cfa.add_location(format!("check {i}"));
        let next = cfa.add_location(format!("after check {i}"));
        let is_zero = cfa.terms.eq(p[i], zero);
        let set = cfa.terms.not(is_zero);
        cfa.add_edge(at, Command::Assume(set), check);
        cfa.add_edge(at, Command::Assume(is_zero), next);
        let held = cfa.terms.eq(lk[i], one);
        let free = cfa.terms.not(held);
        cfa.add_edge(check, Command::Assume(free), error);
        cfa.add_edge(
            check,
            Command::Assume(held).then(Command::Assign(lk[i], zero)),
            next,
        );
        at = next;
    }
    cfa
}

/// Branches that meet again share the command before them: LBE moves it out
/// of the choice, so a block of n checks grows linearly, not as 2^n copies
/// (IC3CFA spelt those out as paths, a 2.4 MB query on test_locks_14).
#[test]
fn lbe_keeps_a_sequence_of_branches_linear() {
    for n in [4, 8, 12] {
        let mut cfa = locks(n, None);
        large_block_encoding(&mut cfa, LbeOptions::default());
        let size: usize = cfa.edges.iter().map(|e| command_size(&e.command)).sum();
        assert!(size <= 40 * n, "n = {n}: {size} commands\n{cfa}");
    }
    for (forget, expected) in [(None, "safe"), (Some(0), "unsafe"), (Some(5), "unsafe")] {
        let mut cfa = locks(6, forget);
        assert_eq!(decide(&cfa), expected, "{forget:?} before LBE");
        large_block_encoding(&mut cfa, LbeOptions::default());
        assert_eq!(decide(&cfa), expected, "{forget:?} after LBE\n{cfa}");
    }
}
