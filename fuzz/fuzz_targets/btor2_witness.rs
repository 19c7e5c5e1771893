//! BTOR2 witnesses (btorsim format) for a fixed model with states,
//! inputs, an array and two bad properties.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

const MODEL: &str = "\
1 sort bitvec 1
2 sort bitvec 4
3 sort array 2 2
4 input 2 in
5 state 2 count
6 state 3 mem
7 state 1 flag
8 zero 2
9 init 2 5 8
10 add 2 5 4
11 next 2 5 10
12 write 3 6 5 4
13 next 3 6 12
14 read 2 6 5
15 eq 1 14 4
16 next 1 7 15
17 bad 7
18 ones 2
19 eq 1 5 18
20 bad 19
";

fuzz_target!(|text: &str| common::read_text(text, |file, text| {
    let ts = invar::formats::btor2::read_str("model.btor2", MODEL).expect("the fixed model reads");
    invar::formats::btor2::witness::read_witness(file, text, &ts)
}));
