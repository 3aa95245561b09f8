//! Notation: FEN, UCI, SAN, LAN.
