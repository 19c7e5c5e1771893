//! AIGER witnesses (aigsim/HWMCC format) for a model of 3 latches and 2
//! inputs, the shape `invar sim` reads them in.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| common::read_text(text, |file, text| {
    invar::formats::witness::parse_aiger_witness(file, text, 3, 2)
}));
