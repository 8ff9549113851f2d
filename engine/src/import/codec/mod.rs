//! The compression codecs Spark writes event logs with
//! (`spark.eventLog.compress=true`, `spark.eventLog.compression.codec`),
//! undone as the bytes stream, in front of the [`super::Importer`]'s
//! format detection.
//!
//! Each codec is Spark's *stream* framing around a block compressor, as
//! Spark 3.5's `org.apache.spark.io` codecs write it: lz4-java's
//! `LZ4BlockOutputStream` ([`lz4_block`]), snappy-java's
//! `SnappyOutputStream` ([`snappy_stream`]), compress-lzf's
//! `LZFOutputStream` ([`lzf`]) and zstd-jni's standard zstd frames
//! ([`zstd_frames`]). The codec is chosen by the stream's magic bytes; the
//! file name's extension (`.lz4`, `.lzf`, `.snappy`, `.zstd`, then
//! `.inprogress`) is only a hint, used to refuse a file named for a codec
//! whose bytes are not that codec's.
//!
//! Memory stays bounded: one block (at most [`MAX_BLOCK_BYTES`] either
//! side) is held at a time, and its decompressed bytes go to the importer
//! at once, where they count toward the same limits as a plain file's
//! (`MAX_LINE_BYTES`, the JSON tokenizer's), so a decompression bomb is
//! read like the huge plain file it stands for, never held.

mod lz4_block;
mod lzf;
mod snappy_stream;
mod zstd_frames;

use serde::{Deserialize, Serialize};
use std::fmt;

/// A compression codec Spark writes event logs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Codec {
    /// lz4-java's `LZ4BlockOutputStream` (Spark's `lz4`).
    Lz4,
    /// compress-lzf's `LZFOutputStream` (Spark's `lzf`).
    Lzf,
    /// snappy-java's `SnappyOutputStream` (Spark's `snappy`).
    Snappy,
    /// zstd frames (Spark's `zstd`, the 3.x default for event logs).
    Zstd,
}

impl Codec {
    /// Spark's short name, which is also the log file's extension.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Lz4 => "lz4",
            Codec::Lzf => "lzf",
            Codec::Snappy => "snappy",
            Codec::Zstd => "zstd",
        }
    }

    /// The codec a file name's extension names (`app-1.lz4`,
    /// `app-1.zstd.inprogress`), if any.
    pub fn from_file_name(file: &str) -> Option<Codec> {
        let name = file.strip_suffix(".inprogress").unwrap_or(file);
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "lz4" => Codec::Lz4,
            "lzf" => Codec::Lzf,
            "snappy" => Codec::Snappy,
            "zstd" | "zst" => Codec::Zstd,
            _ => return None,
        })
    }

    /// The codec whose magic bytes start `prefix`, `Err(())` when `prefix`
    /// is too short to say.
    fn from_magic(prefix: &[u8]) -> Result<Option<Codec>, ()> {
        const MAGICS: [(&[u8], Codec); 4] = [
            (lz4_block::MAGIC, Codec::Lz4),
            (snappy_stream::MAGIC, Codec::Snappy),
            (zstd_frames::MAGIC, Codec::Zstd),
            (lzf::MAGIC, Codec::Lzf),
        ];
        let mut undecided = false;
        for (magic, codec) in MAGICS {
            let n = magic.len().min(prefix.len());
            if prefix[..n] == magic[..n] {
                if n == magic.len() {
                    return Ok(Some(codec));
                }
                undecided = true;
            }
        }
        if undecided {
            Err(())
        } else {
            Ok(None)
        }
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest block a stream may declare, compressed or not: lz4-java's
/// own maximum block size (`LZ4BlockOutputStream.MAX_BLOCK_SIZE`, 32 MiB),
/// far above the 32 KiB Spark writes by default
/// (`spark.io.compression.{lz4,snappy}.blockSize`). A larger declared
/// length is refused, so a forged header cannot make the reader allocate
/// more.
pub(crate) const MAX_BLOCK_BYTES: usize = 1 << 25;

/// Why a compressed stream could not be read, at a byte offset of the
/// compressed file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CodecError {
    /// Offset in the compressed file of the block (or header) at fault.
    pub offset: u64,
    /// What is wrong, in words.
    pub reason: String,
}

/// What a stream format does with the bytes at the start of its input.
pub(crate) enum Step {
    /// A whole unit (header or block) of this many bytes was read; its
    /// decompressed bytes, if any, were handed over.
    Read(usize),
    /// The next unit is not all there yet.
    More,
}

/// One codec's stream framing: reads whole units from the front of the
/// compressed bytes, handing decompressed bytes to `out`.
pub(crate) trait StreamFormat {
    /// Reads the unit at the start of `input`, or says more is needed.
    fn step(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<Step, String>;

    /// Whether the stream may end here (between units, after any end mark
    /// the format requires).
    fn may_end(&self) -> bool;
}

/// A codec's decoder with the compressed bytes not read yet.
pub(crate) struct Decoder {
    codec: Codec,
    format: Box<dyn StreamFormat + Send>,
    /// Compressed bytes of the unit not yet whole.
    pending: Vec<u8>,
    /// Offset in the file of `pending[0]`.
    offset: u64,
}

impl Decoder {
    /// A decoder for `codec`.
    pub(crate) fn new(codec: Codec) -> Decoder {
        let format: Box<dyn StreamFormat + Send> = match codec {
            Codec::Lz4 => Box::new(lz4_block::Lz4Block::default()),
            Codec::Lzf => Box::new(lzf::Lzf::default()),
            Codec::Snappy => Box::new(snappy_stream::SnappyStream::default()),
            Codec::Zstd => Box::new(zstd_frames::ZstdFrames::default()),
        };
        Decoder {
            codec,
            format,
            pending: Vec::new(),
            offset: 0,
        }
    }

    /// The codec being undone.
    pub(crate) fn codec(&self) -> Codec {
        self.codec
    }

    /// Feeds compressed bytes; decompressed ones go to `out` block by block.
    /// Only the unfinished unit at the end is kept (with at most the rest
    /// of the chunk it arrived in).
    pub(crate) fn push(
        &mut self,
        chunk: &[u8],
        out: &mut dyn FnMut(&[u8]),
    ) -> Result<(), CodecError> {
        if self.pending.is_empty() {
            // Whole units straight from the chunk, without a copy.
            let at = self.run(chunk, out)?;
            self.pending.extend_from_slice(&chunk[at..]);
        } else {
            self.pending.extend_from_slice(chunk);
            let mut pending = std::mem::take(&mut self.pending);
            let at = self.run(&pending, out)?;
            pending.drain(..at);
            self.pending = pending;
        }
        Ok(())
    }

    /// Reads the whole units at the front of `input`; returns the bytes
    /// read.
    fn run(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<usize, CodecError> {
        let mut at = 0;
        while at < input.len() {
            match self.format.step(&input[at..], out) {
                Ok(Step::Read(n)) => {
                    at += n;
                    self.offset += n as u64;
                }
                Ok(Step::More) => break,
                Err(reason) => {
                    return Err(CodecError {
                        offset: self.offset,
                        reason,
                    })
                }
            }
        }
        Ok(at)
    }

    /// Ends the stream: an error if it stops inside a unit or before a
    /// required end mark.
    pub(crate) fn finish(&mut self) -> Result<(), CodecError> {
        if self.pending.is_empty() && self.format.may_end() {
            return Ok(());
        }
        Err(CodecError {
            offset: self.offset,
            reason: format!(
                "truncated ({} byte(s) of an unfinished block; an unfinished `.inprogress` log?)",
                self.pending.len()
            ),
        })
    }
}

/// What the first bytes of a file say about its compression.
pub(crate) enum Sniff {
    /// Too few bytes yet to tell.
    Undecided,
    /// Not compressed.
    Plain,
    /// Compressed with this codec.
    Compressed(Codec),
    /// Named for a codec (`.lz4` …) but without its magic bytes.
    Mismatch(Codec),
}

/// Tells a file's codec from its first bytes (`eof`: there are no more),
/// with its name as a hint.
pub(crate) fn sniff(file: &str, prefix: &[u8], eof: bool) -> Sniff {
    match Codec::from_magic(prefix) {
        Ok(Some(codec)) => Sniff::Compressed(codec),
        Err(()) if !eof => Sniff::Undecided,
        _ => match Codec::from_file_name(file) {
            Some(named) if !prefix.is_empty() && !looks_like_text(prefix) => Sniff::Mismatch(named),
            _ => Sniff::Plain,
        },
    }
}

/// Whether the bytes start like a text file (an event log saved
/// uncompressed under a codec's name is read as the text it is).
fn looks_like_text(prefix: &[u8]) -> bool {
    let text = prefix.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(prefix);
    text.iter()
        .take(16)
        .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace() || b >= 0x80)
}

#[cfg(test)]
mod tests;
