//! BTOR2 models.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| common::read_text(text, invar::formats::btor2::read_str));
