//! zstd frames (RFC 8878), as zstd-jni's `ZstdOutputStream` writes them
//! for Spark 3.5's `ZStdCompressionCodec`: a frame header, blocks of at
//! most 128 KiB each with a 3-byte header, an optional XXH64 content
//! checksum; frames may follow one another, and skippable frames are
//! skipped. The framing is read here so that `ruzstd`'s decoder is only
//! ever given whole blocks (it reads from a `Read` and cannot wait for
//! bytes that have not arrived).

use super::{Step, StreamFormat, MAX_BLOCK_BYTES};
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};

/// A zstd frame's magic number, little-endian.
pub(crate) const MAGIC: &[u8] = b"\x28\xB5\x2F\xFD";

/// The largest window accepted: zstd's own decoder default
/// (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`, 2^27), which zstd-jni's reader keeps;
/// Spark writes windows of 2^19–2^21 at its default levels. The decoder
/// keeps a window of history, so this bounds its memory.
const MAX_WINDOW: u64 = 1 << 27;

/// The largest block content (RFC 8878 §3.1.1.2.3).
const MAX_BLOCK: usize = 128 << 10;

/// Between frames, or inside one.
#[derive(Default)]
pub(crate) struct ZstdFrames {
    decoder: Option<Box<FrameDecoder>>,
    /// Inside a frame: whether it ends with a checksum.
    in_frame: Option<bool>,
    /// Decompressed bytes drained from the decoder, reused.
    drained: Vec<u8>,
}

/// The frame header's length and window size, once its first bytes are
/// there.
pub(super) fn frame_header(input: &[u8]) -> Option<Result<(usize, u64), String>> {
    let &fhd = input.get(4)?;
    if fhd & 0x08 != 0 {
        return Some(Err("the frame header's reserved bit is set".into()));
    }
    let single = fhd & 0x20 != 0;
    let dict = [0, 1, 2, 4][usize::from(fhd & 3)];
    let fcs = [usize::from(single), 2, 4, 8][usize::from(fhd >> 6)];
    let len = 5 + usize::from(!single) + dict + fcs;
    if input.len() < len {
        return None;
    }
    let window = if single {
        let b = &input[len - fcs..len];
        let mut v = 0u64;
        for (i, &x) in b.iter().enumerate() {
            v |= u64::from(x) << (8 * i);
        }
        if fcs == 2 {
            v + 256
        } else {
            v
        }
    } else {
        let desc = input[5];
        let log = 10 + u64::from(desc >> 3);
        let base = 1u64 << log;
        base + (base / 8) * u64::from(desc & 7)
    };
    Some(Ok((len, window)))
}

impl ZstdFrames {
    /// Reads a frame header (or skips a skippable frame).
    fn start(&mut self, input: &[u8]) -> Result<Step, String> {
        if input.len() < 4 {
            return Ok(Step::More);
        }
        if input[..4] != *MAGIC {
            // Skippable frames: magic 0x184D2A50..5F, a length, that much.
            if input[0] & 0xF0 == 0x50 && input[1..4] == [0x2A, 0x4D, 0x18] {
                if input.len() < 8 {
                    return Ok(Step::More);
                }
                let len = u32::from_le_bytes([input[4], input[5], input[6], input[7]]) as usize;
                if len > MAX_BLOCK_BYTES {
                    return Err(format!("a skippable frame of {len} bytes"));
                }
                return Ok(if input.len() < 8 + len {
                    Step::More
                } else {
                    Step::Read(8 + len)
                });
            }
            return Err("no zstd frame magic where a frame starts".into());
        }
        let (len, window) = match frame_header(input) {
            None => return Ok(Step::More),
            Some(h) => h?,
        };
        if window > MAX_WINDOW {
            return Err(format!(
                "the frame's window is {window} bytes, over zstd's default limit of {MAX_WINDOW}"
            ));
        }
        let decoder = self
            .decoder
            .get_or_insert_with(|| Box::new(FrameDecoder::new()));
        let mut header = &input[..len];
        decoder
            .reset(&mut header)
            .map_err(|e| format!("bad frame header: {e}"))?;
        self.in_frame = Some(input[4] & 0x04 != 0);
        Ok(Step::Read(len))
    }

    /// Takes what the decoder holds beyond its window (or all of it at
    /// the frame's end) into `drained`.
    fn drain(&mut self) -> Result<(), String> {
        self.drained.clear();
        if let Some(decoder) = self.decoder.as_mut() {
            decoder
                .collect_to_writer(&mut self.drained)
                .map_err(|e| format!("decoder output: {e}"))?;
        }
        Ok(())
    }
}

impl StreamFormat for ZstdFrames {
    fn step(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<Step, String> {
        let Some(checksum) = self.in_frame else {
            return self.start(input);
        };
        if input.len() < 3 {
            return Ok(Step::More);
        }
        let header = u32::from_le_bytes([input[0], input[1], input[2], 0]);
        let last = header & 1 != 0;
        let size = (header >> 3) as usize;
        let content = match (header >> 1) & 3 {
            0 | 2 => size,
            1 => 1,
            _ => return Err("a block of the reserved type".into()),
        };
        if size > MAX_BLOCK {
            return Err(format!("a block of {size} bytes (zstd allows 128 KiB)"));
        }
        let total = 3 + content + if last && checksum { 4 } else { 0 };
        if input.len() < total {
            return Ok(Step::More);
        }
        let decoder = self
            .decoder
            .as_mut()
            .ok_or("a block before any frame header")?;
        decoder
            .decode_blocks(&input[..total], BlockDecodingStrategy::UptoBlocks(1))
            .map_err(|e| format!("corrupt zstd block: {e}"))?;
        self.drain()?;
        if last {
            if checksum {
                let decoder = self.decoder.as_ref().ok_or("no decoder")?;
                let (stated, computed) = (
                    decoder.get_checksum_from_data(),
                    decoder.get_calculated_checksum(),
                );
                if stated != computed {
                    return Err(format!(
                        "content checksum mismatch (frame says {:#x}, bytes give {:#x})",
                        stated.unwrap_or(0),
                        computed.unwrap_or(0)
                    ));
                }
            }
            self.in_frame = None;
        }
        if !self.drained.is_empty() {
            out(&self.drained);
        }
        Ok(Step::Read(total))
    }

    fn may_end(&self) -> bool {
        self.in_frame.is_none()
    }
}
