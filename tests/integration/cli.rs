//! The `arena` binary end to end.
