// What the forms need from the running service besides the database: where the REST API lives
// (the HTML form posts there), the mail transport, where submitted files are kept and the spam
// limits (whose counts are in the database, shared by every process). One per app, among its
// services (src/services.ts), so two apps in one process (tests) keep their own settings; code
// without an app (operator commands) gets the defaults.
import { join, resolve } from 'node:path';

/** How the app sets the forms up (the defaults below stand for what it leaves out). */
export interface FormSettings {
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

export interface FormServices extends FormSettings {
  /** The clock of the rate limit's windows (tests stop it); the counts are in the database. */
  now: () => number;
}

export const HONEYPOT_FIELD = '_wpcf7_hp';

export const defaultFormSettings = (): FormSettings => ({
  restRoot: null,
  smtpUrl: null,
  privateDir: resolve(join('./data/uploads', 'private', 'forms')),
  rateLimit: 5,
  rateWindowMs: 60_000,
  honeypot: HONEYPOT_FIELD,
});

/** The forms' services: the defaults, with what the app sets over them. */
export function createFormServices(settings: Partial<FormSettings> = {}): FormServices {
  return { ...defaultFormSettings(), ...settings, now: () => Date.now() };
}
