// Login passwords: scrypt (memory-hard, in node's crypto), compared in constant time.
// Application passwords: 24 random alphanumerics, stored as HMAC-SHA256 under the site key: they
// are high-entropy, so a fast keyed hash is enough and lets a login be checked with one lookup.
import { createHmac, randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashLoginPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyLoginPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
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
