//! What every target shares: readers run on a thread with the CLI's stack
//! (512 MiB, `src/main.rs`), so the stated nesting limits are reached, as
//! in the product, before the stack ends; a panic there is re-raised here,
//! where libFuzzer sees it.
// Each target uses part of this module.
#![allow(dead_code)]

/// The `invar` binary's stack size.
const STACK_BYTES: usize = 512 << 20;

/// Runs `read` on a thread with the CLI's stack and re-raises its panic.
pub fn on_cli_stack<F: FnOnce() + Send + 'static>(read: F) {
    let thread = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(read)
        .expect("thread for the reader");
    if let Err(panic) = thread.join() {
        std::panic::resume_unwind(panic);
    }
}

/// Error messages must name the file: every reader is given this name and
/// every error it returns must start with it.
pub const NAME: &str = "fuzz-input";

/// Checks the shape the CLI relies on: one line, naming the file.
pub fn check_message(message: &str) {
    assert!(
        message.starts_with(NAME),
        "error message does not name the file: {message}"
    );
}

/// Runs a text reader `read(file, text)` on the CLI's stack; an error must
/// name the file.
pub fn read_text<T: 'static, E: std::fmt::Display + 'static>(
    text: &str,
    read: fn(&str, &str) -> Result<T, E>,
) {
    let text = text.to_string();
    on_cli_stack(move || {
        if let Err(e) = read(NAME, &text) {
            check_message(&e.to_string());
        }
    });
}
