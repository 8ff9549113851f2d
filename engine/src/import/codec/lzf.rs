//! compress-lzf's `LZFOutputStream` (compress-lzf 1.1, Spark 3.5's
//! `LZFCompressionCodec`): chunks of at most 64 KiB, each `ZV`, a type
//! byte, then for type 0 (stored) a big-endian `u16` length and the bytes,
//! for type 1 (compressed) the compressed and decompressed lengths
//! (`u16`s) and LZF data. LZF (Marc Lehmann's liblzf, which compress-lzf's
//! `ChunkDecoder` follows) is a run of commands: a control byte below 32 is
//! a literal of `ctrl + 1` bytes; above, `ctrl >> 5` is the match length
//! − 2 (7: add the next byte) and the low 5 bits with the next byte the
//! distance back − 1.

use super::{Step, StreamFormat};

/// `LZFChunk.BYTE_Z`, `BYTE_V`.
pub(crate) const MAGIC: &[u8] = b"ZV";

const STORED: u8 = 0;
const COMPRESSED: u8 = 1;

/// Reads chunks.
#[derive(Default)]
pub(crate) struct Lzf {
    /// The chunk being decompressed, reused.
    block: Vec<u8>,
}

fn be_u16(b: &[u8]) -> usize {
    usize::from(u16::from_be_bytes([b[0], b[1]]))
}

/// Decompresses one LZF chunk into `out`, which must end up exactly
/// `expected` bytes long.
pub(crate) fn decompress(input: &[u8], expected: usize, out: &mut Vec<u8>) -> Result<(), String> {
    out.clear();
    out.reserve(expected);
    let mut i = 0;
    while i < input.len() {
        let ctrl = usize::from(input[i]);
        i += 1;
        if ctrl < 32 {
            let run = ctrl + 1;
            let lit = input
                .get(i..i + run)
                .ok_or_else(|| format!("a literal run of {run} bytes is cut short"))?;
            if out.len() + run > expected {
                return Err(format!("the chunk decompresses past its {expected} bytes"));
            }
            out.extend_from_slice(lit);
            i += run;
            continue;
        }
        let mut len = ctrl >> 5;
        if len == 7 {
            len += usize::from(*input.get(i).ok_or("a match length is cut short")?);
            i += 1;
        }
        len += 2;
        let low = usize::from(*input.get(i).ok_or("a match distance is cut short")?);
        i += 1;
        let back = ((ctrl & 0x1f) << 8) + low + 1;
        if back > out.len() {
            return Err(format!(
                "a match reaches {back} bytes back, before the chunk's start"
            ));
        }
        if out.len() + len > expected {
            return Err(format!("the chunk decompresses past its {expected} bytes"));
        }
        // Byte by byte: a match may overlap the bytes it produces.
        let from = out.len() - back;
        for k in 0..len {
            let b = out[from + k];
            out.push(b);
        }
    }
    if out.len() != expected {
        return Err(format!(
            "the chunk decompresses to {} bytes, its header says {expected}",
            out.len()
        ));
    }
    Ok(())
}

impl StreamFormat for Lzf {
    fn step(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<Step, String> {
        let magic = &input[..input.len().min(2)];
        if magic != &MAGIC[..magic.len()] {
            return Err("no `ZV` where a chunk starts".into());
        }
        if input.len() < 5 {
            return Ok(Step::More);
        }
        match input[2] {
            STORED => {
                let len = be_u16(&input[3..5]);
                let Some(body) = input.get(5..5 + len) else {
                    return Ok(Step::More);
                };
                out(body);
                Ok(Step::Read(5 + len))
            }
            COMPRESSED => {
                if input.len() < 7 {
                    return Ok(Step::More);
                }
                let (len, original) = (be_u16(&input[3..5]), be_u16(&input[5..7]));
                let Some(body) = input.get(7..7 + len) else {
                    return Ok(Step::More);
                };
                decompress(body, original, &mut self.block)?;
                out(&self.block);
                Ok(Step::Read(7 + len))
            }
            t => Err(format!("unknown chunk type {t}")),
        }
    }

    fn may_end(&self) -> bool {
        true
    }
}
