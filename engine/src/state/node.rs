//! What kind of node a procedure step is.

/// Whether a step on top of the stack waits for a side's decision, waits for a die roll, or
/// runs on its own as soon as it is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A side chooses one of the legal actions.
    Decision,
    /// A die roll: an outcome with its exact probability.
    Chance,
    /// Runs at once when it reaches the top of the stack; never a node of the game tree.
    Automatic,
}
