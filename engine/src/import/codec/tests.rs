//! The codecs against Spark's own output: one application's event log
//! written by Spark 3.5.8 (`app.plain`) and the same log written through
//! each of Spark's codec classes (`app.lz4` …), plus a log Spark compressed
//! itself (`genuine.zstd`); see `fixtures/real/spark-eventlogs/`. Then cut,
//! corrupt and bomb-like streams: a located error or a bounded read, never
//! a panic.

use super::super::{import, Format, ImportError, ImportOptions, Importer, LoadedFile};
use super::*;

macro_rules! log {
    ($name:literal) => {
        include_bytes!(concat!("../../../../fixtures/real/spark-eventlogs/", $name)).as_slice()
    };
}

const PLAIN: &[u8] = log!("app.plain");

/// Each compressed sample, its codec and the name Spark gives such a log.
const SAMPLES: [(&str, Codec, &[u8]); 4] = [
    ("local-1.lz4", Codec::Lz4, log!("app.lz4")),
    ("local-1.lzf", Codec::Lzf, log!("app.lzf")),
    ("local-1.snappy", Codec::Snappy, log!("app.snappy")),
    ("local-1.zstd", Codec::Zstd, log!("app.zstd")),
];

fn lenient() -> ImportOptions {
    ImportOptions {
        lenient: true,
        ..ImportOptions::default()
    }
}

/// Decompresses `bytes` pushed in chunks of `chunk` bytes.
fn decompress(codec: Codec, bytes: &[u8], chunk: usize) -> Result<Vec<u8>, CodecError> {
    let mut decoder = Decoder::new(codec);
    let mut text = Vec::new();
    for part in bytes.chunks(chunk) {
        decoder.push(part, &mut |b| text.extend_from_slice(b))?;
        assert!(
            decoder.pending.len() <= chunk + MAX_BLOCK_BYTES,
            "only the unfinished unit is kept"
        );
    }
    decoder.finish()?;
    Ok(text)
}

fn load(name: &str, bytes: &[u8]) -> LoadedFile {
    match import(name, bytes, ImportOptions::default()) {
        Ok(f) => f,
        Err(e) => panic!("{name}: {e}"),
    }
}

/// The compressed error of a refused import.
fn codec_error(name: &str, bytes: &[u8]) -> (Codec, u64, String) {
    match import(name, bytes, ImportOptions::default()) {
        Err(ImportError::Compressed {
            codec,
            offset,
            reason,
            ..
        }) => (codec, offset, reason),
        Err(e) => panic!("{name}: not a codec error: {e}"),
        Ok(f) => panic!("{name} loaded: {:?}", f.summary()),
    }
}

#[test]
fn every_codec_decompresses_to_sparks_plain_log() {
    for (name, codec, bytes) in SAMPLES {
        assert_eq!(
            Codec::from_magic(bytes),
            Ok(Some(codec)),
            "{name}: told by its magic"
        );
        let text = decompress(codec, bytes, 1 << 20).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(text == PLAIN, "{name}: decompresses to app.plain exactly");
    }
}

#[test]
fn every_chunk_boundary_gives_the_same_bytes() {
    // One byte at a time puts a chunk boundary at every byte of the file;
    // a cut at each offset of the first blocks' headers is checked too.
    for (name, codec, bytes) in SAMPLES {
        let text = decompress(codec, bytes, 1).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(text == PLAIN, "{name}: byte by byte");
        for cut in 1..64.min(bytes.len()) {
            let mut decoder = Decoder::new(codec);
            let mut text = Vec::new();
            let mut sink = |b: &[u8]| text.extend_from_slice(b);
            decoder.push(&bytes[..cut], &mut sink).expect("first part");
            decoder.push(&bytes[cut..], &mut sink).expect("second part");
            decoder.finish().expect("whole");
            assert!(text == PLAIN, "{name}: cut at {cut}");
        }
    }
}

#[test]
fn compressed_logs_import_to_the_plain_logs_runs() {
    let plain = load("local-1", PLAIN);
    assert_eq!(plain.format, Format::SparkEventLog);
    assert_eq!(plain.data.runs.len(), 1, "one application");
    for (name, codec, bytes) in SAMPLES {
        let f = load(name, bytes);
        assert_eq!(f.format, Format::SparkEventLog, "{name}");
        assert_eq!(f.data, plain.data, "{name}: same runs as the plain log");
        assert_eq!(f.lines, plain.lines, "{name}");
        assert_eq!(f.bytes, bytes.len() as u64, "{name}: the file's own size");
        // Streamed in any chunks, the import is the same.
        for chunk in [1, 7, 4096] {
            let mut imp = Importer::new(name, ImportOptions::default());
            for part in bytes.chunks(chunk) {
                imp.push(part);
            }
            assert_eq!(imp.codec(), Some(codec), "{name}");
            let streamed = imp.finish().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(streamed, f, "{name} in chunks of {chunk}");
        }
    }
}

#[test]
fn a_log_spark_compressed_itself_reads() {
    let f = load("local-1764000000000.zstd", log!("genuine.zstd"));
    assert_eq!(f.format, Format::SparkEventLog);
    assert_eq!(f.data.runs.len(), 1);
    assert_eq!(f.data.runs[0].job, "skyplan_codec_fixture_zstd");
}

#[test]
fn a_truncated_stream_is_located() {
    for (name, codec, bytes) in SAMPLES {
        // Cut in the last blocks, after the application's start event.
        let cut = &bytes[..bytes.len() * 9 / 10];
        let (c, offset, reason) = codec_error(name, cut);
        assert_eq!(c, codec, "{name}");
        assert!(offset < cut.len() as u64, "{name}: {offset}");
        assert!(reason.contains("truncated"), "{name}: {reason}");
        // Lenient: what came before the cut is kept, the cut is a warning.
        let f = import(name, cut, lenient()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            f.warnings.iter().any(|w| w.reason.contains("truncated")),
            "{name}: {:?}",
            f.warnings
        );
    }
}

#[test]
fn an_unfinished_lz4_log_ends_at_its_last_whole_block() {
    // An `.inprogress` lz4 log has whole blocks and no end mark yet: Spark's
    // reader reads it, and so does this one.
    let bytes = log!("app.lz4");
    let first_len = u32::from_le_bytes([bytes[9], bytes[10], bytes[11], bytes[12]]) as usize;
    let whole_block = &bytes[..21 + first_len];
    let text = decompress(Codec::Lz4, whole_block, 4096).expect("a block boundary is an end");
    assert!(PLAIN.starts_with(&text) && !text.is_empty());
}

#[test]
fn corrupt_blocks_and_checksums_are_located() {
    // lz4: the first block's checksum.
    let mut lz4 = log!("app.lz4").to_vec();
    lz4[17] ^= 0x01;
    let (_, offset, reason) = codec_error("a.lz4", &lz4);
    assert_eq!(offset, 0);
    assert!(reason.contains("checksum mismatch"), "{reason}");
    // lz4: the second block's magic.
    let mut lz4 = log!("app.lz4").to_vec();
    let first_len = u32::from_le_bytes([lz4[9], lz4[10], lz4[11], lz4[12]]) as usize;
    lz4[21 + first_len] = b'X';
    let (_, offset, reason) = codec_error("a.lz4", &lz4);
    assert_eq!(offset, 21 + first_len as u64);
    assert!(reason.contains("magic"), "{reason}");
    // snappy: a chunk length beyond any block.
    let mut snappy = log!("app.snappy").to_vec();
    snappy[16] = 0x7F;
    let (_, offset, reason) = codec_error("a.snappy", &snappy);
    assert_eq!(offset, 16);
    assert!(reason.contains("impossible chunk length"), "{reason}");
    // lzf: an unknown chunk type.
    let mut lzf = log!("app.lzf").to_vec();
    lzf[2] = 9;
    let (_, offset, reason) = codec_error("a.lzf", &lzf);
    assert_eq!(offset, 0);
    assert!(reason.contains("unknown chunk type 9"), "{reason}");
    // lzf: a match reaching before the chunk.
    assert!(lzf::decompress(&[0x20, 0x05], 3, &mut Vec::new())
        .unwrap_err()
        .contains("before the chunk's start"));
    // zstd: a block of the reserved type right after the frame header.
    let mut zstd = log!("app.zstd").to_vec();
    let Some(Ok((header, _))) = zstd_frames::frame_header(&zstd) else {
        panic!("a frame header");
    };
    zstd[header] |= 0b110;
    let (_, offset, reason) = codec_error("a.zstd", &zstd);
    assert_eq!(offset, header as u64);
    assert!(reason.contains("reserved"), "{reason}");
    // A file named for a codec without its magic (nor text) is refused.
    let (codec, offset, reason) = codec_error("a.zstd", b"\x00\x01\x02\x03garbage");
    assert_eq!((codec, offset), (Codec::Zstd, 0));
    assert!(reason.contains("magic"), "{reason}");
    // …but a plain log saved under a codec's name is read as the text it is.
    assert_eq!(load("local-1.lz4", PLAIN).data, load("local-1", PLAIN).data);
}

/// An `LZ4BlockOutputStream` of `text` in blocks of `block` bytes (the
/// framing written to lz4-java's source; the samples above check it
/// against lz4-java itself).
fn lz4_stream(text: &[u8], block: usize) -> Vec<u8> {
    let level = (block.next_power_of_two().trailing_zeros() - 10) as u8;
    let mut out = Vec::new();
    for part in text.chunks(block) {
        let body = lz4_flex::block::compress(part);
        out.extend_from_slice(b"LZ4Block");
        out.push(0x20 | level);
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&(part.len() as u32).to_le_bytes());
        let sum = xxhash_rust::xxh32::xxh32(part, 0x9747_b28c) & 0x0FFF_FFFF;
        out.extend_from_slice(&sum.to_le_bytes());
        out.extend_from_slice(&body);
    }
    out.extend_from_slice(b"LZ4Block");
    out.push(0x10 | level);
    out.extend_from_slice(&[0; 12]);
    out
}

#[test]
fn the_lz4_writer_here_matches_lz4_java() {
    // The test writer reads back like Spark's own file does.
    let ours = lz4_stream(PLAIN, 32 << 10);
    assert!(decompress(Codec::Lz4, &ours, 4096).expect("ours") == PLAIN);
}

#[test]
fn a_decompression_bomb_counts_as_the_plain_file_it_stands_for() {
    // 40 MiB of one line in a ~160 KiB lz4 stream: the line limit of a
    // plain file applies to the decompressed text, which is never held
    // whole (the decoder keeps one block; the importer skips the line).
    let mut text = b"timestamp,value\n2024-01-01 00:00:00,1\n".to_vec();
    text.extend(std::iter::repeat_n(b'x', 40 << 20));
    text.extend_from_slice(b"\n2024-01-01 00:05:00,2\n");
    let bomb = lz4_stream(&text, 4 << 20);
    assert!(bomb.len() < 400 << 10, "{} bytes", bomb.len());
    drop(text);
    let mut imp = Importer::new("bomb.lz4", lenient());
    for part in bomb.chunks(64 << 10) {
        imp.push(part);
        assert!(imp.tail.len() <= super::super::MAX_LINE_BYTES);
    }
    let f = imp.finish().expect("the good lines load");
    assert_eq!(f.data.series[0].values.len(), 2);
    assert!(f.warnings[0].reason.contains("longer than 16 MiB"));
    // A JSON bomb: one event with a 40 MiB string, then the real log.
    let mut text = b"{\"Event\":\"SparkListenerLogStart\",\"Pad\":\"".to_vec();
    text.extend(std::iter::repeat_n(b'a', 40 << 20));
    text.extend_from_slice(b"\"}\n");
    text.extend_from_slice(PLAIN);
    let bomb = lz4_stream(&text, 4 << 20);
    drop(text);
    let f = import("bomb.lz4", &bomb, ImportOptions::default()).expect("the log loads");
    assert_eq!(f.data, load("local-1", PLAIN).data);
}

#[test]
fn codecs_are_named_as_spark_names_them() {
    assert_eq!(Codec::from_file_name("app-1.lz4"), Some(Codec::Lz4));
    assert_eq!(
        Codec::from_file_name("logs/local-17.zstd.inprogress"),
        Some(Codec::Zstd)
    );
    assert_eq!(
        Codec::from_file_name("eventlog_v2_app/events_1_app.snappy"),
        Some(Codec::Snappy)
    );
    assert_eq!(Codec::from_file_name("app.LZF"), Some(Codec::Lzf));
    assert_eq!(Codec::from_file_name("application_1_0001"), None);
    assert_eq!(Codec::Zstd.to_string(), "zstd");
}

#[test]
fn a_flipped_byte_anywhere_never_panics() {
    // Damage at every 61st byte of each sample: a located codec error, a
    // located parse error, or (where the damage only changes text) a load.
    for (name, _, bytes) in SAMPLES {
        for at in (0..bytes.len()).step_by(61) {
            let mut damaged = bytes.to_vec();
            damaged[at] ^= 0x5A;
            for options in [ImportOptions::default(), lenient()] {
                if let Err(ImportError::Compressed { offset, .. }) = import(name, &damaged, options)
                {
                    assert!(
                        offset <= at as u64,
                        "{name}: damage at {at}, error at {offset}"
                    );
                }
            }
        }
    }
}
