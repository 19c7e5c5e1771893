//! DimSpec (i/u/g/t CNF sections).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| common::read_text(text, invar::formats::dimspec::read_str));
