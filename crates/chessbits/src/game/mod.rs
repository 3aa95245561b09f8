//! The game list and its signature list: repetition, fifty-move rule and outcome.
