//! The witness on the Chat Completions wire (described in [`crate::wire::chat`]): reading a
//! request body into a call's parts (`decode.rs`), what it says about the tool-media
//! tool (`tools.rs`), and answering it (`answer.rs`).

pub mod answer;
pub mod decode;
pub mod tools;
