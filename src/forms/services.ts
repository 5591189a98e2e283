// What the forms need from the running service besides the database: where the REST API lives
// (the HTML form posts there), the mail transport, where submitted files are kept and the spam
// limits. Registered per database handle by the app, so two apps in one process (tests) keep
// their own; code without an app (operator commands) gets the defaults.
import { join, resolve } from 'node:path';
import type { Db } from '../db/client.js';

export interface FormServices {
  /** API root with a trailing slash (`https://site/wp-json/`); the HTML form posts under it. */
  restRoot: string | null;
  /** `smtp://user:pass@host:port` (or `smtps://`); null: mail is not configured and fails. */
  smtpUrl: string | null;
  /** Private directory for the files of submissions (never served). */
  privateDir: string;
  /** Accepted submissions per address and form within `rateWindowMs` (0: no limit). */
  rateLimit: number;
  rateWindowMs: number;
  /** The honeypot field: the HTML renders it hidden, and a submission that fills it is spam. */
  honeypot: string;
}

export const HONEYPOT_FIELD = '_wpcf7_hp';

export const defaultFormServices = (): FormServices => ({
  restRoot: null,
  smtpUrl: null,
  privateDir: resolve(join('./data/uploads', 'private', 'forms')),
  rateLimit: 5,
  rateWindowMs: 60_000,
  honeypot: HONEYPOT_FIELD,
});

const registered = new WeakMap<Db, FormServices>();

export function registerFormServices(db: Db, services: Partial<FormServices>): FormServices {
  const s = { ...defaultFormServices(), ...services };
  registered.set(db, s);
  return s;
}

export function formServices(db: Db): FormServices {
  let s = registered.get(db);
  if (!s) registered.set(db, (s = defaultFormServices()));
  return s;
}
