// Login passwords: argon2id (@node-rs/argon2, OWASP's parameters), verified in constant time by
// the library. Hashes written by earlier versions (scrypt) still verify and are replaced with
// argon2id on the next successful login (`needsRehash`).
// Application passwords: 24 random alphanumerics, stored as HMAC-SHA256 under the site key: they
// are high-entropy, so a fast keyed hash is enough and lets a login be checked with one lookup.
import { createHmac, randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

/** argon2id with 19 MiB, 2 passes, 1 lane (OWASP's first recommended setting). */
// algorithm 2 = Argon2id (the package's const enum cannot be imported under isolatedModules).
const ARGON2 = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const ARGON2_PREFIX = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$`;

export async function hashLoginPassword(password: string): Promise<string> {
  return argon2Hash(password.normalize('NFKC'), ARGON2);
}

export async function verifyLoginPassword(password: string, stored: string): Promise<boolean> {
  const normalised = password.normalize('NFKC');
  if (stored.startsWith('$argon2')) {
    try { return await argon2Verify(stored, normalised); } catch { return false; }
  }
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(normalised, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT_MAXMEM,
  });
  return timingSafeEqual(actual, expected);
}

/** Whether a stored hash should be replaced after a successful login (older scheme or parameters). */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(ARGON2_PREFIX);
}

/** A hash that never verifies, checked for unknown logins so they take as long as known ones. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  return (decoy ??= hashLoginPassword(randomBytes(16).toString('hex')));
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new application password as WordPress shows it: 24 alphanumerics in groups of four. */
export function newApplicationPassword(): string {
  let raw = '';
  for (let i = 0; i < 24; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
  return raw.match(/.{4}/g)!.join(' ');
}

/** WordPress strips everything but letters and digits before checking. */
export function normaliseApplicationPassword(input: string): string {
  return input.replace(/[^a-z\d]/gi, '');
}

export function hashApplicationPassword(siteKey: string, password: string): string {
  return createHmac('sha256', siteKey).update(normaliseApplicationPassword(password)).digest('hex');
}

export function randomPassword(length = 20): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Constant-time equality of two strings (false when the lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
