//! Key agreement: `createECDH` (P-256, P-384), `crypto.diffieHellman` over EC and X25519
//! KeyObjects, and the modular exponentiation behind `createDiffieHellman`.

use amber_engine::error::JsResult;
use amber_engine::runtime::convert::{to_boolean, to_rust_string};
use amber_engine::{Value, Vm};
use num_bigint::BigUint;
use p256::elliptic_curve::sec1::ToEncodedPoint;

use super::super::buffer::{bytes_arg, new_buffer};
use super::arg;
use super::keys::{seeded_rng, KeyError, Private, Public};

/// Runs `$body` with `$c` naming the curve's crate (`p256` or `p384`); `$err` otherwise.
macro_rules! with_curve {
    ($name:expr, $c:ident => $body:expr, $err:expr) => {
        match $name {
            "P-256" => {
                use p256 as $c;
                $body
            }
            "P-384" => {
                use p384 as $c;
                $body
            }
            _ => $err,
        }
    };
}

fn bytes_or_error(vm: &mut Vm, r: Result<Vec<u8>, KeyError>) -> JsResult<Value> {
    match r {
        Ok(bytes) => new_buffer(vm, bytes),
        Err(code) => Ok(vm.str(code)),
    }
}

/// `ecdhGenerate(curve, seed)` → a new private scalar (big-endian, field size).
pub fn ecdh_generate(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let curve = to_rust_string(vm, arg(args, 0))?;
    let seed = bytes_arg(vm, arg(args, 1), "seed")?;
    let mut rng = seeded_rng(&seed);
    let r = with_curve!(curve.as_str(), c => Ok(c::SecretKey::random(&mut rng).to_bytes().to_vec()), Err("curve"));
    bytes_or_error(vm, r)
}

/// `ecdhPublic(curve, scalar, compressed)` → the public point, SEC1-encoded.
pub fn ecdh_public(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let curve = to_rust_string(vm, arg(args, 0))?;
    let scalar = bytes_arg(vm, arg(args, 1), "key")?;
    let compressed = to_boolean(vm, arg(args, 2));
    let r = with_curve!(curve.as_str(), c => {
        c::SecretKey::from_slice(&scalar)
            .map(|k| k.public_key().to_encoded_point(compressed).as_bytes().to_vec())
            .map_err(|_| "private_key")
    }, Err("curve"));
    bytes_or_error(vm, r)
}

/// `ecdhConvert(curve, point, compressed)` → the point re-encoded.
pub fn ecdh_convert(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let curve = to_rust_string(vm, arg(args, 0))?;
    let point = bytes_arg(vm, arg(args, 1), "key")?;
    let compressed = to_boolean(vm, arg(args, 2));
    let r = with_curve!(curve.as_str(), c => {
        c::PublicKey::from_sec1_bytes(&point)
            .map(|k| k.to_encoded_point(compressed).as_bytes().to_vec())
            .map_err(|_| "public_key")
    }, Err("curve"));
    bytes_or_error(vm, r)
}

/// `ecdhCompute(curve, scalar, point)` → the shared secret (the x coordinate).
pub fn ecdh_compute(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let curve = to_rust_string(vm, arg(args, 0))?;
    let scalar = bytes_arg(vm, arg(args, 1), "key")?;
    let point = bytes_arg(vm, arg(args, 2), "key")?;
    let r = with_curve!(curve.as_str(), c => {
        match (c::SecretKey::from_slice(&scalar), c::PublicKey::from_sec1_bytes(&point)) {
            (Ok(k), Ok(p)) => Ok(c::ecdh::diffie_hellman(k.to_nonzero_scalar(), p.as_affine()).raw_secret_bytes().to_vec()),
            (Err(_), _) => Err("private_key"),
            (_, Err(_)) => Err("public_key"),
        }
    }, Err("curve"));
    bytes_or_error(vm, r)
}

/// `deriveShared(pkcs8, spki)` → the EC or X25519 shared secret of two KeyObjects.
pub fn derive_shared(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let private = bytes_arg(vm, arg(args, 0), "privateKey")?;
    let public = bytes_arg(vm, arg(args, 1), "publicKey")?;
    let r = Private::from_pkcs8(&private).and_then(|k| Public::from_spki(&public).map(|p| (k, p))).and_then(|pair| {
        match pair {
            (Private::P256(k), Public::P256(p)) => {
                Ok(p256::ecdh::diffie_hellman(k.to_nonzero_scalar(), p.as_affine()).raw_secret_bytes().to_vec())
            }
            (Private::P384(k), Public::P384(p)) => {
                Ok(p384::ecdh::diffie_hellman(k.to_nonzero_scalar(), p.as_affine()).raw_secret_bytes().to_vec())
            }
            (Private::X25519(k), Public::X25519(p)) => {
                let secret = x25519_dalek::StaticSecret::from(k);
                Ok(secret.diffie_hellman(&x25519_dalek::PublicKey::from(p)).to_bytes().to_vec())
            }
            (Private::P256(_) | Private::P384(_), Public::P256(_) | Public::P384(_)) => Err("mismatch"),
            _ => Err("operation_not_supported"),
        }
    });
    bytes_or_error(vm, r)
}

/// `modPow(base, exponent, modulus)` → `base^exponent mod modulus`, big-endian, padded to the
/// modulus length (as OpenSSL's DH_compute_key_padded; the JS side strips it where Node does).
pub fn mod_pow(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let base = BigUint::from_bytes_be(&bytes_arg(vm, arg(args, 0), "base")?);
    let exponent = BigUint::from_bytes_be(&bytes_arg(vm, arg(args, 1), "exponent")?);
    let modulus_bytes = bytes_arg(vm, arg(args, 2), "modulus")?;
    let modulus = BigUint::from_bytes_be(&modulus_bytes);
    if modulus.bits() == 0 {
        return Ok(vm.str("modulus"));
    }
    // Square-and-multiply over the exponent's bits, each a multiprecision product.
    vm.charge(exponent.bits().saturating_mul((modulus.bits() / 64 + 1).pow(2)) / 16)?;
    let value = base.modpow(&exponent, &modulus).to_bytes_be();
    let mut out = vec![0u8; modulus_bytes.len().saturating_sub(value.len())];
    out.extend_from_slice(&value);
    new_buffer(vm, out)
}
