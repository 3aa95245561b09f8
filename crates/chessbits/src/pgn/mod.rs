//! Streaming PGN reader, owned game tree and writer.
