//! `node:crypto` and Web Crypto (`crypto.subtle`): the JavaScript surface is `js/crypto.js`;
//! the primitives are the RustCrypto crates, called here.
//!
//! Hashing (SHA-1/2/3, SHAKE, MD5), HMAC, PBKDF2, HKDF, scrypt and the AES (CBC, GCM, CTR),
//! ChaCha20-Poly1305 and DES ciphers are pure functions of their inputs and run inline.
//! Asymmetric keys live in `keys` (parse, encode, JWK, generate), signatures and RSA
//! encryption in `sign`, key agreement in `exchange`. A hash object's state between `update` calls is the list of chunks fed so far
//! (plain JS data that rides an image); the digest is computed at `digest()`.
//!
//! Randomness goes through the engine's entropy hook ([`Vm::entropy_hook`]), which the
//! embedder sets per its policy (DESIGN §7: Captured by default, every value journaled).
//! Without a hook, drawing random bytes throws: the engine never invents entropy.

use aes::cipher::generic_array::GenericArray;
use aes::cipher::{BlockDecrypt, BlockDecryptMut, BlockEncrypt, BlockEncryptMut, InnerIvInit, KeyInit, KeyIvInit};
use aes_gcm::aead::AeadInPlace;
use amber_engine::error::JsResult;
use amber_engine::runtime::convert::{to_number, to_rust_string};
use amber_engine::{HostFn, Value, Vm};
use hmac::{Hmac, Mac};
use sha2::Digest;

use super::buffer::{bytes_arg, new_buffer, view_range, with_view_bytes_mut};
use super::Builtin;

pub const BUILTIN: Builtin = Builtin {
    name: "crypto",
    source: concat!(include_str!("js/crypto.js"), include_str!("js/crypto_keys.js")),
    natives: NATIVES,
    bare: true,
};

/// `node:internal/crypto_types`: the brand checks behind `util.types.isKeyObject` and
/// `isCryptoKey` (node:crypto replaces them when it loads; until then no key exists, so
/// false), and Node's `customPromisifyArgs` symbol, with which `util.promisify` resolves
/// `generateKeyPair` to `{ publicKey, privateKey }`.
pub const TYPES: Builtin = Builtin {
    name: "internal/crypto_types",
    source: "module.exports = { isKeyObject: () => false, isCryptoKey: () => false, \
             customPromisifyArgs: Symbol('customPromisifyArgs') };\n",
    natives: &[],
    bare: false,
};

const NATIVES: &[(&str, u32, HostFn)] = &[
    ("hash", 2, hash),
    ("hmac", 3, hmac),
    ("pbkdf2", 5, pbkdf2),
    ("hkdf", 5, hkdf),
    ("gcmCtr", 4, gcm_ctr),
    ("gcmTag", 4, gcm_tag),
    ("cbc", 4, cbc),
    ("des", 4, des_blocks),
    ("randomFill", 4, random_fill),
    ("enabled", 0, enabled),
    ("scrypt", 6, scrypt),
    ("ctr", 4, aes_ctr),
    ("chachaXor", 4, chacha_xor),
    ("chachaTag", 4, chacha_tag),
    ("keyImport", 2, keys::key_import),
    ("keyPublic", 1, keys::key_public),
    ("keyExport", 3, keys::key_export),
    ("keyDetails", 2, keys::key_details),
    ("keyJwk", 2, keys::key_jwk),
    ("keyFromJwk", 5, keys::key_from_jwk),
    ("keyGenerate", 4, keys::key_generate),
    ("keyDecrypt", 2, keys::key_decrypt),
    ("keyEncrypt", 4, keys::key_encrypt),
    ("sign", 7, sign::sign),
    ("verify", 8, sign::verify),
    ("rsaCrypt", 8, sign::rsa_crypt),
    ("ecdhGenerate", 2, exchange::ecdh_generate),
    ("ecdhPublic", 3, exchange::ecdh_public),
    ("ecdhConvert", 3, exchange::ecdh_convert),
    ("ecdhCompute", 3, exchange::ecdh_compute),
    ("deriveShared", 2, exchange::derive_shared),
    ("modPow", 3, exchange::mod_pow),
];

/// `vm.host_state` entry an embedder sets (any bytes) when the policy disables crypto.
pub const DISABLED_KEY: &str = "node.crypto.disabled";

/// Digest algorithms, by Node name (lower case).
const DIGESTS: &[&str] = &[
    "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "shake128",
    "shake256",
];

/// The canonical Node name of a digest (lower case, aliases folded), if supported.
fn digest_name(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    let name = match name.as_str() {
        "sha-1" | "rsa-sha1" | "sha1withrsaencryption" => "sha1",
        "sha-224" | "rsa-sha224" | "sha224withrsaencryption" => "sha224",
        "sha-256" | "rsa-sha256" | "sha256withrsaencryption" => "sha256",
        "sha-384" | "rsa-sha384" | "sha384withrsaencryption" => "sha384",
        "sha-512" | "rsa-sha512" | "sha512withrsaencryption" => "sha512",
        "rsa-md5" => "md5",
        other => other,
    };
    DIGESTS.iter().find(|d| **d == name).copied()
}

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::UNDEFINED)
}

/// A fixed-length digest argument (not a SHAKE).
fn digest_arg(vm: &mut Vm, v: Value) -> JsResult<&'static str> {
    let name = to_rust_string(vm, v)?;
    match digest_name(&name) {
        Some(d) if !d.starts_with("shake") => Ok(d),
        _ => Err(vm.type_error(format!("Invalid digest: {name}"))),
    }
}

fn usize_arg(vm: &mut Vm, v: Value) -> JsResult<usize> {
    let n = to_number(vm, v)?;
    if !(0.0..=f64::from(u32::MAX)).contains(&n) {
        return Err(vm.range_error("length out of range"));
    }
    Ok(n as usize)
}

fn touch(vm: &mut Vm, capability: &str) {
    crate::capabilities::touch(vm, capability);
}

macro_rules! with_digest {
    ($name:expr, $d:ident => $body:expr) => {
        match $name {
            "md5" => {
                type $d = md5::Md5;
                $body
            }
            "sha1" => {
                type $d = sha1::Sha1;
                $body
            }
            "sha224" => {
                type $d = sha2::Sha224;
                $body
            }
            "sha384" => {
                type $d = sha2::Sha384;
                $body
            }
            "sha512" => {
                type $d = sha2::Sha512;
                $body
            }
            "sha3-224" => {
                type $d = sha3::Sha3_224;
                $body
            }
            "sha3-256" => {
                type $d = sha3::Sha3_256;
                $body
            }
            "sha3-384" => {
                type $d = sha3::Sha3_384;
                $body
            }
            "sha3-512" => {
                type $d = sha3::Sha3_512;
                $body
            }
            _ => {
                type $d = sha2::Sha256;
                $body
            }
        }
    };
}

mod exchange;
mod keys;
mod sign;

/// `hash(algorithm, data, outputLength)` → Buffer; `outputLength` is a SHAKE's output size.
fn hash(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let name = to_rust_string(vm, arg(args, 0))?;
    let Some(alg) = digest_name(&name) else { return Err(vm.type_error(format!("Invalid digest: {name}"))) };
    let data = bytes_arg(vm, arg(args, 1), "data")?;
    touch(vm, "CryptoHash");
    if alg.starts_with("shake") {
        use sha3::digest::{ExtendableOutput, Update, XofReader};
        let len = usize_arg(vm, arg(args, 2))?;
        vm.charge(len as u64 / 64)?;
        let mut out = vec![0u8; len];
        if alg == "shake128" {
            sha3::Shake128::default().chain(&data).finalize_xof().read(&mut out);
        } else {
            sha3::Shake256::default().chain(&data).finalize_xof().read(&mut out);
        }
        return new_buffer(vm, out);
    }
    let out: Vec<u8> = with_digest!(alg, D => D::digest(&data).to_vec());
    new_buffer(vm, out)
}

fn hmac_bytes(alg: &str, key: &[u8], data: &[u8]) -> Vec<u8> {
    with_digest!(alg, D => {
        // HMAC takes keys of every length: new_from_slice cannot fail.
        match <Hmac<D> as Mac>::new_from_slice(key) {
            Ok(mut mac) => {
                mac.update(data);
                mac.finalize().into_bytes().to_vec()
            }
            Err(_) => Vec::new(),
        }
    })
}

/// `hmac(algorithm, key, data)` → Buffer.
fn hmac(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let alg = digest_arg(vm, arg(args, 0))?;
    let key = bytes_arg(vm, arg(args, 1), "key")?;
    let data = bytes_arg(vm, arg(args, 2), "data")?;
    touch(vm, "CryptoHash");
    let out = hmac_bytes(alg, &key, &data);
    new_buffer(vm, out)
}

/// `pbkdf2(digest, password, salt, iterations, keylen)` → Buffer.
fn pbkdf2(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let alg = digest_arg(vm, arg(args, 0))?;
    let password = bytes_arg(vm, arg(args, 1), "password")?;
    let salt = bytes_arg(vm, arg(args, 2), "salt")?;
    let rounds = to_number(vm, arg(args, 3))?;
    if !(1.0..=f64::from(u32::MAX)).contains(&rounds) {
        return Err(vm.range_error("iterations out of range"));
    }
    let len = usize_arg(vm, arg(args, 4))?;
    // Iterations cost fuel like any other work: a huge count is a resource limit.
    vm.charge((rounds as u64).saturating_mul(len.div_ceil(20) as u64))?;
    touch(vm, "CryptoHash");
    let mut out = vec![0u8; len];
    with_digest!(alg, D => pbkdf2::pbkdf2_hmac::<D>(&password, &salt, rounds as u32, &mut out));
    new_buffer(vm, out)
}

/// `hkdf(digest, ikm, salt, info, keylen)` → Buffer; RangeError past 255 × hash length.
fn hkdf(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let alg = digest_arg(vm, arg(args, 0))?;
    let ikm = bytes_arg(vm, arg(args, 1), "ikm")?;
    let salt = bytes_arg(vm, arg(args, 2), "salt")?;
    let info = bytes_arg(vm, arg(args, 3), "info")?;
    let len = usize_arg(vm, arg(args, 4))?;
    touch(vm, "CryptoHash");
    let mut out = vec![0u8; len];
    let ok = with_digest!(alg, D => hkdf::Hkdf::<D>::new(Some(&salt), &ikm).expand(&info, &mut out).is_ok());
    if !ok {
        return Err(vm.range_error("Invalid key length"));
    }
    new_buffer(vm, out)
}

/// An AES key schedule of any supported size.
enum Aes {
    A128(aes::Aes128),
    A192(aes::Aes192),
    A256(aes::Aes256),
}

impl Aes {
    fn new(key: &[u8]) -> Option<Aes> {
        Some(match key.len() {
            16 => Aes::A128(aes::Aes128::new_from_slice(key).ok()?),
            24 => Aes::A192(aes::Aes192::new_from_slice(key).ok()?),
            32 => Aes::A256(aes::Aes256::new_from_slice(key).ok()?),
            _ => return None,
        })
    }

    fn encrypt(&self, block: &mut [u8; 16]) {
        let b = GenericArray::from_mut_slice(block);
        match self {
            Aes::A128(c) => c.encrypt_block(b),
            Aes::A192(c) => c.encrypt_block(b),
            Aes::A256(c) => c.encrypt_block(b),
        }
    }
}

fn key_and_iv(vm: &mut Vm, args: &[Value], iv_len: usize) -> JsResult<(Aes, Vec<u8>)> {
    let key = bytes_arg(vm, arg(args, 0), "key")?;
    let iv = bytes_arg(vm, arg(args, 1), "iv")?;
    let Some(aes) = Aes::new(&key) else { return Err(vm.range_error("Invalid key length")) };
    if iv.len() != iv_len {
        return Err(vm.type_error("Invalid initialization vector"));
    }
    Ok((aes, iv))
}

/// `gcmCtr(key, iv, offset, data)` → data XOR the GCM keystream from byte `offset` of the
/// message (counter blocks `iv ‖ be32(2 + i)`): encryption and decryption alike, so update()
/// can stream.
fn gcm_ctr(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (aes, iv) = key_and_iv(vm, args, 12)?;
    let offset = to_number(vm, arg(args, 2))?;
    if !(0.0..=68_719_476_704.0).contains(&offset) {
        return Err(vm.range_error("message too long for GCM"));
    }
    let offset = offset as u64;
    let mut data = bytes_arg(vm, arg(args, 3), "data")?;
    let mut block_index = offset / 16;
    let mut skip = (offset % 16) as usize;
    let mut pos = 0;
    while pos < data.len() {
        let mut block = [0u8; 16];
        block[..12].copy_from_slice(&iv);
        let counter = (block_index as u32).wrapping_add(2);
        block[12..].copy_from_slice(&counter.to_be_bytes());
        aes.encrypt(&mut block);
        for k in &block[skip..] {
            if pos == data.len() {
                break;
            }
            data[pos] ^= k;
            pos += 1;
        }
        skip = 0;
        block_index += 1;
    }
    new_buffer(vm, data)
}

/// `gcmTag(key, iv, aad, plaintext)` → the 16-byte GCM tag of the whole message.
fn gcm_tag(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let key = bytes_arg(vm, arg(args, 0), "key")?;
    let iv = bytes_arg(vm, arg(args, 1), "iv")?;
    let aad = bytes_arg(vm, arg(args, 2), "aad")?;
    let mut data = bytes_arg(vm, arg(args, 3), "data")?;
    if iv.len() != 12 {
        return Err(vm.type_error("Invalid initialization vector"));
    }
    let nonce = GenericArray::from_slice(&iv);
    let tag = match key.len() {
        16 => aes_gcm::Aes128Gcm::new_from_slice(&key)
            .ok()
            .and_then(|c| c.encrypt_in_place_detached(nonce, &aad, &mut data).ok()),
        24 => aes_gcm::AesGcm::<aes::Aes192, aes_gcm::aead::consts::U12>::new_from_slice(&key)
            .ok()
            .and_then(|c| c.encrypt_in_place_detached(nonce, &aad, &mut data).ok()),
        32 => aes_gcm::Aes256Gcm::new_from_slice(&key)
            .ok()
            .and_then(|c| c.encrypt_in_place_detached(nonce, &aad, &mut data).ok()),
        _ => None,
    };
    match tag {
        Some(tag) => new_buffer(vm, tag.to_vec()),
        None => Err(vm.range_error("Invalid key length")),
    }
}

/// `cbc(key, iv, data, encrypt)` → AES-CBC over whole blocks (padding is the caller's).
fn cbc(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let key = bytes_arg(vm, arg(args, 0), "key")?;
    let iv = bytes_arg(vm, arg(args, 1), "iv")?;
    let mut data = bytes_arg(vm, arg(args, 2), "data")?;
    let encrypt = amber_engine::runtime::convert::to_boolean(vm, arg(args, 3));
    if iv.len() != 16 {
        return Err(vm.type_error("Invalid initialization vector"));
    }
    if !data.len().is_multiple_of(16) {
        return Err(vm.range_error("data is not a whole number of blocks"));
    }
    macro_rules! run {
        ($c:ty) => {{
            if encrypt {
                match cbc::Encryptor::<$c>::new_from_slices(&key, &iv) {
                    Ok(mut mode) => {
                        for chunk in data.chunks_exact_mut(16) {
                            mode.encrypt_block_mut(GenericArray::from_mut_slice(chunk));
                        }
                        true
                    }
                    Err(_) => false,
                }
            } else {
                match cbc::Decryptor::<$c>::new_from_slices(&key, &iv) {
                    Ok(mut mode) => {
                        for chunk in data.chunks_exact_mut(16) {
                            mode.decrypt_block_mut(GenericArray::from_mut_slice(chunk));
                        }
                        true
                    }
                    Err(_) => false,
                }
            }
        }};
    }
    let ok = match key.len() {
        16 => run!(aes::Aes128),
        24 => run!(aes::Aes192),
        32 => run!(aes::Aes256),
        _ => false,
    };
    if !ok {
        return Err(vm.range_error("Invalid key length"));
    }
    new_buffer(vm, data)
}

/// `des(key, iv, data, encrypt)` → DES (8-byte key), two-key 3DES EDE (16) or three-key
/// 3DES EDE (24) over whole 8-byte blocks: CBC with an 8-byte `iv`, ECB with an empty one
/// (padding is the caller's).
fn des_blocks(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let key = bytes_arg(vm, arg(args, 0), "key")?;
    let iv = bytes_arg(vm, arg(args, 1), "iv")?;
    let mut data = bytes_arg(vm, arg(args, 2), "data")?;
    let encrypt = amber_engine::runtime::convert::to_boolean(vm, arg(args, 3));
    if !iv.is_empty() && iv.len() != 8 {
        return Err(vm.type_error("Invalid initialization vector"));
    }
    if !data.len().is_multiple_of(8) {
        return Err(vm.range_error("data is not a whole number of blocks"));
    }
    fn run<C>(key: &[u8], iv: &[u8], data: &mut [u8], encrypt: bool) -> bool
    where
        C: KeyInit + BlockEncrypt + BlockDecrypt + aes::cipher::BlockCipher<BlockSize = aes::cipher::consts::U8>,
    {
        let Ok(cipher) = C::new_from_slice(key) else { return false };
        let blocks = data.chunks_exact_mut(8).map(GenericArray::from_mut_slice);
        match (iv.is_empty(), encrypt) {
            (true, true) => blocks.for_each(|b| cipher.encrypt_block(b)),
            (true, false) => blocks.for_each(|b| cipher.decrypt_block(b)),
            (false, true) => {
                let Ok(mut mode) = cbc::Encryptor::<C>::inner_iv_slice_init(cipher, iv) else { return false };
                blocks.for_each(|b| mode.encrypt_block_mut(b));
            }
            (false, false) => {
                let Ok(mut mode) = cbc::Decryptor::<C>::inner_iv_slice_init(cipher, iv) else { return false };
                blocks.for_each(|b| mode.decrypt_block_mut(b));
            }
        }
        true
    }
    let ok = match key.len() {
        8 => run::<des::Des>(&key, &iv, &mut data, encrypt),
        16 => run::<des::TdesEde2>(&key, &iv, &mut data, encrypt),
        24 => run::<des::TdesEde3>(&key, &iv, &mut data, encrypt),
        _ => false,
    };
    if !ok {
        return Err(vm.range_error("Invalid key length"));
    }
    new_buffer(vm, data)
}

/// `randomFill(view, offset, size, keygen)`: fill `size` bytes at `offset` of the view's bytes
/// from the entropy hook (`keygen`: the bytes are a generated key).
fn random_fill(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let target = arg(args, 0);
    let len = match view_range(vm, target) {
        Some(r) => r.2,
        None => return Err(vm.type_error("The \"buf\" argument must be an instance of ArrayBuffer or ArrayBufferView")),
    };
    let offset = usize_arg(vm, arg(args, 1))?;
    let size = usize_arg(vm, arg(args, 2))?;
    if offset.checked_add(size).is_none_or(|end| end > len) {
        return Err(vm.range_error("The value of \"size + offset\" is out of range."));
    }
    if amber_engine::runtime::convert::to_boolean(vm, arg(args, 3)) {
        // Key generation whose first use waits for approval (approve_capabilities:
        // CryptoKeygen): subtle.generateKey asks before it gets here.
        if crate::capabilities::awaits_approval(vm, "CryptoKeygen") {
            return Err(crate::capabilities::approval_required(
                vm,
                "CryptoKeygen",
                "key generation",
                "crypto.subtle.generateKey",
            ));
        }
        touch(vm, "CryptoKeygen");
    }
    let bytes = draw(vm, size)?;
    with_view_bytes_mut(vm, target, |dst| dst[offset..offset + size].copy_from_slice(&bytes));
    Ok(target)
}

/// `n` bytes from the entropy hook (Captured, Seeded or host entropy per the policy).
pub fn draw(vm: &mut Vm, n: usize) -> JsResult<Vec<u8>> {
    let mut bytes = vec![0u8; n];
    if n == 0 {
        return Ok(bytes);
    }
    let Some(hook) = vm.entropy_hook else {
        return Err(vm.throw(
            amber_engine::ErrorKind::Error,
            "crypto randomness is unavailable: the embedder provides no entropy source",
        ));
    };
    touch(vm, "CryptoRandom");
    match hook(vm, &mut bytes) {
        Ok(()) => Ok(bytes),
        Err(message) => Err(vm.throw(amber_engine::ErrorKind::Error, message)),
    }
}

/// `enabled()`: false when the run's policy disables crypto (the module then throws).
fn enabled(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::bool(!vm.host_state.contains(DISABLED_KEY)))
}

/// `scrypt(password, salt, N, r, p, keylen)` → Buffer. The caller has checked the parameters
/// against Node's rules (N a power of two above 1, the memory limit).
fn scrypt(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let password = bytes_arg(vm, arg(args, 0), "password")?;
    let salt = bytes_arg(vm, arg(args, 1), "salt")?;
    let n = to_number(vm, arg(args, 2))?;
    let r = to_number(vm, arg(args, 3))?;
    let p = to_number(vm, arg(args, 4))?;
    let len = usize_arg(vm, arg(args, 5))?;
    let valid = n >= 2.0
        && n <= 2f64.powi(63)
        && (n as u64).is_power_of_two()
        && (1.0..=f64::from(u32::MAX)).contains(&r)
        && (1.0..=f64::from(u32::MAX)).contains(&p);
    let params =
        valid.then(|| scrypt::Params::new((n as u64).trailing_zeros() as u8, r as u32, p as u32, 32).ok()).flatten();
    let Some(params) = params else { return Err(vm.range_error("Invalid scrypt params")) };
    // The work is N·r·p block mixes (128·r bytes each, twice over).
    vm.charge((n as u64).saturating_mul(r as u64).saturating_mul(p as u64))?;
    touch(vm, "CryptoHash");
    let mut out = vec![0u8; len];
    if len > 0 && scrypt::scrypt(&password, &salt, &params, &mut out).is_err() {
        return Err(vm.range_error("Invalid key length"));
    }
    new_buffer(vm, out)
}

/// `ctr(key, iv, offset, data)` → data XOR the AES-CTR keystream (128-bit big-endian counter
/// starting at `iv`) from byte `offset`, as OpenSSL's aes-*-ctr: one call per update().
fn aes_ctr(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    use aes::cipher::{StreamCipher, StreamCipherSeek};
    let key = bytes_arg(vm, arg(args, 0), "key")?;
    let iv = bytes_arg(vm, arg(args, 1), "iv")?;
    let offset = to_number(vm, arg(args, 2))?;
    let mut data = bytes_arg(vm, arg(args, 3), "data")?;
    if iv.len() != 16 {
        return Err(vm.type_error("Invalid initialization vector"));
    }
    if !(0.0..=9_007_199_254_740_991.0).contains(&offset) {
        return Err(vm.range_error("offset out of range"));
    }
    macro_rules! run {
        ($c:ty) => {{
            match ctr::Ctr128BE::<$c>::new_from_slices(&key, &iv) {
                Ok(mut c) => {
                    c.seek(offset as u64);
                    c.apply_keystream(&mut data);
                    true
                }
                Err(_) => false,
            }
        }};
    }
    let ok = match key.len() {
        16 => run!(aes::Aes128),
        24 => run!(aes::Aes192),
        32 => run!(aes::Aes256),
        _ => false,
    };
    if !ok {
        return Err(vm.range_error("Invalid key length"));
    }
    new_buffer(vm, data)
}

/// `chachaXor(key, iv, offset, data)` → data XOR the ChaCha20 keystream of RFC 8439's AEAD
/// (block counter 1 onward) from byte `offset`: encryption and decryption alike.
fn chacha_xor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    use aes::cipher::{KeyIvInit as _, StreamCipher, StreamCipherSeek};
    use chacha20poly1305::aead::generic_array::GenericArray as Array;
    let key = bytes_arg(vm, arg(args, 0), "key")?;
    let iv = bytes_arg(vm, arg(args, 1), "iv")?;
    let offset = to_number(vm, arg(args, 2))?;
    let mut data = bytes_arg(vm, arg(args, 3), "data")?;
    if key.len() != 32 {
        return Err(vm.range_error("Invalid key length"));
    }
    if iv.len() != 12 {
        return Err(vm.type_error("Invalid initialization vector"));
    }
    if !(0.0..=274_877_906_880.0).contains(&offset) {
        return Err(vm.range_error("message too long for ChaCha20-Poly1305"));
    }
    let mut c = chacha20::ChaCha20::new(Array::from_slice(&key), Array::from_slice(&iv));
    c.seek(64 + offset as u64);
    c.apply_keystream(&mut data);
    new_buffer(vm, data)
}

/// `chachaTag(key, iv, aad, plaintext)` → the 16-byte Poly1305 tag of the whole message.
fn chacha_tag(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let key = bytes_arg(vm, arg(args, 0), "key")?;
    let iv = bytes_arg(vm, arg(args, 1), "iv")?;
    let aad = bytes_arg(vm, arg(args, 2), "aad")?;
    let mut data = bytes_arg(vm, arg(args, 3), "data")?;
    if iv.len() != 12 {
        return Err(vm.type_error("Invalid initialization vector"));
    }
    let Ok(cipher) = chacha20poly1305::ChaCha20Poly1305::new_from_slice(&key) else {
        return Err(vm.range_error("Invalid key length"));
    };
    match cipher.encrypt_in_place_detached(GenericArray::from_slice(&iv), &aad, &mut data) {
        Ok(tag) => new_buffer(vm, tag.to_vec()),
        Err(_) => Err(vm.range_error("message too long for ChaCha20-Poly1305")),
    }
}
