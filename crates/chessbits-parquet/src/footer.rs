//! Reading a Parquet file's footer without letting a hostile one panic the process.
//!
//! The `parquet` crate (57.3.2) decodes the footer's Thrift structures with an `unwrap` on
//! every boolean field whose type byte says something else (`Statistics.is_max_value_exact` in
//! `file/metadata/thrift/mod.rs:106`, `IntType.is_signed` in `basic.rs:205`, ...): a crafted
//! footer panics instead of returning an error. A check before the crate parses would have to
//! walk the whole footer against Parquet's Thrift schema (a second decoder to keep in step with
//! the crate's), so the decoding is isolated here and a panic in it becomes a [`ParquetError`].
//! The panic's message is still printed by the panic hook (a process-wide setting that a
//! library must not swap). Every reader of an export's part files (and the index's table
//! files) opens them through these functions.

use std::any::Any;
use std::fs::File;
use std::panic::{catch_unwind, AssertUnwindSafe};

use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::errors::ParquetError;

/// The metadata (footer, and page indexes when `options` ask for them) of the Parquet file
/// `file`, as [`ArrowReaderMetadata::load`] reads it; a footer the `parquet` crate panics on is
/// an error (`the footer does not decode: ...`) instead.
///
/// ```
/// use parquet::arrow::arrow_reader::ArrowReaderOptions;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("x.parquet");
/// std::fs::write(&path, b"PAR1 not a footer PAR1").unwrap();
/// let file = std::fs::File::open(&path).unwrap();
/// assert!(chessbits_parquet::footer::load_metadata(&file, ArrowReaderOptions::new()).is_err());
/// ```
pub fn load_metadata(file: &File, options: ArrowReaderOptions) -> Result<ArrowReaderMetadata, ParquetError> {
    without_panics("the footer", || ArrowReaderMetadata::load(file, options))
}

/// Runs `decode`, a reading by the `parquet` crate of `what` (`the footer`, `a page`), with a
/// panic in it an error (`{what} does not decode: ...`). The crate's page decoders panic on
/// crafted pages too (`attempt to add with overflow` in `arrow/decoder/delta_byte_array.rs`, a
/// `DELTA_BYTE_ARRAY` page whose prefix lengths overflow): a reader of untrusted files (the
/// index, whose page checksums a hostile file can make match) reads its pages through here.
///
/// ```
/// use parquet::errors::ParquetError;
/// let read = || -> Result<u32, ParquetError> { panic!("attempt to add with overflow") };
/// let error = chessbits_parquet::footer::without_panics("a page", read).unwrap_err().to_string();
/// assert!(error.contains("a page does not decode: attempt to add with overflow"), "{error}");
/// assert_eq!(chessbits_parquet::footer::without_panics("a page", || Ok(7)).unwrap(), 7);
/// ```
pub fn without_panics<T>(what: &str, decode: impl FnOnce() -> Result<T, ParquetError>) -> Result<T, ParquetError> {
    // What the closure touches is dropped with it or is a file handle, whose position every
    // read sets anew: asserting unwind safety is sound.
    match catch_unwind(AssertUnwindSafe(decode)) {
        Ok(result) => result,
        Err(panic) => Err(ParquetError::General(format!(
            "{what} does not decode: {} (a damaged or crafted file)",
            panic_message(panic.as_ref())
        ))),
    }
}

/// [`ParquetRecordBatchReaderBuilder::try_new`] with the footer read by [`load_metadata`].
pub fn reader_builder(file: File) -> Result<ParquetRecordBatchReaderBuilder<File>, ParquetError> {
    let meta = load_metadata(&file, ArrowReaderOptions::new())?;
    Ok(ParquetRecordBatchReaderBuilder::new_with_metadata(file, meta))
}

/// The text of a panic's payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic in the parquet crate")
}
