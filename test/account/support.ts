import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { FIXED_NOW } from '../helpers';

export const NOW_SEC = Math.floor(FIXED_NOW / 1000);
export const ISSUER = 'https://idp.test.invalid/';
export const AUDIENCE = 'facility-score';
export const SECRET = 'test-secret-0123456789-abcdefghijklmnop';

export type SigningKey = { kid: string; alg: 'RS256' | 'ES256'; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JWK };

export async function signingKey(alg: 'RS256' | 'ES256', kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** Valid claims for the fixed clock: iss/aud as configured, expires in 10 minutes. */
export function claims(overrides: JWTPayload = {}): JWTPayload {
  return { sub: 'user-1', iss: ISSUER, aud: AUDIENCE, iat: NOW_SEC, exp: NOW_SEC + 600, ...overrides };
}

export function signWith(key: SigningKey, payload: JWTPayload = claims(), header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: key.kid, ...header }).sign(key.privateKey);
}

export function signHs(payload: JWTPayload = claims(), secret = SECRET, alg = 'HS256'): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));
}

/** `alg: none`: a token with no signature at all. */
export function unsigned(payload: JWTPayload = claims()): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
}

/**
 * A JWKS endpoint on loopback (port 0) whose key set the test swaps at will; counts fetches so
 * tests can see when the verifier went back to it.
 */
export function jwksServer(initial: SigningKey[]) {
  let keys = initial;
  let fetches = 0;
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch() {
      fetches++;
      return Response.json({ keys: keys.map((k) => k.publicJwk) });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/.well-known/jwks.json`,
    setKeys: (next: SigningKey[]) => void (keys = next),
    get fetches() {
      return fetches;
    },
    stop: () => server.stop(true),
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
