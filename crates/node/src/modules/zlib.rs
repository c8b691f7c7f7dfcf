//! `node:zlib`: gzip, deflate (zlib and raw) and brotli, one-shot (`gzipSync`, callbacks,
//! promises) and as Transform streams, in `js/zlib.js`; the codecs are flate2 (miniz_oxide,
//! pure Rust) and brotli, called here on whole inputs.
//!
//! A stream gathers its input and codes it when it ends, so its state is plain JS data that
//! rides an image (as a hash object's is, in `node:crypto`); output arrives at the end rather
//! than chunk by chunk. Compressed bytes are valid and deterministic, but not byte-identical
//! to Node's zlib at every level: programs compare decompressed data, not compressed bytes.

use std::io::{Read, Write};

use amber_engine::error::JsResult;
use amber_engine::runtime::convert::{to_number, to_rust_string};
use amber_engine::{HostFn, Value, Vm};

use super::buffer::{bytes_arg, new_buffer};
use super::Builtin;

pub const BUILTIN: Builtin = Builtin { name: "zlib", source: include_str!("js/zlib.js"), natives: NATIVES, bare: true };

const NATIVES: &[(&str, u32, HostFn)] = &[("code", 4, code), ("crc32", 2, crc32)];

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::UNDEFINED)
}

/// `code(mode, input, level, windowBits)` → a Buffer, or a string `"CODE|errno|message"`
/// (the JS side makes the Error Node throws).
fn code(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let mode = to_rust_string(vm, arg(args, 0))?;
    let input = bytes_arg(vm, arg(args, 1), "buffer")?;
    let level = to_number(vm, arg(args, 2))?;
    let level = if level.is_finite() && (0.0..=11.0).contains(&level) { level as u32 } else { 6 };
    let result = match mode.as_str() {
        "gzip" => compress(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level.min(9))), &input),
        "deflate" => {
            compress(flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(level.min(9))), &input)
        }
        "deflateRaw" => {
            compress(flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(level.min(9))), &input)
        }
        "gunzip" | "inflate" if !header_ok(&mode, &input) => Err(header_error()),
        "gunzip" => decompress(flate2::read::MultiGzDecoder::new(&input[..]), &input),
        "inflate" => decompress(flate2::read::ZlibDecoder::new(&input[..]), &input),
        "inflateRaw" => decompress(flate2::read::DeflateDecoder::new(&input[..]), &input),
        "unzip" if input.starts_with(&[0x1f, 0x8b]) => {
            decompress(flate2::read::MultiGzDecoder::new(&input[..]), &input)
        }
        "unzip" if !header_ok("inflate", &input) => Err(header_error()),
        "unzip" => decompress(flate2::read::ZlibDecoder::new(&input[..]), &input),
        "brotliCompress" => {
            let mut out = Vec::new();
            let params = brotli::enc::BrotliEncoderParams { quality: level.min(11) as i32, ..Default::default() };
            match brotli::BrotliCompress(&mut &input[..], &mut out, &params) {
                Ok(_) => Ok(out),
                Err(e) => Err(format!("ERR_ZLIB_INITIALIZATION_FAILED|-2|{e}")),
            }
        }
        "brotliDecompress" => {
            let mut out = Vec::new();
            match brotli::BrotliDecompress(&mut &input[..], &mut out) {
                Ok(()) => Ok(out),
                Err(_) => Err("ERR__ERROR_FORMAT_PADDING_1|-13|Decompression failed".to_string()),
            }
        }
        other => Err(format!("ERR_INVALID_ARG_VALUE|-2|unknown zlib mode {other}")),
    };
    match result {
        Ok(bytes) => new_buffer(vm, bytes),
        Err(e) => Ok(vm.str(&e)),
    }
}

fn compress<W: Write + Finish>(mut encoder: W, input: &[u8]) -> Result<Vec<u8>, String> {
    encoder.write_all(input).map_err(|e| format!("Z_STREAM_ERROR|-2|{e}"))?;
    encoder.finish_bytes().map_err(|e| format!("Z_STREAM_ERROR|-2|{e}"))
}

/// flate2's encoders' `finish`, as one trait.
trait Finish {
    fn finish_bytes(self) -> std::io::Result<Vec<u8>>;
}

impl Finish for flate2::write::GzEncoder<Vec<u8>> {
    fn finish_bytes(self) -> std::io::Result<Vec<u8>> {
        self.finish()
    }
}

impl Finish for flate2::write::ZlibEncoder<Vec<u8>> {
    fn finish_bytes(self) -> std::io::Result<Vec<u8>> {
        self.finish()
    }
}

impl Finish for flate2::write::DeflateEncoder<Vec<u8>> {
    fn finish_bytes(self) -> std::io::Result<Vec<u8>> {
        self.finish()
    }
}

/// Whether `input` starts as a gzip member or a zlib stream must (zlib checks the header
/// before anything else, and names a bad one so).
fn header_ok(mode: &str, input: &[u8]) -> bool {
    match (mode, input) {
        ("gunzip", [0x1f, 0x8b, ..]) => true,
        ("gunzip", [0x1f] | []) => true,
        ("inflate", [cmf, flg, ..]) => cmf & 0x0f == 8 && (u16::from(*cmf) * 256 + u16::from(*flg)) % 31 == 0,
        ("inflate", _) => true,
        _ => false,
    }
}

fn header_error() -> String {
    "Z_DATA_ERROR|-3|incorrect header check".to_string()
}

/// Decodes all of `input`; errors as zlib reports them (a bad header, a truncated stream).
fn decompress(mut decoder: impl Read, input: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    match decoder.read_to_end(&mut out) {
        Ok(_) => Ok(out),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof || input.is_empty() => {
            Err("Z_BUF_ERROR|-5|unexpected end of file".to_string())
        }
        Err(_) if out.is_empty() => Err("Z_DATA_ERROR|-3|incorrect header check".to_string()),
        Err(_) => Err("Z_DATA_ERROR|-3|invalid stored block lengths".to_string()),
    }
}

/// `crc32(data, value)` → the CRC-32 (IEEE) of `data`, continuing from `value` (zlib.crc32).
fn crc32(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let data = match arg(args, 0).as_string() {
        Some(_) => to_rust_string(vm, arg(args, 0))?.into_bytes(),
        None => bytes_arg(vm, arg(args, 0), "data")?,
    };
    let start = to_number(vm, arg(args, 1))?;
    let start = if start.is_finite() { start as u32 } else { 0 };
    Ok(Value::number(f64::from(crc32_update(start, &data))))
}

/// zlib's `crc32(crc, buf)`: reflected polynomial 0xEDB88320, bitwise (small inputs here).
fn crc32_update(crc: u32, data: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in data {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 };
        }
    }
    !c
}
