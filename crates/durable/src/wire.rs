//! Byte framing shared by the image, journal and export containers: a bounds-checked reader
//! and bincode 2 (`standard()` config: little-endian, varint integers) with a decode limit.
//!
//! Invariant: nothing here allocates more than the input holds or the stated limit, and
//! nothing panics on any input; every failure names the field and its byte offset.

use bincode::error::DecodeError;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{DurableError, Result};

/// A forward-only reader over untrusted bytes.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at offset 0 of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// Current offset from the start of the input.
    pub(crate) fn offset(&self) -> u64 {
        self.pos as u64
    }

    /// Bytes not yet read.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// The next `len` bytes, or `Truncated` naming `what`.
    pub(crate) fn take(&mut self, len: u64, what: &'static str) -> Result<&'a [u8]> {
        let available = self.remaining() as u64;
        if len > available {
            return Err(DurableError::Truncated { what, offset: self.offset(), needed: len, available });
        }
        // `len <= remaining`, so it fits in usize and the slice is in bounds.
        let len = len as usize;
        let start = self.pos;
        self.pos += len;
        Ok(&self.bytes[start..start + len])
    }

    /// The next `N` bytes as an array.
    pub(crate) fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N as u64, what)?);
        Ok(out)
    }

    /// One byte.
    pub(crate) fn u8(&mut self, what: &'static str) -> Result<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A little-endian u16.
    pub(crate) fn u16_le(&mut self, what: &'static str) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    /// A little-endian u32.
    pub(crate) fn u32_le(&mut self, what: &'static str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    /// A little-endian u64.
    pub(crate) fn u64_le(&mut self, what: &'static str) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    /// Checks the 8-byte magic at the start of a container.
    pub(crate) fn magic(&mut self, expected: &'static [u8; 8], what: &'static str) -> Result<()> {
        let found = self.array::<8>(what)?;
        if &found != expected {
            return Err(DurableError::BadMagic { what, expected: std::str::from_utf8(expected).unwrap_or("?") });
        }
        Ok(())
    }

    /// Fails unless every byte has been read.
    pub(crate) fn finish(&self, what: &'static str) -> Result<()> {
        if self.remaining() != 0 {
            return Err(DurableError::corrupt_at(
                what,
                self.offset(),
                format!("{} unexpected trailing bytes", self.remaining()),
            ));
        }
        Ok(())
    }
}

/// Encodes `value` with bincode 2 `standard()`; fails if the result exceeds `limit` bytes.
pub(crate) fn encode<T: Serialize>(value: &T, what: &'static str, limit: usize) -> Result<Vec<u8>> {
    let bytes = bincode::serde::encode_to_vec(value, bincode::config::standard())
        .map_err(|e| DurableError::InvalidValue { what: what.to_string(), detail: format!("cannot encode: {e}") })?;
    if bytes.len() > limit {
        return Err(DurableError::LimitExceeded { what, size: bytes.len() as u64, limit: limit as u64 });
    }
    Ok(bytes)
}

/// Decodes all of `bytes` (found at `offset` in the container) with bincode 2 `standard()`
/// and a claim limit of `LIMIT` bytes, so a hostile length cannot allocate more than that.
pub(crate) fn decode<T: DeserializeOwned, const LIMIT: usize>(
    bytes: &[u8],
    what: &'static str,
    offset: u64,
) -> Result<T> {
    if bytes.len() > LIMIT {
        return Err(DurableError::LimitExceeded { what, size: bytes.len() as u64, limit: LIMIT as u64 });
    }
    let config = bincode::config::standard().with_limit::<LIMIT>();
    let (value, used) = bincode::serde::decode_from_slice::<T, _>(bytes, config)
        .map_err(|e| decode_error(e, what, offset, bytes.len(), LIMIT))?;
    if used != bytes.len() {
        return Err(DurableError::corrupt_at(
            what,
            offset + used as u64,
            format!("{} unexpected trailing bytes", bytes.len() - used),
        ));
    }
    Ok(value)
}

/// Maps a bincode decode failure to a `DurableError` naming the field.
fn decode_error(error: DecodeError, what: &'static str, offset: u64, len: usize, limit: usize) -> DurableError {
    match error {
        DecodeError::UnexpectedEnd { additional } => {
            DurableError::Truncated { what, offset, needed: (len + additional) as u64, available: len as u64 }
        }
        DecodeError::LimitExceeded => DurableError::LimitExceeded { what, size: len as u64, limit: limit as u64 },
        other => DurableError::corrupt_at(what, offset, other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_reports_truncation_with_offset() {
        let mut reader = Reader::new(&[1, 2, 3]);
        assert_eq!(reader.u16_le("a").unwrap(), 0x0201);
        let err = reader.u32_le("b").unwrap_err();
        assert!(matches!(err, DurableError::Truncated { what: "b", offset: 2, needed: 4, available: 1 }));
        assert!(reader.finish("x").is_err());
        assert_eq!(reader.u8("c").unwrap(), 3);
        assert!(reader.finish("x").is_ok());
        assert!(reader.take(u64::MAX, "huge").is_err());
    }

    #[test]
    fn decode_is_bounded_and_exact() {
        let bytes = encode(&vec![String::from("hello")], "v", 1 << 10).unwrap();
        let back: Vec<String> = decode::<_, 1024>(&bytes, "v", 0).unwrap();
        assert_eq!(back, vec!["hello".to_string()]);
        // A length prefix claiming 2^60 bytes must fail without allocating.
        let hostile = [1u8, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0x10];
        assert!(decode::<Vec<String>, 1024>(&hostile, "v", 0).is_err());
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert!(decode::<Vec<String>, 1024>(&trailing, "v", 0).is_err());
        assert!(encode(&vec![0u8; 100], "v", 10).is_err());
    }
}
