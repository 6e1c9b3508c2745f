//! The witness on the Messages wire (described in [`crate::wire::anthropic`]): reading a
//! request body into a call's parts (`decode.rs`) and answering it (`answer.rs`).

pub mod answer;
pub mod decode;
pub mod tools;

#[cfg(test)]
mod search_tests;
