//! VMT models (SMT-LIB with `:next`, `:init`, `:invar-property` and
//! `:predicate` annotations).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| common::read_text(text, invar::formats::vmt::read_str));
