//! Small shared utilities.

pub mod budget;
pub mod children;
pub mod memory;
pub mod rng;
pub mod settings;
pub mod sha256;
