//! Legal and pseudo-legal move generation.
