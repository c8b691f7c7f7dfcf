//! Signatures and RSA encryption for `crypto.sign`/`verify`, `Sign`/`Verify`,
//! `publicEncrypt` and friends, and Web Crypto's sign/verify/encrypt/decrypt.
//!
//! RSA PKCS#1 v1.5 and Ed25519 signatures are deterministic; ECDSA uses RFC 6979 nonces
//! (deterministic too, where Node's are random: both verify the same way). RSA-PSS salts and
//! encryption padding come from a seed the JS side draws from the entropy hook.

use amber_engine::error::JsResult;
use amber_engine::runtime::convert::{to_boolean, to_number, to_rust_string};
use amber_engine::{Value, Vm};
use p256::ecdsa::signature::hazmat::{PrehashSigner, PrehashVerifier};
use rsa::traits::PublicKeyParts;
use rsa::{BigUint, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use sha2::Digest;

use super::super::buffer::{bytes_arg, new_buffer};
use super::keys::{parse, seeded_rng, KeyError, Parsed, Private, Public};
use super::{arg, digest_name};

/// OpenSSL's padding numbers (`crypto.constants`).
const RSA_PKCS1_PADDING: i64 = 1;
const RSA_NO_PADDING: i64 = 3;
const RSA_PKCS1_OAEP_PADDING: i64 = 4;
const RSA_PKCS1_PSS_PADDING: i64 = 6;
const RSA_PSS_SALTLEN_DIGEST: i64 = -1;
/// Node's RSA_PSS_SALTLEN_MAX_SIGN and RSA_PSS_SALTLEN_AUTO: the maximum when signing,
/// recovered from the signature when verifying (OpenSSL 3's AUTO).
const RSA_PSS_SALTLEN_AUTO: i64 = -2;
/// OpenSSL 3's RSA_PSS_SALTLEN_MAX: exactly the maximum. (Node 20's OpenSSL refuses
/// AUTO_DIGEST_MAX, -4, and every other negative length, as invalid.)
const RSA_PSS_SALTLEN_MAX: i64 = -3;

/// Digests an RSA or ECDSA signature can name (the OID-carrying ones).
macro_rules! with_sig_digest {
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

fn em_len(key: &RsaPublicKey) -> usize {
    (key.n().bits() - 1).div_ceil(8)
}

/// The PSS salt length `option` asks for when signing.
fn pss_salt(option: i64, key: &RsaPublicKey, hash_len: usize) -> Result<usize, KeyError> {
    let max = em_len(key).checked_sub(hash_len + 2).ok_or("pss_salt");
    match option {
        RSA_PSS_SALTLEN_DIGEST => Ok(hash_len),
        RSA_PSS_SALTLEN_AUTO | RSA_PSS_SALTLEN_MAX => max,
        n if n >= 0 => Ok(n as usize),
        _ => Err("invalid_salt_length"),
    }
}

fn mgf1<D: Digest>(seed: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 64);
    let mut counter = 0u32;
    while out.len() < len {
        let mut h = D::new();
        h.update(seed);
        h.update(counter.to_be_bytes());
        out.extend_from_slice(&h.finalize());
        counter += 1;
    }
    out.truncate(len);
    out
}

/// The salt length a PSS signature was made with (for verifying with Node's "auto"),
/// read from its encoded message; None when the signature is not a PSS encoding.
fn pss_recover_salt<D: Digest>(key: &RsaPublicKey, sig: &[u8]) -> Option<usize> {
    let h_len = <D as Digest>::output_size();
    let s = BigUint::from_bytes_be(sig);
    if &s >= key.n() {
        return None;
    }
    let m = rsa::hazmat::rsa_encrypt(key, &s).ok()?.to_bytes_be();
    let em_bits = key.n().bits() - 1;
    let em_len = em_bits.div_ceil(8);
    if m.len() > em_len || em_len < h_len + 2 {
        return None;
    }
    let mut em = vec![0u8; em_len - m.len()];
    em.extend_from_slice(&m);
    let db_len = em_len - h_len - 1;
    let h = &em[db_len..em_len - 1];
    let mask = mgf1::<D>(h, db_len);
    let mut db: Vec<u8> = em[..db_len].iter().zip(&mask).map(|(a, b)| a ^ b).collect();
    db[0] &= 0xff >> (8 * em_len - em_bits);
    let one = db.iter().position(|b| *b != 0)?;
    (db[one] == 1).then(|| db_len - one - 1)
}

/// `sign(pkcs8, digest, data, padding, saltLength, p1363, seed)` → signature, or an error name.
pub fn sign(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let der = bytes_arg(vm, arg(args, 0), "key")?;
    let digest = digest_option(vm, arg(args, 1))?;
    let data = bytes_arg(vm, arg(args, 2), "data")?;
    let padding = to_number(vm, arg(args, 3))? as i64;
    let salt_option = to_number(vm, arg(args, 4))? as i64;
    let p1363 = to_boolean(vm, arg(args, 5));
    let seed = if arg(args, 6).is_undefined() { Vec::new() } else { bytes_arg(vm, arg(args, 6), "seed")? };
    let r =
        Private::from_pkcs8(&der).and_then(|key| sign_with(&key, digest, &data, padding, salt_option, p1363, &seed));
    match r {
        Ok(bytes) => new_buffer(vm, bytes),
        Err(code) => Ok(vm.str(code)),
    }
}

fn digest_option(vm: &mut Vm, v: Value) -> JsResult<Option<&'static str>> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    let name = to_rust_string(vm, v)?;
    match digest_name(&name) {
        Some(d) if d != "shake128" && d != "shake256" => Ok(Some(d)),
        _ => Err(vm.type_error(format!("Invalid digest: {name}"))),
    }
}

fn sign_with(
    key: &Private,
    digest: Option<&str>,
    data: &[u8],
    padding: i64,
    salt_option: i64,
    p1363: bool,
    seed: &[u8],
) -> Result<Vec<u8>, KeyError> {
    // OpenSSL 3's default digest for RSA and EC keys.
    let name = digest.unwrap_or("sha256");
    match key {
        Private::Rsa(k) => with_sig_digest!(name, D => {
            let hashed = D::digest(data);
            if padding == RSA_PKCS1_PSS_PADDING {
                let salt = pss_salt(salt_option, &k.to_public_key(), hashed.len())?;
                let mut rng = seeded_rng(seed);
                k.sign_with_rng(&mut rng, Pss::new_with_salt::<D>(salt), &hashed).map_err(|_| "rsa_sign")
            } else if padding == RSA_PKCS1_PADDING {
                k.sign(Pkcs1v15Sign::new::<D>(), &hashed).map_err(|_| "digest_too_big")
            } else {
                Err("padding")
            }
        }),
        Private::P256(k) => with_sig_digest!(name, D => {
            let hashed = D::digest(data);
            let signer = p256::ecdsa::SigningKey::from(k);
            let sig: p256::ecdsa::Signature = signer.sign_prehash(&hashed).map_err(|_| "ecdsa_sign")?;
            Ok(if p1363 { sig.to_bytes().to_vec() } else { sig.to_der().as_bytes().to_vec() })
        }),
        Private::P384(k) => with_sig_digest!(name, D => {
            let hashed = D::digest(data);
            let signer = p384::ecdsa::SigningKey::from(k);
            let sig: p384::ecdsa::Signature = signer.sign_prehash(&hashed).map_err(|_| "ecdsa_sign")?;
            Ok(if p1363 { sig.to_bytes().to_vec() } else { sig.to_der().as_bytes().to_vec() })
        }),
        Private::Ed25519(b) => {
            if digest.is_some() {
                return Err("ed_digest");
            }
            let signer = ed25519_dalek::SigningKey::from_bytes(b);
            Ok(ed25519_dalek::Signer::sign(&signer, data).to_bytes().to_vec())
        }
        Private::X25519(_) => Err("operation_not_supported"),
    }
}

/// `verify(der, isPrivate, digest, data, signature, padding, saltLength, p1363)` → boolean,
/// or an error name.
pub fn verify(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let der = bytes_arg(vm, arg(args, 0), "key")?;
    let private = to_boolean(vm, arg(args, 1));
    let digest = digest_option(vm, arg(args, 2))?;
    let data = bytes_arg(vm, arg(args, 3), "data")?;
    let sig = bytes_arg(vm, arg(args, 4), "signature")?;
    let padding = to_number(vm, arg(args, 5))? as i64;
    let salt_option = to_number(vm, arg(args, 6))? as i64;
    let p1363 = to_boolean(vm, arg(args, 7));
    let r = parse(&der, private)
        .and_then(|key| verify_with(&key.public(), digest, &data, &sig, padding, salt_option, p1363));
    match r {
        Ok(ok) => Ok(Value::bool(ok)),
        Err(code) => Ok(vm.str(code)),
    }
}

fn verify_with(
    key: &Public,
    digest: Option<&str>,
    data: &[u8],
    sig: &[u8],
    padding: i64,
    salt_option: i64,
    p1363: bool,
) -> Result<bool, KeyError> {
    let name = digest.unwrap_or("sha256");
    match key {
        Public::Rsa(k) => with_sig_digest!(name, D => {
            let hashed = D::digest(data);
            if padding == RSA_PKCS1_PSS_PADDING {
                let salt = if salt_option == RSA_PSS_SALTLEN_AUTO {
                    match pss_recover_salt::<D>(k, sig) {
                        Some(s) => s,
                        None => return Ok(false),
                    }
                } else {
                    pss_salt(salt_option, k, hashed.len())?
                };
                Ok(k.verify(Pss::new_with_salt::<D>(salt), &hashed, sig).is_ok())
            } else if padding == RSA_PKCS1_PADDING {
                Ok(k.verify(Pkcs1v15Sign::new::<D>(), &hashed, sig).is_ok())
            } else {
                Err("padding")
            }
        }),
        Public::P256(k) => with_sig_digest!(name, D => {
            let hashed = D::digest(data);
            let verifier = p256::ecdsa::VerifyingKey::from(k);
            let parsed = if p1363 { p256::ecdsa::Signature::from_slice(sig) } else { p256::ecdsa::Signature::from_der(sig) };
            Ok(parsed.is_ok_and(|s| verifier.verify_prehash(&hashed, &s).is_ok()))
        }),
        Public::P384(k) => with_sig_digest!(name, D => {
            let hashed = D::digest(data);
            let verifier = p384::ecdsa::VerifyingKey::from(k);
            let parsed = if p1363 { p384::ecdsa::Signature::from_slice(sig) } else { p384::ecdsa::Signature::from_der(sig) };
            Ok(parsed.is_ok_and(|s| verifier.verify_prehash(&hashed, &s).is_ok()))
        }),
        Public::Ed25519(b) => {
            if digest.is_some() {
                return Err("ed_digest");
            }
            let Ok(verifier) = ed25519_dalek::VerifyingKey::from_bytes(b) else { return Ok(false) };
            let Ok(sig) = ed25519_dalek::Signature::from_slice(sig) else { return Ok(false) };
            Ok(verifier.verify_strict(data, &sig).is_ok())
        }
        Public::X25519(_) => Err("operation_not_supported"),
    }
}

/// `rsaCrypt(op, der, isPrivate, data, padding, oaepHash, label, seed)` → bytes, or an error
/// name. `op`: `publicEncrypt`, `privateDecrypt`, `privateEncrypt`, `publicDecrypt`.
pub fn rsa_crypt(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let op = to_rust_string(vm, arg(args, 0))?;
    let der = bytes_arg(vm, arg(args, 1), "key")?;
    let private = to_boolean(vm, arg(args, 2));
    let data = bytes_arg(vm, arg(args, 3), "buffer")?;
    let padding = to_number(vm, arg(args, 4))? as i64;
    let oaep_hash = digest_option(vm, arg(args, 5))?.unwrap_or("sha1");
    let label = if arg(args, 6).is_undefined() { Vec::new() } else { bytes_arg(vm, arg(args, 6), "oaepLabel")? };
    let seed = if arg(args, 7).is_undefined() { Vec::new() } else { bytes_arg(vm, arg(args, 7), "seed")? };
    let r = parse(&der, private).and_then(|key| {
        let public = key.public();
        let Public::Rsa(pk) = public else { return Err("operation_not_supported") };
        let sk = match &key {
            Parsed::Private(Private::Rsa(k)) => Some(k.as_ref()),
            _ => None,
        };
        rsa_op(&op, &pk, sk, &data, padding, oaep_hash, &label, &seed)
    });
    match r {
        Ok(bytes) => new_buffer(vm, bytes),
        Err(code) => Ok(vm.str(code)),
    }
}

fn oaep(hash: &str, label: &[u8]) -> Result<Oaep, KeyError> {
    // rsa 0.9 carries the label as a String: a label that is not UTF-8 is refused.
    let label =
        if label.is_empty() { None } else { Some(String::from_utf8(label.to_vec()).map_err(|_| "oaep_label")?) };
    let mut padding = with_sig_digest!(hash, D => Oaep::new::<D>());
    padding.label = label;
    Ok(padding)
}

#[allow(clippy::too_many_arguments)]
fn rsa_op(
    op: &str,
    pk: &RsaPublicKey,
    sk: Option<&RsaPrivateKey>,
    data: &[u8],
    padding: i64,
    oaep_hash: &str,
    label: &[u8],
    seed: &[u8],
) -> Result<Vec<u8>, KeyError> {
    let k = pk.size();
    match op {
        "publicEncrypt" => {
            let mut rng = seeded_rng(seed);
            match padding {
                RSA_PKCS1_OAEP_PADDING => {
                    pk.encrypt(&mut rng, oaep(oaep_hash, label)?, data).map_err(|_| "data_too_large_for_key_size")
                }
                RSA_PKCS1_PADDING => {
                    pk.encrypt(&mut rng, Pkcs1v15Encrypt, data).map_err(|_| "data_too_large_for_key_size")
                }
                RSA_NO_PADDING => raw_public(pk, data, k),
                _ => Err("padding"),
            }
        }
        "privateDecrypt" => {
            let sk = sk.ok_or("operation_not_supported")?;
            if data.len() != k {
                return Err("decrypt_length");
            }
            match padding {
                RSA_PKCS1_OAEP_PADDING => sk.decrypt(oaep(oaep_hash, label)?, data).map_err(|_| "oaep_decoding_error"),
                RSA_PKCS1_PADDING => sk.decrypt(Pkcs1v15Encrypt, data).map_err(|_| "pkcs_decoding_error"),
                RSA_NO_PADDING => raw_private(sk, data, k),
                _ => Err("padding"),
            }
        }
        "privateEncrypt" => {
            let sk = sk.ok_or("operation_not_supported")?;
            match padding {
                RSA_PKCS1_PADDING => {
                    if data.len() + 11 > k {
                        return Err("data_too_large_for_key_size");
                    }
                    sk.sign(Pkcs1v15Sign::new_unprefixed(), data).map_err(|_| "data_too_large_for_key_size")
                }
                RSA_NO_PADDING => raw_private(sk, data, k),
                _ => Err("padding"),
            }
        }
        "publicDecrypt" => {
            if data.len() != k {
                return Err("decrypt_length");
            }
            let em = raw_public(pk, data, k)?;
            match padding {
                RSA_PKCS1_PADDING => {
                    // EM = 00 01 FF…FF 00 M, at least eight FF bytes.
                    if em.len() < 11 || em[0] != 0 || em[1] != 1 {
                        return Err("pkcs_decoding_error");
                    }
                    let zero = em[2..].iter().position(|b| *b != 0xff).map(|i| i + 2).ok_or("pkcs_decoding_error")?;
                    if em[zero] != 0 || zero < 10 {
                        return Err("pkcs_decoding_error");
                    }
                    Ok(em[zero + 1..].to_vec())
                }
                RSA_NO_PADDING => Ok(em),
                _ => Err("padding"),
            }
        }
        _ => Err("operation_not_supported"),
    }
}

fn left_pad(bytes: Vec<u8>, k: usize) -> Vec<u8> {
    let mut out = vec![0u8; k.saturating_sub(bytes.len())];
    out.extend_from_slice(&bytes);
    out
}

fn raw_public(pk: &RsaPublicKey, data: &[u8], k: usize) -> Result<Vec<u8>, KeyError> {
    if data.len() != k {
        return Err("data_too_large_for_key_size");
    }
    let m = BigUint::from_bytes_be(data);
    if &m >= pk.n() {
        return Err("data_too_large_for_modulus");
    }
    rsa::hazmat::rsa_encrypt(pk, &m).map(|c| left_pad(c.to_bytes_be(), k)).map_err(|_| "data_too_large_for_modulus")
}

fn raw_private(sk: &RsaPrivateKey, data: &[u8], k: usize) -> Result<Vec<u8>, KeyError> {
    if data.len() != k {
        return Err("data_too_large_for_key_size");
    }
    let c = BigUint::from_bytes_be(data);
    if &c >= sk.n() {
        return Err("data_too_large_for_modulus");
    }
    rsa::hazmat::rsa_decrypt_and_check(sk, None::<&mut rand_chacha::ChaCha20Rng>, &c)
        .map(|m| left_pad(m.to_bytes_be(), k))
        .map_err(|_| "data_too_large_for_modulus")
}
