//! The JWT verifier against tokens signed with the test keys of `tests/fixtures/auth/`.

use super::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use jsonwebtoken::{EncodingKey, Header, encode};
use serde_json::json;

pub(crate) const ISS: &str = "https://id.example";
const RSA_KEY: &[u8] = include_bytes!("../../../../tests/fixtures/auth/rsa.key.pem");
const RSA_PUB: &[u8] = include_bytes!("../../../../tests/fixtures/auth/rsa.pub.pem");
const EC_KEY: &[u8] = include_bytes!("../../../../tests/fixtures/auth/ec.key.pem");
const EC_PUB: &[u8] = include_bytes!("../../../../tests/fixtures/auth/ec.pub.pem");
const UNTRUSTED: &[u8] = include_bytes!("../../../../tests/fixtures/auth/untrusted-rsa.key.pem");
const JWKS: &str = include_str!("../../../../tests/fixtures/auth/jwks.json");

fn now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

pub(crate) fn claims() -> Value {
    json!({"iss": ISS, "sub": "alice", "client_id": "app", "exp": now() + 600,
           "aud": "https://books.example/mcp", "scope": "books:read"})
}

fn header(alg: Algorithm, kid: Option<&str>) -> Header {
    let mut h = Header::new(alg);
    h.kid = kid.map(str::to_owned);
    h
}

pub(crate) fn rs256(kid: Option<&str>, claims: &Value) -> String {
    let key = EncodingKey::from_rsa_pem(RSA_KEY).unwrap();
    encode(&header(Algorithm::RS256, kid), claims, &key).unwrap()
}

fn jwks() -> JwkSet {
    serde_json::from_str(JWKS).unwrap()
}

fn verifier() -> JwtVerifier {
    JwtVerifier::builder(ISS)
        .algorithms([Algorithm::RS256, Algorithm::ES256])
        .jwks(&jwks())
        .build()
        .unwrap()
}

fn check(v: &JwtVerifier, token: &str) -> Result<AccessToken, AuthError> {
    futures_util::FutureExt::now_or_never(v.check(token, SystemTime::now()))
        .expect("static keys need no waiting")
}

fn refused(v: &JwtVerifier, token: &str) -> String {
    match check(v, token) {
        Err(AuthError::Invalid(s)) => s,
        other => panic!("{other:?}"),
    }
}

/// A token with this header and payload JSON and this signature, not signed at all.
fn forged(header: &Value, claims: &Value, sig: &[u8]) -> String {
    let part = |v: &Value| B64.encode(serde_json::to_vec(v).unwrap());
    format!("{}.{}.{}", part(header), part(claims), B64.encode(sig))
}

#[test]
fn a_token_signed_with_a_trusted_key_is_accepted() {
    let v = verifier();
    let t = check(&v, &rs256(Some("rsa-1"), &claims())).unwrap();
    assert_eq!((t.issuer.as_str(), t.subject.as_str()), (ISS, "alice"));
    assert_eq!(t.client_id.as_deref(), Some("app"));
    assert!(t.scopes.contains("books:read"));
    assert_eq!(
        t.audience,
        crate::identity::Audience::Values(vec!["https://books.example/mcp".into()])
    );
    let ec = EncodingKey::from_ec_pem(EC_KEY).unwrap();
    let es = encode(&header(Algorithm::ES256, Some("ec-1")), &claims(), &ec).unwrap();
    assert!(check(&v, &es).is_ok());
    // Through the trait, as the resource server calls it.
    let bearer = BearerToken::new(es);
    let via_trait = futures_util::FutureExt::now_or_never(v.verify(&bearer)).unwrap();
    assert_eq!(via_trait.unwrap().subject, "alice");
}

#[test]
fn pem_and_der_keys_verify_too() {
    let v = JwtVerifier::builder(ISS)
        .public_key_pem(None, RSA_PUB)
        .build()
        .unwrap();
    // A key without a kid signs tokens with or without one.
    assert!(check(&v, &rs256(Some("anything"), &claims())).is_ok());
    assert!(check(&v, &rs256(None, &claims())).is_ok());
    let (_, der) = spki::der::pem::decode_vec(EC_PUB).unwrap();
    let v = JwtVerifier::builder(ISS)
        .algorithms([Algorithm::ES256])
        .public_key_der(Some("ec-1"), &der)
        .build()
        .unwrap();
    let ec = EncodingKey::from_ec_pem(EC_KEY).unwrap();
    let es = encode(&header(Algorithm::ES256, Some("ec-1")), &claims(), &ec).unwrap();
    assert!(check(&v, &es).is_ok());
}

#[test]
fn untrusted_keys_wrong_algorithms_and_unknown_kids_are_refused() {
    let v = verifier();
    let untrusted = EncodingKey::from_rsa_pem(UNTRUSTED).unwrap();
    let t = encode(
        &header(Algorithm::RS256, Some("rsa-1")),
        &claims(),
        &untrusted,
    )
    .unwrap();
    assert_eq!(refused(&v, &t), "The access token has an invalid signature");
    let t = encode(
        &header(Algorithm::RS256, Some("rsa-9")),
        &claims(),
        &untrusted,
    )
    .unwrap();
    assert_eq!(
        refused(&v, &t),
        "The access token is signed by an unknown key"
    );
    // An ES256 token when only RS256 is allowed.
    let rs_only = JwtVerifier::builder(ISS).jwks(&jwks()).build().unwrap();
    let ec = EncodingKey::from_ec_pem(EC_KEY).unwrap();
    let es = encode(&header(Algorithm::ES256, Some("ec-1")), &claims(), &ec).unwrap();
    assert_eq!(
        refused(&rs_only, &es),
        "The access token is signed with an algorithm this server does not accept"
    );
    // An RS256 token naming the EC key's kid: the algorithm does not fit the key.
    assert_eq!(
        refused(&v, &rs256(Some("ec-1"), &claims())),
        "The access token is signed by an unknown key"
    );
    // No kid, two usable keys (RS256 and ES256 are both allowed; two RSA keys here).
    let two = JwtVerifier::builder(ISS)
        .public_key_pem(Some("a"), RSA_PUB)
        .public_key_pem(Some("b"), RSA_PUB)
        .build()
        .unwrap();
    assert_eq!(
        refused(&two, &rs256(None, &claims())),
        "The access token names no key (kid), and several could have signed it"
    );
    // No kid and one RSA key among the JWKS's keys: that one.
    assert!(check(&v, &rs256(None, &claims())).is_ok());
}

#[test]
fn the_key_confusion_attack_and_alg_none_fail() {
    // HS256 "signed" with the RSA public key's PEM bytes as the HMAC secret: the classic
    // confusion. Refused whether or not HS256 is in the allow-list of an RSA verifier.
    let secret = EncodingKey::from_secret(RSA_PUB).unwrap();
    let t = encode(&header(Algorithm::HS256, Some("rsa-1")), &claims(), &secret).unwrap();
    let v = JwtVerifier::builder(ISS)
        .public_key_pem(Some("rsa-1"), RSA_PUB)
        .build()
        .unwrap();
    assert_eq!(
        refused(&v, &t),
        "The access token is signed with an algorithm this server does not accept"
    );
    let cannot = JwtVerifier::builder(ISS)
        .algorithms([Algorithm::RS256, Algorithm::HS256])
        .public_key_pem(Some("rsa-1"), RSA_PUB)
        .build();
    assert!(cannot.unwrap_err().to_string().contains("hmac_secret"));
    // `alg: none`, with and without a signature, in several spellings.
    for alg in ["none", "None", "NONE", ""] {
        for sig in [&b""[..], b"x"] {
            let t = forged(&json!({"alg": alg, "kid": "rsa-1"}), &claims(), sig);
            assert_eq!(
                refused(&verifier(), &t),
                "The access token is not a well-formed JWT"
            );
        }
    }
    // A real HMAC verifier accepts its own secret and algorithm only.
    let h = JwtVerifier::builder(ISS)
        .hmac_secret(b"a shared secret of enough length", Algorithm::HS256)
        .build()
        .unwrap();
    let good = EncodingKey::from_secret(b"a shared secret of enough length").unwrap();
    let t = encode(&header(Algorithm::HS256, None), &claims(), &good).unwrap();
    assert!(check(&h, &t).is_ok());
    let t = encode(&header(Algorithm::HS384, None), &claims(), &good).unwrap();
    assert!(check(&h, &t).is_err());
    assert!(refused(&h, &rs256(None, &claims())).contains("algorithm"));
}

#[test]
fn the_typ_policy_is_lenient_unless_at_jwt_is_required() {
    let key = EncodingKey::from_rsa_pem(RSA_KEY).unwrap();
    let with_typ = |typ: Option<&str>| {
        let mut h = header(Algorithm::RS256, Some("rsa-1"));
        h.typ = typ.map(str::to_owned);
        encode(&h, &claims(), &key).unwrap()
    };
    let strict = JwtVerifier::builder(ISS)
        .jwks(&jwks())
        .require_at_jwt(true)
        .build()
        .unwrap();
    for (typ, lenient_ok, strict_ok) in [
        (Some("at+jwt"), true, true),
        (Some("application/at+JWT"), true, true),
        (Some("JWT"), true, false),
        (None, true, false),
        (Some("id+jwt"), false, false),
    ] {
        assert_eq!(
            check(&verifier(), &with_typ(typ)).is_ok(),
            lenient_ok,
            "{typ:?}"
        );
        assert_eq!(check(&strict, &with_typ(typ)).is_ok(), strict_ok, "{typ:?}");
    }
}

#[test]
fn claims_are_checked_after_the_signature() {
    let v = verifier();
    let mut c = claims();
    c["iss"] = json!("https://evil.example");
    assert_eq!(
        refused(&v, &rs256(Some("rsa-1"), &c)),
        "The access token was issued by another issuer"
    );
    let mut c = claims();
    c["exp"] = json!(now() - 60);
    assert_eq!(
        refused(&v, &rs256(Some("rsa-1"), &c)),
        "The access token expired"
    );
    c["exp"] = json!(now() - 10);
    assert!(
        check(&v, &rs256(Some("rsa-1"), &c)).is_ok(),
        "within the leeway"
    );
    let strict = JwtVerifier::builder(ISS)
        .jwks(&jwks())
        .leeway(Duration::ZERO)
        .build()
        .unwrap();
    assert_eq!(
        refused(&strict, &rs256(Some("rsa-1"), &c)),
        "The access token expired"
    );
    let mut c = claims();
    c["nbf"] = json!(now() + 120);
    assert_eq!(
        refused(&v, &rs256(Some("rsa-1"), &c)),
        "The access token is not valid yet"
    );
    c.as_object_mut().unwrap().remove("aud");
    c["nbf"] = json!(now());
    let t = check(&v, &rs256(Some("rsa-1"), &c)).unwrap();
    assert_eq!(t.audience, crate::identity::Audience::Values(vec![]));
    // A valid signature over claims that are not an object.
    let key = EncodingKey::from_rsa_pem(RSA_KEY).unwrap();
    let t = encode(
        &header(Algorithm::RS256, Some("rsa-1")),
        &json!([1, 2]),
        &key,
    )
    .unwrap();
    assert_eq!(refused(&v, &t), "The access token is not a well-formed JWT");
}

#[test]
fn garbage_never_panics_and_never_echoes_the_token() {
    let v = verifier();
    let good = rs256(Some("rsa-1"), &claims());
    let mut inputs: Vec<String> = [
        "",
        ".",
        "..",
        "...",
        "a.b.c",
        "a.b",
        "a.b.c.d",
        "Ym9ndXM.Ym9ndXM.Ym9ndXM",
        "eyJ.eyJ.",
        "\u{0}\u{1}",
        "é.é.é",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    inputs.push(forged(
        &json!({"alg": "RS256", "kid": "x".repeat(20_000)}),
        &claims(),
        b"s",
    ));
    inputs.push(forged(
        &json!({"alg": "RS256", "crit": ["exp"]}),
        &claims(),
        b"s",
    ));
    inputs.push(forged(&json!({"alg": "RS256", "kid": 5}), &claims(), b"s"));
    inputs.push(forged(&json!("RS256"), &claims(), b"s"));
    inputs.push(forged(
        &json!({"alg": "RS256", "kid": "rsa-1"}),
        &json!(null),
        &[0; 256],
    ));
    let deep = "[".repeat(10_000);
    inputs.push(format!("{}.{}.x", B64.encode(&deep), B64.encode(&deep)));
    for cut in [1, good.len() / 2, good.len() - 1] {
        inputs.push(good[..cut].to_owned());
    }
    let (head, _) = good.rsplit_once('.').unwrap();
    inputs.push(format!("{head}.{}", B64.encode([0u8; 256])));
    inputs.push(format!("{head}.!!!"));
    inputs.push(format!("{good}."));
    for t in &inputs {
        match check(&v, t) {
            Err(AuthError::Invalid(s)) => {
                assert!(s.starts_with("The access token "), "{s}");
                assert!(
                    s.len() < 100 && (t.len() < 8 || !s.contains(&t[..8])),
                    "{s}"
                );
            }
            other => panic!("{t:?}: {other:?}"),
        }
    }
}

#[test]
fn bad_configurations_are_errors() {
    let err = |b: JwtVerifierBuilder| b.build().unwrap_err().to_string();
    assert!(err(JwtVerifier::builder(ISS)).contains("at least one key"));
    assert!(err(JwtVerifier::builder("").jwks(&jwks())).contains("issuer"));
    assert!(err(JwtVerifier::builder(ISS).jwks(&jwks()).algorithms([])).contains("algorithm"));
    assert!(err(JwtVerifier::builder(ISS).public_key_pem(None, b"nope")).contains("PEM"));
    assert!(err(JwtVerifier::builder(ISS).public_key_der(None, b"nope")).contains("DER"));
    assert!(err(JwtVerifier::builder(ISS).public_key_pem(None, RSA_KEY)).contains("PUBLIC KEY"));
    assert!(err(JwtVerifier::builder(ISS).hmac_secret(b"", Algorithm::HS256)).contains("empty"));
    assert!(err(JwtVerifier::builder(ISS).hmac_secret(b"k", Algorithm::RS256)).contains("HMAC"));
    let hmac_and_rsa = JwtVerifier::builder(ISS)
        .hmac_secret(b"k", Algorithm::HS256)
        .public_key_pem(None, RSA_PUB);
    assert!(err(hmac_and_rsa).contains("only key"));
    let secret = DecodingKey::from_secret(b"k").unwrap();
    assert!(err(JwtVerifier::builder(ISS).key(None, secret)).contains("hmac_secret"));
    // An Ed25519 key of the wrong length would make the crypto backend index out of bounds.
    let short = DecodingKey::from_ed_der(&[1; 5]);
    assert!(err(JwtVerifier::builder(ISS).key(None, short)).contains("32 bytes"));
    let too_many = JwkSet {
        keys: (0..65).map(|_| jwks().keys[0].clone()).collect(),
    };
    assert!(err(JwtVerifier::builder(ISS).jwks(&too_many)).contains("64"));
    let only_enc: JwkSet = serde_json::from_value(json!({"keys": [
        {"kty": "oct", "k": "c2VjcmV0"},
        {"kty": "OKP", "crv": "Ed25519", "x": "AAAA"},
        {"kty": "RSA", "use": "enc", "n": "AQAB", "e": "AQAB"},
        {"kty": "EC", "alg": "RS256", "crv": "P-256", "x": "AA", "y": "AA"},
        {"kty": "weird"}
    ]}))
    .unwrap();
    assert!(err(JwtVerifier::builder(ISS).jwks(&only_enc)).contains("no usable"));
}
