//! AIGER 1.9, ASCII and binary (the header decides), then the reader's
//! model turned into the engines' AIG.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let data = data.to_vec();
    common::on_cli_stack(
        move || match invar::formats::aiger::read_bytes(common::NAME, &data) {
            Ok(model) => {
                let _ = model.to_aig();
            }
            Err(e) => common::check_message(&e.to_string()),
        },
    );
});
