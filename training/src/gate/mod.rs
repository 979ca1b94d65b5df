//! The promotion gate every pipeline uses: whether a candidate beats the best so far.
//!
//! - [`sprt`]: the decision from a score: Wald's sequential probability ratio test
//!   ([`sprt::Sprt`]) or a fixed number of games with a Wilson interval ([`sprt::Gate`]);
//! - [`arena`]: the gate's games played through the framework's arena, kept with their
//!   record: a fixed-length gate ([`arena::run`], the term-weight player's policy iteration)
//!   and the sequential one ([`arena::run_sequential`], the fast network's generations).
//!
//! The convolutional network's self-play (`crate::selfplay`) plays its gate games in its own
//! rounds and decides with the same [`sprt::Gate`].

pub mod arena;
pub mod sprt;
