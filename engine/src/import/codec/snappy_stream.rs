//! snappy-java's `SnappyOutputStream` (snappy-java 1.1, Spark 3.5's
//! `SnappyCompressionCodec`, not the framed format): a 16-byte header —
//! the magic `\x82SNAPPY\0`, then version and compatible version
//! (big-endian `i32`s, both 1) — then chunks, each a big-endian `i32`
//! length and that many bytes of raw Snappy. `SnappyInputStream` accepts
//! streams concatenated (a header where a chunk would start).

use super::{Step, StreamFormat, MAX_BLOCK_BYTES};

/// `SnappyCodec.MAGIC_HEADER`.
pub(crate) const MAGIC: &[u8] = b"\x82SNAPPY\x00";

/// Magic, version, compatible version.
const HEADER_BYTES: usize = 16;

/// The oldest stream version snappy-java's reader accepts, and the one
/// every snappy-java since 1.0 writes.
const COMPATIBLE_VERSION: i32 = 1;

/// Reads the header, then chunks.
#[derive(Default)]
pub(crate) struct SnappyStream {
    decoder: Option<snap::raw::Decoder>,
    /// The chunk being decompressed, reused.
    block: Vec<u8>,
}

impl StreamFormat for SnappyStream {
    fn step(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<Step, String> {
        // A header starts the stream and may start a concatenated one: its
        // first byte (0x82) would be a chunk length over 2 GiB.
        if self.decoder.is_none() || input[0] == MAGIC[0] {
            let magic = &input[..input.len().min(MAGIC.len())];
            if magic != &MAGIC[..magic.len()] {
                return Err("no `SNAPPY` stream header".into());
            }
            if input.len() < HEADER_BYTES {
                return Ok(Step::More);
            }
            let compatible = i32::from_be_bytes([input[12], input[13], input[14], input[15]]);
            if compatible > COMPATIBLE_VERSION {
                return Err(format!(
                    "stream version {compatible} is newer than snappy-java's 1"
                ));
            }
            self.decoder.get_or_insert_with(snap::raw::Decoder::new);
            return Ok(Step::Read(HEADER_BYTES));
        }
        if input.len() < 4 {
            return Ok(Step::More);
        }
        let len = i32::from_be_bytes([input[0], input[1], input[2], input[3]]);
        if len <= 0 || len as usize > MAX_BLOCK_BYTES {
            return Err(format!("impossible chunk length {len}"));
        }
        let Some(body) = input.get(4..4 + len as usize) else {
            return Ok(Step::More);
        };
        let size =
            snap::raw::decompress_len(body).map_err(|e| format!("corrupt Snappy chunk: {e}"))?;
        if size > MAX_BLOCK_BYTES {
            return Err(format!("a chunk declares {size} bytes decompressed (over the {MAX_BLOCK_BYTES}-byte limit)"));
        }
        self.block.resize(size, 0);
        let decoder = self.decoder.get_or_insert_with(snap::raw::Decoder::new);
        let n = decoder
            .decompress(body, &mut self.block)
            .map_err(|e| format!("corrupt Snappy chunk: {e}"))?;
        out(&self.block[..n]);
        Ok(Step::Read(4 + len as usize))
    }

    fn may_end(&self) -> bool {
        self.decoder.is_some()
    }
}
