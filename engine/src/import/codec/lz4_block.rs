//! lz4-java's `LZ4BlockOutputStream` (lz4-java 1.8, Spark 3.5's
//! `LZ4CompressionCodec`): a sequence of blocks, each a 21-byte header —
//! the magic `LZ4Block`, a token (method `0x10` raw or `0x20` LZ4, ored
//! with log2(block size) − 10), the compressed and decompressed lengths
//! and a checksum (little-endian `i32`s) — then the block's bytes. The
//! checksum is XXH32 of the decompressed bytes with seed `0x9747b28c`,
//! masked to 28 bits (`StreamingXXHash32.asChecksum()`). `finish()` writes
//! an empty block as the end mark; Spark's reader accepts streams
//! concatenated after it.

use super::{Step, StreamFormat, MAX_BLOCK_BYTES};

/// The magic that starts every block.
pub(crate) const MAGIC: &[u8] = b"LZ4Block";

/// Magic, token, two lengths, checksum.
const HEADER_BYTES: usize = 8 + 1 + 4 + 4 + 4;

/// `LZ4BlockOutputStream.DEFAULT_SEED`.
const SEED: u32 = 0x9747_b28c;

const METHOD_RAW: u8 = 0x10;
const METHOD_LZ4: u8 = 0x20;

/// Reads blocks; `ended` after an end mark (until another stream starts).
#[derive(Default)]
pub(crate) struct Lz4Block {
    ended: bool,
    /// The block being decompressed, reused.
    block: Vec<u8>,
}

fn le_i32(b: &[u8]) -> i64 {
    i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl StreamFormat for Lz4Block {
    fn step(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<Step, String> {
        let magic = &input[..input.len().min(MAGIC.len())];
        if magic != &MAGIC[..magic.len()] {
            return Err("no `LZ4Block` magic where a block starts".into());
        }
        if input.len() < HEADER_BYTES {
            return Ok(Step::More);
        }
        let token = input[8];
        let method = token & 0xF0;
        let level = u32::from(token & 0x0F);
        let compressed = le_i32(&input[9..13]);
        let original = le_i32(&input[13..17]);
        let check = u32::from_le_bytes([input[17], input[18], input[19], input[20]]);
        let limit = 1i64 << (level + 10);
        if method != METHOD_RAW && method != METHOD_LZ4 {
            return Err(format!("unknown compression method {method:#04x}"));
        }
        if original < 0
            || compressed < 0
            || original > limit
            || original > MAX_BLOCK_BYTES as i64
            || compressed > MAX_BLOCK_BYTES as i64
            || (original == 0) != (compressed == 0)
            || (method == METHOD_RAW && original != compressed)
        {
            return Err(format!(
                "impossible block lengths (compressed {compressed}, decompressed {original}, block size {limit})"
            ));
        }
        if original == 0 {
            if check != 0 {
                return Err("the end mark has a non-zero checksum".into());
            }
            self.ended = true;
            return Ok(Step::Read(HEADER_BYTES));
        }
        let (compressed, original) = (compressed as usize, original as usize);
        let Some(body) = input.get(HEADER_BYTES..HEADER_BYTES + compressed) else {
            return Ok(Step::More);
        };
        let data: &[u8] = if method == METHOD_RAW {
            body
        } else {
            self.block.resize(original, 0);
            match lz4_flex::block::decompress_into(body, &mut self.block) {
                Ok(n) if n == original => &self.block,
                Ok(n) => {
                    return Err(format!(
                        "the block decompresses to {n} bytes, its header says {original}"
                    ))
                }
                Err(e) => return Err(format!("corrupt LZ4 block: {e}")),
            }
        };
        let sum = xxhash_rust::xxh32::xxh32(data, SEED) & 0x0FFF_FFFF;
        if sum != check {
            return Err(format!(
                "checksum mismatch (block says {check:#x}, bytes give {sum:#x})"
            ));
        }
        out(data);
        self.ended = false;
        Ok(Step::Read(HEADER_BYTES + compressed))
    }

    fn may_end(&self) -> bool {
        // lz4-java's reader, with concatenated streams allowed (Spark's
        // default), ends cleanly at any block boundary; an `.inprogress`
        // log has no end mark yet.
        true
    }
}
