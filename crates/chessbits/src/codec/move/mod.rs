//! Move codes: index, enumeration, direction-target, entropy coding.
