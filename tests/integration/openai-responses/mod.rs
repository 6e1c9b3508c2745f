//! The OpenAI Responses profile: end to end against the reference server's Responses
//! door (its two models, with and without a witness), and the fault table (every fault
//! of that door fails its case).

mod faults;
mod profile;
