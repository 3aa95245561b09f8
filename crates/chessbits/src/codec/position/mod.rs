//! Position codes: stream, Huffman, tuned Huffman and our compact code.
