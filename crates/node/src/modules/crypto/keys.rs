//! Asymmetric keys for `KeyObject` and Web Crypto's `CryptoKey`: parsing, encoding, JWK,
//! details and generation (RSA, EC on P-256 and P-384, Ed25519, X25519).
//!
//! A key rides the JS heap as DER bytes in one canonical form: PKCS#8 for a private key, SPKI
//! for a public one. Every native here takes and returns those bytes, so a key is plain data in
//! an image and is parsed again at each use.
//!
//! Failures on user input are not thrown here: a native returns a string naming the OpenSSL
//! error Node would report (see `KEY_ERRORS` in `js/crypto.js`), and the JS side throws it
//! with Node's code and wording.

use amber_engine::error::JsResult;
use amber_engine::runtime::convert::{to_number, to_rust_string};
use amber_engine::{Value, Vm};
use pkcs8::der::asn1::{BitStringRef, OctetStringRef};
use pkcs8::der::{Decode, Encode};
use pkcs8::{DecodePrivateKey, EncodePrivateKey, ObjectIdentifier};
use rand_core::SeedableRng;
use rsa::pkcs1::{DecodeRsaPrivateKey, EncodeRsaPrivateKey, EncodeRsaPublicKey};
use rsa::traits::{PrivateKeyParts, PublicKeyParts};
use rsa::{BigUint, RsaPrivateKey, RsaPublicKey};
use spki::{DecodePublicKey, EncodePublicKey};

use super::super::buffer::{bytes_arg, new_buffer};
use super::arg;

/// The OpenSSL failure a native reports for input it cannot use (Node's `ERR_OSSL_*`).
pub type KeyError = &'static str;

/// Input that is not a key in the expected form (Node: `DECODER routines::unsupported`).
pub const UNSUPPORTED: KeyError = "unsupported";

const RSA_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const EC_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const P256_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const P384_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");
const X25519_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.110");
const ED25519_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");

/// A private key, parsed.
pub enum Private {
    Rsa(Box<RsaPrivateKey>),
    P256(p256::SecretKey),
    P384(p384::SecretKey),
    Ed25519([u8; 32]),
    X25519([u8; 32]),
}

/// A public key, parsed.
pub enum Public {
    Rsa(RsaPublicKey),
    P256(p256::PublicKey),
    P384(p384::PublicKey),
    Ed25519([u8; 32]),
    X25519([u8; 32]),
}

impl Private {
    /// Parses PKCS#8 DER.
    pub fn from_pkcs8(der: &[u8]) -> Result<Private, KeyError> {
        let info = pkcs8::PrivateKeyInfo::from_der(der).map_err(|_| UNSUPPORTED)?;
        let oid = info.algorithm.oid;
        if oid == RSA_OID {
            let key = RsaPrivateKey::from_pkcs1_der(info.private_key).map_err(|_| UNSUPPORTED)?;
            return Ok(Private::Rsa(Box::new(key)));
        }
        if oid == EC_OID {
            let curve = info.algorithm.parameters_oid().map_err(|_| UNSUPPORTED)?;
            return if curve == P256_OID {
                p256::SecretKey::from_pkcs8_der(der).map(Private::P256).map_err(|_| UNSUPPORTED)
            } else if curve == P384_OID {
                p384::SecretKey::from_pkcs8_der(der).map(Private::P384).map_err(|_| UNSUPPORTED)
            } else {
                Err(UNSUPPORTED)
            };
        }
        if oid == ED25519_OID || oid == X25519_OID {
            let inner = OctetStringRef::from_der(info.private_key).map_err(|_| UNSUPPORTED)?;
            let bytes: [u8; 32] = inner.as_bytes().try_into().map_err(|_| UNSUPPORTED)?;
            return Ok(if oid == ED25519_OID { Private::Ed25519(bytes) } else { Private::X25519(bytes) });
        }
        Err(UNSUPPORTED)
    }

    /// Parses SEC1 `ECPrivateKey` DER (its parameters name the curve).
    pub fn from_sec1(der: &[u8]) -> Result<Private, KeyError> {
        let key = sec1::EcPrivateKey::from_der(der).map_err(|_| UNSUPPORTED)?;
        let curve = key.parameters.and_then(|p| p.named_curve()).ok_or(UNSUPPORTED)?;
        if curve == P256_OID {
            p256::SecretKey::from_sec1_der(der).map(Private::P256).map_err(|_| UNSUPPORTED)
        } else if curve == P384_OID {
            p384::SecretKey::from_sec1_der(der).map(Private::P384).map_err(|_| UNSUPPORTED)
        } else {
            Err(UNSUPPORTED)
        }
    }

    /// Encodes PKCS#8 DER (as OpenSSL writes it: no attributes, no v2 public key).
    pub fn to_pkcs8(&self) -> Result<Vec<u8>, KeyError> {
        let doc = match self {
            Private::Rsa(k) => k.to_pkcs8_der(),
            Private::P256(k) => k.to_pkcs8_der(),
            Private::P384(k) => k.to_pkcs8_der(),
            Private::Ed25519(b) => return okp_pkcs8(ED25519_OID, b),
            Private::X25519(b) => return okp_pkcs8(X25519_OID, b),
        };
        doc.map(|d| d.as_bytes().to_vec()).map_err(|_| UNSUPPORTED)
    }

    pub fn public(&self) -> Public {
        match self {
            Private::Rsa(k) => Public::Rsa(k.to_public_key()),
            Private::P256(k) => Public::P256(k.public_key()),
            Private::P384(k) => Public::P384(k.public_key()),
            Private::Ed25519(b) => Public::Ed25519(ed25519_dalek::SigningKey::from_bytes(b).verifying_key().to_bytes()),
            Private::X25519(b) => {
                let secret = x25519_dalek::StaticSecret::from(*b);
                Public::X25519(x25519_dalek::PublicKey::from(&secret).to_bytes())
            }
        }
    }

    pub fn type_name(&self) -> &'static str {
        self.public().type_name()
    }
}

fn okp_pkcs8(oid: ObjectIdentifier, bytes: &[u8; 32]) -> Result<Vec<u8>, KeyError> {
    let inner = OctetStringRef::new(bytes).and_then(|o| o.to_der()).map_err(|_| UNSUPPORTED)?;
    let algorithm = pkcs8::AlgorithmIdentifierRef { oid, parameters: None };
    pkcs8::PrivateKeyInfo::new(algorithm, &inner).to_der().map_err(|_| UNSUPPORTED)
}

impl Public {
    /// Parses SPKI DER.
    pub fn from_spki(der: &[u8]) -> Result<Public, KeyError> {
        let info = spki::SubjectPublicKeyInfoRef::from_der(der).map_err(|_| UNSUPPORTED)?;
        let oid = info.algorithm.oid;
        if oid == RSA_OID {
            return rsa_public_from_pkcs1(info.subject_public_key.as_bytes().ok_or(UNSUPPORTED)?).map(Public::Rsa);
        }
        if oid == EC_OID {
            let curve = info.algorithm.parameters_oid().map_err(|_| UNSUPPORTED)?;
            return if curve == P256_OID {
                p256::PublicKey::from_public_key_der(der).map(Public::P256).map_err(|_| UNSUPPORTED)
            } else if curve == P384_OID {
                p384::PublicKey::from_public_key_der(der).map(Public::P384).map_err(|_| UNSUPPORTED)
            } else {
                Err(UNSUPPORTED)
            };
        }
        if oid == ED25519_OID || oid == X25519_OID {
            let bytes: [u8; 32] =
                info.subject_public_key.as_bytes().ok_or(UNSUPPORTED)?.try_into().map_err(|_| UNSUPPORTED)?;
            return Ok(if oid == ED25519_OID { Public::Ed25519(bytes) } else { Public::X25519(bytes) });
        }
        Err(UNSUPPORTED)
    }

    /// Encodes SPKI DER.
    pub fn to_spki(&self) -> Result<Vec<u8>, KeyError> {
        let doc = match self {
            Public::Rsa(k) => k.to_public_key_der(),
            Public::P256(k) => k.to_public_key_der(),
            Public::P384(k) => k.to_public_key_der(),
            Public::Ed25519(b) => return okp_spki(ED25519_OID, b),
            Public::X25519(b) => return okp_spki(X25519_OID, b),
        };
        doc.map(|d| d.as_bytes().to_vec()).map_err(|_| UNSUPPORTED)
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Public::Rsa(_) => "rsa",
            Public::P256(_) | Public::P384(_) => "ec",
            Public::Ed25519(_) => "ed25519",
            Public::X25519(_) => "x25519",
        }
    }
}

/// The largest RSA modulus accepted, in bits: OpenSSL's limit for RSA keys
/// (OPENSSL_RSA_MAX_MODULUS_BITS), past rsa's default of 4096 for public keys.
const RSA_MAX_BITS: usize = 16384;

/// An RSA public key from PKCS#1 `RSAPublicKey` DER.
fn rsa_public_from_pkcs1(der: &[u8]) -> Result<RsaPublicKey, KeyError> {
    let key = pkcs1::RsaPublicKey::from_der(der).map_err(|_| UNSUPPORTED)?;
    let n = BigUint::from_bytes_be(key.modulus.as_bytes());
    let e = BigUint::from_bytes_be(key.public_exponent.as_bytes());
    RsaPublicKey::new_with_max_size(n, e, RSA_MAX_BITS).map_err(|_| UNSUPPORTED)
}

fn okp_spki(oid: ObjectIdentifier, bytes: &[u8; 32]) -> Result<Vec<u8>, KeyError> {
    let info = spki::SubjectPublicKeyInfoRef {
        algorithm: spki::AlgorithmIdentifier { oid, parameters: None },
        subject_public_key: BitStringRef::from_bytes(bytes).map_err(|_| UNSUPPORTED)?,
    };
    info.to_der().map_err(|_| UNSUPPORTED)
}

/// A key argument: PKCS#8 bytes when `private`, SPKI bytes otherwise.
pub enum Parsed {
    Private(Private),
    Public(Public),
}

impl Parsed {
    pub fn public(&self) -> Public {
        match self {
            Parsed::Private(k) => k.public(),
            Parsed::Public(k) => match k {
                Public::Rsa(k) => Public::Rsa(k.clone()),
                Public::P256(k) => Public::P256(*k),
                Public::P384(k) => Public::P384(*k),
                Public::Ed25519(b) => Public::Ed25519(*b),
                Public::X25519(b) => Public::X25519(*b),
            },
        }
    }
}

pub fn parse(der: &[u8], private: bool) -> Result<Parsed, KeyError> {
    if private {
        Private::from_pkcs8(der).map(Parsed::Private)
    } else {
        Public::from_spki(der).map(Parsed::Public)
    }
}

fn curve_oid_der(oid: ObjectIdentifier) -> sec1::EcParameters {
    sec1::EcParameters::NamedCurve(oid)
}

/// SEC1 `ECPrivateKey` with the curve named in its parameters (OpenSSL's `EC PRIVATE KEY`).
fn sec1_der(key: &Private) -> Result<Vec<u8>, KeyError> {
    let (scalar, point, oid) = match key {
        Private::P256(k) => (
            k.to_bytes().to_vec(),
            p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&k.public_key(), false).as_bytes().to_vec(),
            P256_OID,
        ),
        Private::P384(k) => (
            k.to_bytes().to_vec(),
            p384::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&k.public_key(), false).as_bytes().to_vec(),
            P384_OID,
        ),
        _ => return Err("sec1_not_ec"),
    };
    let key =
        sec1::EcPrivateKey { private_key: &scalar, parameters: Some(curve_oid_der(oid)), public_key: Some(&point) };
    key.to_der().map_err(|_| UNSUPPORTED)
}

fn buffer_or_error(vm: &mut Vm, r: Result<Vec<u8>, KeyError>) -> JsResult<Value> {
    match r {
        Ok(bytes) => new_buffer(vm, bytes),
        Err(code) => Ok(vm.str(code)),
    }
}

/// One DER element at the start of `bytes`: (tag, contents, the whole element's length).
/// None when it is truncated or uses a form DER forbids (indefinite or over-long lengths).
fn der_element(bytes: &[u8]) -> Option<(u8, &[u8], usize)> {
    let tag = *bytes.first()?;
    let first = *bytes.get(1)? as usize;
    let (len, header) = if first < 0x80 {
        (first, 2)
    } else {
        let n = first - 0x80;
        if n == 0 || n > 4 {
            return None;
        }
        let mut len = 0usize;
        for b in bytes.get(2..2 + n)? {
            len = (len << 8) | *b as usize;
        }
        (len, 2 + n)
    };
    let end = header.checked_add(len)?;
    Some((tag, bytes.get(header..end)?, end))
}

/// The SubjectPublicKeyInfo of an X.509 certificate (RFC 5280 §4.1: the seventh field of
/// tbsCertificate, counting the optional `[0]` version), as its DER bytes.
fn certificate_spki(cert: &[u8]) -> Option<&[u8]> {
    const SEQUENCE: u8 = 0x30;
    let (tag, certificate, _) = der_element(cert)?;
    if tag != SEQUENCE {
        return None;
    }
    let (tag, mut tbs, _) = der_element(certificate)?;
    if tag != SEQUENCE {
        return None;
    }
    // version [0] EXPLICIT (optional), serialNumber, signature, issuer, validity, subject.
    if tbs.first() == Some(&0xa0) {
        tbs = &tbs[der_element(tbs)?.2..];
    }
    for _ in 0..5 {
        tbs = &tbs[der_element(tbs)?.2..];
    }
    let (tag, _, len) = der_element(tbs)?;
    (tag == SEQUENCE).then(|| &tbs[..len])
}

/// `keyImport(format, der)` → `[type, canonicalDer, isPrivate]`, or an error name. Formats:
/// `pkcs8`, `spki`, `pkcs1-private`, `pkcs1-public`, `sec1`, `x509` (a certificate's
/// public key).
pub fn key_import(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let format = to_rust_string(vm, arg(args, 0))?;
    let der = bytes_arg(vm, arg(args, 1), "key")?;
    let parsed: Result<Parsed, KeyError> = match format.as_str() {
        "pkcs8" => Private::from_pkcs8(&der).map(Parsed::Private),
        "spki" => Public::from_spki(&der).map(Parsed::Public),
        "pkcs1-private" => RsaPrivateKey::from_pkcs1_der(&der)
            .map(|k| Parsed::Private(Private::Rsa(Box::new(k))))
            .map_err(|_| UNSUPPORTED),
        "pkcs1-public" => rsa_public_from_pkcs1(&der).map(|k| Parsed::Public(Public::Rsa(k))),
        "sec1" => Private::from_sec1(&der).map(Parsed::Private),
        "x509" => certificate_spki(&der).ok_or(UNSUPPORTED).and_then(Public::from_spki).map(Parsed::Public),
        _ => Err(UNSUPPORTED),
    };
    let encoded = parsed.and_then(|p| match &p {
        Parsed::Private(k) => Ok((k.type_name(), k.to_pkcs8()?, true)),
        Parsed::Public(k) => Ok((k.type_name(), k.to_spki()?, false)),
    });
    match encoded {
        Ok((type_name, bytes, private)) => {
            let t = vm.str(type_name);
            let b = new_buffer(vm, bytes)?;
            Ok(vm.new_array(vec![t, b, Value::bool(private)]))
        }
        Err(code) => Ok(vm.str(code)),
    }
}

/// `keyPublic(pkcs8)` → the SPKI of the private key's public half.
pub fn key_public(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let der = bytes_arg(vm, arg(args, 0), "key")?;
    let r = Private::from_pkcs8(&der).and_then(|k| k.public().to_spki());
    buffer_or_error(vm, r)
}

/// `keyExport(der, isPrivate, format)` → DER in `pkcs8`, `spki`, `pkcs1` or `sec1`.
pub fn key_export(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let der = bytes_arg(vm, arg(args, 0), "key")?;
    let private = amber_engine::runtime::convert::to_boolean(vm, arg(args, 1));
    let format = to_rust_string(vm, arg(args, 2))?;
    let r = parse(&der, private).and_then(|key| match (key, format.as_str()) {
        (Parsed::Private(k), "pkcs8") => k.to_pkcs8(),
        (Parsed::Private(Private::Rsa(k)), "pkcs1") => {
            k.to_pkcs1_der().map(|d| d.as_bytes().to_vec()).map_err(|_| UNSUPPORTED)
        }
        (Parsed::Private(k), "sec1") => sec1_der(&k),
        (Parsed::Public(k), "spki") => k.to_spki(),
        (Parsed::Public(Public::Rsa(k)), "pkcs1") => {
            k.to_pkcs1_der().map(|d| d.as_bytes().to_vec()).map_err(|_| UNSUPPORTED)
        }
        _ => Err("bad_export_type"),
    });
    buffer_or_error(vm, r)
}

/// `keyDetails(der, isPrivate)` → `[type, ...]`: RSA adds modulus bits and the public exponent
/// as hex; EC adds the OpenSSL curve name.
pub fn key_details(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let der = bytes_arg(vm, arg(args, 0), "key")?;
    let private = amber_engine::runtime::convert::to_boolean(vm, arg(args, 1));
    let public = match parse(&der, private) {
        Ok(p) => p.public(),
        Err(code) => return Ok(vm.str(code)),
    };
    let mut out = vec![vm.str(public.type_name())];
    match &public {
        Public::Rsa(k) => {
            out.push(Value::number(k.n().bits() as f64));
            out.push(vm.str(&k.e().to_str_radix(16)));
        }
        Public::P256(_) => out.push(vm.str("prime256v1")),
        Public::P384(_) => out.push(vm.str("secp384r1")),
        Public::Ed25519(_) | Public::X25519(_) => {}
    }
    Ok(vm.new_array(out))
}

/// `keyJwk(der, isPrivate)` → `[name, value, name, value, …]` of the key's JWK members
/// (base64url values), in Node's member order.
pub fn key_jwk(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let der = bytes_arg(vm, arg(args, 0), "key")?;
    let private = amber_engine::runtime::convert::to_boolean(vm, arg(args, 1));
    let key = match parse(&der, private) {
        Ok(k) => k,
        Err(code) => return Ok(vm.str(code)),
    };
    let b64 = |b: &[u8]| super::super::buffer::base64_encode(b, true);
    let mut members: Vec<(&str, String)> = Vec::new();
    match (&key, key.public()) {
        (_, Public::Rsa(p)) => {
            members.push(("kty", "RSA".into()));
            members.push(("n", b64(&p.n().to_bytes_be())));
            members.push(("e", b64(&p.e().to_bytes_be())));
            if let Parsed::Private(Private::Rsa(k)) = &key {
                let primes = k.primes();
                if primes.len() != 2 {
                    return Ok(vm.str(UNSUPPORTED));
                }
                let one = BigUint::from(1u8);
                let (p, q) = (&primes[0], &primes[1]);
                let dp = k.d() % (p - &one);
                let dq = k.d() % (q - &one);
                let qi = k.crt_coefficient().unwrap_or_default();
                members.push(("d", b64(&k.d().to_bytes_be())));
                members.push(("p", b64(&p.to_bytes_be())));
                members.push(("q", b64(&q.to_bytes_be())));
                members.push(("dp", b64(&dp.to_bytes_be())));
                members.push(("dq", b64(&dq.to_bytes_be())));
                members.push(("qi", b64(&qi.to_bytes_be())));
            }
        }
        (_, Public::P256(p)) => {
            let point = p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&p, false);
            members.push(("kty", "EC".into()));
            members.push(("x", b64(point.x().map(|x| x.as_slice()).unwrap_or_default())));
            members.push(("y", b64(point.y().map(|y| y.as_slice()).unwrap_or_default())));
            members.push(("crv", "P-256".into()));
            if let Parsed::Private(Private::P256(k)) = &key {
                members.push(("d", b64(&k.to_bytes())));
            }
        }
        (_, Public::P384(p)) => {
            let point = p384::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&p, false);
            members.push(("kty", "EC".into()));
            members.push(("x", b64(point.x().map(|x| x.as_slice()).unwrap_or_default())));
            members.push(("y", b64(point.y().map(|y| y.as_slice()).unwrap_or_default())));
            members.push(("crv", "P-384".into()));
            if let Parsed::Private(Private::P384(k)) = &key {
                members.push(("d", b64(&k.to_bytes())));
            }
        }
        (_, Public::Ed25519(x) | Public::X25519(x)) => {
            let crv = if matches!(key.public(), Public::Ed25519(_)) { "Ed25519" } else { "X25519" };
            members.push(("crv", crv.into()));
            if let Parsed::Private(Private::Ed25519(d) | Private::X25519(d)) = &key {
                members.push(("d", b64(d)));
            }
            members.push(("x", b64(&x)));
            members.push(("kty", "OKP".into()));
        }
    }
    let mut out = Vec::with_capacity(members.len() * 2);
    for (name, value) in members {
        out.push(vm.str(name));
        out.push(vm.str(&value));
    }
    Ok(vm.new_array(out))
}

/// `keyFromJwk(kty, crv, members)` with `members` the decoded bytes of
/// `[n, e, d, p, q, dp, dq, qi]` (RSA) or `[x, y, d]` (EC, OKP), undefined where absent →
/// `[type, der, isPrivate]`, or an error name.
pub fn key_from_jwk(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let kty = to_rust_string(vm, arg(args, 0))?;
    let crv = to_rust_string(vm, arg(args, 1))?;
    let mut members: Vec<Option<Vec<u8>>> = Vec::new();
    for i in 2..args.len() {
        let v = arg(args, i);
        members.push(if v.is_undefined() { None } else { Some(bytes_arg(vm, v, "jwk")?) });
    }
    let m = |i: usize| members.get(i).cloned().flatten();
    let parsed: Result<Parsed, KeyError> = match kty.as_str() {
        "RSA" => (|| {
            let n = BigUint::from_bytes_be(&m(0).ok_or("jwk")?);
            let e = BigUint::from_bytes_be(&m(1).ok_or("jwk")?);
            match m(2) {
                None => RsaPublicKey::new_with_max_size(n, e, RSA_MAX_BITS)
                    .map(|k| Parsed::Public(Public::Rsa(k)))
                    .map_err(|_| "jwk"),
                Some(d) => {
                    let d = BigUint::from_bytes_be(&d);
                    let p = BigUint::from_bytes_be(&m(3).ok_or("jwk")?);
                    let q = BigUint::from_bytes_be(&m(4).ok_or("jwk")?);
                    RsaPrivateKey::from_components(n, e, d, vec![p, q])
                        .map(|k| Parsed::Private(Private::Rsa(Box::new(k))))
                        .map_err(|_| "jwk")
                }
            }
        })(),
        "EC" => (|| {
            let x = m(0).ok_or("jwk")?;
            let y = m(1).ok_or("jwk")?;
            let mut sec1_point = vec![4u8];
            sec1_point.extend_from_slice(&x);
            sec1_point.extend_from_slice(&y);
            match (crv.as_str(), m(2)) {
                ("P-256", None) => p256::PublicKey::from_sec1_bytes(&sec1_point)
                    .map(|k| Parsed::Public(Public::P256(k)))
                    .map_err(|_| "jwk"),
                ("P-384", None) => p384::PublicKey::from_sec1_bytes(&sec1_point)
                    .map(|k| Parsed::Public(Public::P384(k)))
                    .map_err(|_| "jwk"),
                ("P-256", Some(d)) => {
                    let key = p256::SecretKey::from_slice(&d).map_err(|_| "jwk")?;
                    if p256::PublicKey::from_sec1_bytes(&sec1_point).ok() != Some(key.public_key()) {
                        return Err("jwk");
                    }
                    Ok(Parsed::Private(Private::P256(key)))
                }
                ("P-384", Some(d)) => {
                    let key = p384::SecretKey::from_slice(&d).map_err(|_| "jwk")?;
                    if p384::PublicKey::from_sec1_bytes(&sec1_point).ok() != Some(key.public_key()) {
                        return Err("jwk");
                    }
                    Ok(Parsed::Private(Private::P384(key)))
                }
                _ => Err("jwk_curve"),
            }
        })(),
        "OKP" => (|| {
            let x: [u8; 32] = m(0).ok_or("jwk")?.try_into().map_err(|_| "jwk")?;
            let d: Option<[u8; 32]> = match m(2) {
                None => None,
                Some(d) => Some(d.try_into().map_err(|_| "jwk")?),
            };
            let parsed = match (crv.as_str(), d) {
                ("Ed25519", None) => Parsed::Public(Public::Ed25519(x)),
                ("X25519", None) => Parsed::Public(Public::X25519(x)),
                ("Ed25519", Some(d)) => Parsed::Private(Private::Ed25519(d)),
                ("X25519", Some(d)) => Parsed::Private(Private::X25519(d)),
                _ => return Err("jwk_curve"),
            };
            Ok(parsed)
        })(),
        _ => Err("jwk"),
    };
    let encoded = parsed.and_then(|p| match &p {
        Parsed::Private(k) => Ok((k.type_name(), k.to_pkcs8()?, true)),
        Parsed::Public(k) => Ok((k.type_name(), k.to_spki()?, false)),
    });
    match encoded {
        Ok((type_name, bytes, private)) => {
            let t = vm.str(type_name);
            let b = new_buffer(vm, bytes)?;
            Ok(vm.new_array(vec![t, b, Value::bool(private)]))
        }
        Err(code) => Ok(vm.str(code)),
    }
}

/// A deterministic generator from a 32-byte seed the caller drew from the entropy hook
/// (journaled under Captured): the same seed yields the same key on replay and resume.
pub fn seeded_rng(seed: &[u8]) -> rand_chacha::ChaCha20Rng {
    let mut s = [0u8; 32];
    for (d, b) in s.iter_mut().zip(seed) {
        *d = *b;
    }
    rand_chacha::ChaCha20Rng::from_seed(s)
}

/// `keyGenerate(type, seed, a, b)` → PKCS#8 DER of a new private key. `rsa`: `a` modulus bits,
/// `b` public exponent; `ec`: `a` the curve (`P-256`, `P-384`); `ed25519`, `x25519`.
pub fn key_generate(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let kind = to_rust_string(vm, arg(args, 0))?;
    let seed = bytes_arg(vm, arg(args, 1), "seed")?;
    let mut rng = seeded_rng(&seed);
    let key: Result<Private, KeyError> = match kind.as_str() {
        "rsa" => {
            let bits = to_number(vm, arg(args, 2))?;
            let exponent = to_number(vm, arg(args, 3))?;
            if !(512.0..=16384.0).contains(&bits) || bits.fract() != 0.0 {
                return Ok(vm.str("rsa_bits"));
            }
            if !(3.0..=4294967295.0).contains(&exponent) || exponent % 2.0 == 0.0 {
                return Ok(vm.str("rsa_exponent"));
            }
            // Prime search is the expensive part: charge by the modulus size.
            vm.charge((bits as u64).pow(2) / 8)?;
            RsaPrivateKey::new_with_exp(&mut rng, bits as usize, &BigUint::from(exponent as u64))
                .map(|k| Private::Rsa(Box::new(k)))
                .map_err(|_| "rsa_exponent")
        }
        "ec" => match to_rust_string(vm, arg(args, 2))?.as_str() {
            "P-256" => Ok(Private::P256(p256::SecretKey::random(&mut rng))),
            "P-384" => Ok(Private::P384(p384::SecretKey::random(&mut rng))),
            _ => Err("ec_curve"),
        },
        "ed25519" | "x25519" => {
            let mut b = [0u8; 32];
            rand_core::RngCore::fill_bytes(&mut rng, &mut b);
            Ok(if kind == "ed25519" { Private::Ed25519(b) } else { Private::X25519(b) })
        }
        _ => Err(UNSUPPORTED),
    };
    let r = key.and_then(|k| k.to_pkcs8());
    buffer_or_error(vm, r)
}

/// `keyDecrypt(der, passphrase)` → the PKCS#8 DER inside an `EncryptedPrivateKeyInfo`
/// (PBES2: PBKDF2 or scrypt, AES-CBC), or an error name (`bad_decrypt` for a wrong passphrase).
pub fn key_decrypt(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let der = bytes_arg(vm, arg(args, 0), "key")?;
    let passphrase = bytes_arg(vm, arg(args, 1), "passphrase")?;
    let Ok(info) = pkcs8::EncryptedPrivateKeyInfo::from_der(&der) else { return Ok(vm.str(UNSUPPORTED)) };
    // The key derivation is the costly part, and its cost is the file's to choose: charge it
    // as fuel, and refuse scrypt memory past Node's default maxmem (32 MiB).
    if let pkcs5::EncryptionScheme::Pbes2(params) = &info.encryption_algorithm {
        match &params.kdf {
            pkcs5::pbes2::Kdf::Pbkdf2(p) => vm.charge(u64::from(p.iteration_count))?,
            pkcs5::pbes2::Kdf::Scrypt(p) => {
                let memory = 128u64.saturating_mul(p.cost_parameter).saturating_mul(u64::from(p.block_size));
                if memory > 32 << 20 {
                    return Ok(vm.str("bad_decrypt"));
                }
                vm.charge(
                    p.cost_parameter
                        .saturating_mul(u64::from(p.block_size))
                        .saturating_mul(u64::from(p.parallelization)),
                )?;
            }
            // A KDF this pkcs5 does not know cannot decrypt either.
            _ => return Ok(vm.str(UNSUPPORTED)),
        }
    }
    // A wrong passphrase usually fails the padding check, but about one time in 256 the
    // garbage ends in valid padding: that is a wrong passphrase too, not another error.
    let r = info
        .decrypt(&passphrase)
        .ok()
        .and_then(|doc| Private::from_pkcs8(doc.as_bytes()).and_then(|k| k.to_pkcs8()).ok())
        .ok_or("bad_decrypt");
    buffer_or_error(vm, r)
}

/// `keyEncrypt(pkcs8, passphrase, cipher, seed)` → `EncryptedPrivateKeyInfo` DER as OpenSSL
/// writes it for Node's `export({ cipher, passphrase })`: PBES2, PBKDF2-HMAC-SHA256 with 2048
/// iterations and an 8-byte salt, AES-128/256-CBC; salt and IV from the 24-byte `seed`.
pub fn key_encrypt(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let der = bytes_arg(vm, arg(args, 0), "key")?;
    let passphrase = bytes_arg(vm, arg(args, 1), "passphrase")?;
    let cipher = to_rust_string(vm, arg(args, 2))?;
    let seed = bytes_arg(vm, arg(args, 3), "seed")?;
    if seed.len() != 24 {
        return Err(vm.range_error("keyEncrypt: the seed is 24 bytes"));
    }
    let salt = &seed[..8];
    let mut iv = [0u8; 16];
    iv.copy_from_slice(&seed[8..]);
    let params = match cipher.as_str() {
        "aes-128-cbc" => pkcs5::pbes2::Parameters::pbkdf2_sha256_aes128cbc(2048, salt, &iv),
        "aes-256-cbc" => pkcs5::pbes2::Parameters::pbkdf2_sha256_aes256cbc(2048, salt, &iv),
        _ => return Ok(vm.str("cipher")),
    };
    let r = params.map_err(|_| UNSUPPORTED).and_then(|params| {
        let info = pkcs8::PrivateKeyInfo::from_der(&der).map_err(|_| UNSUPPORTED)?;
        info.encrypt_with_params(params, &passphrase).map(|doc| doc.as_bytes().to_vec()).map_err(|_| UNSUPPORTED)
    });
    buffer_or_error(vm, r)
}
