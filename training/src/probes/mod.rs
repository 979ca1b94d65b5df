//! Yardsticks of a network (`tde probe value|policy|sibling`).

pub mod policy;
pub mod sibling;
pub mod value;
