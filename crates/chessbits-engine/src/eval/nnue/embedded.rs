//! The network compiled into the engine: what it evaluates with unless `EvalFile` names another
//! file or `Use NNUE` is off.
//!
//! The file is `nets/cb-256-4.nnue` in this crate (the [format](super::format)), beside its
//! recipe `nets/cb-256-4.nnue.recipe`: the `datagen` command that made the data, the data's
//! SHA-256, the trainer's options and seed, and the losses. `scripts/nnue_pipeline.sh` makes
//! the next one.
//!
//! ```
//! use chessbits::position::Position;
//! use chessbits_engine::eval::nnue::embedded;
//! let net = embedded::network();
//! assert_eq!(net.hidden, 256);
//! // The start position is about even from White's side.
//! assert!(net.evaluate(&Position::startpos()).abs() < 100);
//! ```

use std::sync::{Arc, OnceLock};

use super::Network;

/// The file name the engine shows as `EvalFile`'s default (`<embedded>` selects it).
pub const NAME: &str = "cb-256-4.nnue";

/// The file's bytes, as committed.
pub static BYTES: &[u8] = include_bytes!("../../../nets/cb-256-4.nnue");

/// The embedded network, parsed once and shared.
pub fn network() -> Arc<Network> {
    static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
    NETWORK
        .get_or_init(|| {
            // A test reads the same bytes: a bad commit fails it rather than a game.
            Arc::new(Network::from_bytes(BYTES).expect("the embedded network file is valid"))
        })
        .clone()
}
