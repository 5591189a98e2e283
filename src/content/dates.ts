/**
 * Site-clock date handling as WordPress does it for posts.
 *
 * Dates are carried as JS Dates in two forms: the site-local wall-clock time
 * stored as if it were UTC (a "naive" Date: its UTC fields are the local
 * fields, like post_date) and the real instant (like post_date_gmt).
 */

/** WordPress's timezone_string ('' or an IANA name) and gmt_offset (hours, may be fractional or negative). */
export interface SiteClock {
  timezoneString: string;
  gmtOffset: number;
}

export interface DateFields {
  y: number;
  m: number;
  d: number;
  H: number;
  M: number;
  S: number;
}

export interface ParsedRestDate {
  fields: DateFields;
  /** Minutes east of UTC given in the input (Z → 0), or null when no zone was given. */
  offsetMinutes: number | null;
  /** The fields are no real date and time: month 0 or 13, Feb 30, hour 24+, minute or second 60+ … */
  impossible: boolean;
  /**
   * Whether WordPress itself rejects the value: rest_parse_date() hands it to
   * PHP's strtotime(), which fails only for month > 12, day > 31, hour > 24,
   * minute > 59 or second > 60 (the REST API answers 400 rest_invalid_param
   * "Invalid date."). Other impossible values are rolled over (see `normalized`).
   */
  phpRejects: boolean;
  /** The fields after PHP's rollover: Feb 30 → Mar 2 (or Mar 1 in a leap year), hour 24 → next day 00. */
  normalized: DateFields;
}

const REST_DATE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:(Z)|([+-])(\d{2})(?::(\d{2}))?)?\n?$/;

const MINUTE = 60_000;
const DAY = 86_400_000;

function daysInMonth(y: number, m: number): number {
  const d = new Date(0);
  d.setUTCFullYear(y, m, 0);
  return d.getUTCDate();
}

/** A Date whose UTC fields are the given ones (years 0–99 kept as such; overflow rolls over). */
function utcDate(f: DateFields, ms = 0): Date {
  const d = new Date(Date.UTC(2000, 0, 1));
  d.setUTCFullYear(f.y, f.m - 1, f.d);
  d.setUTCHours(f.H, f.M, f.S, ms);
  return d;
}

function fieldsOf(d: Date): DateFields {
  return {
    y: d.getUTCFullYear(),
    m: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    H: d.getUTCHours(),
    M: d.getUTCMinutes(),
    S: d.getUTCSeconds(),
  };
}

/**
 * rest_parse_date()'s accepted format: YYYY-MM-DD, 'T'/'t'/space, HH:MM:SS,
 * optional fraction (ignored, as strtotime() does), optional Z or ±HH[:MM].
 * Returns null when the format does not match.
 */
export function parseRestDate(input: string): ParsedRestDate | null {
  const m = REST_DATE.exec(input);
  if (!m) return null;
  const [y, mo, d, H, M, S] = m.slice(1, 7).map(Number);
  const fields: DateFields = { y, m: mo, d, H, M, S };

  let offsetMinutes: number | null = null;
  if (m[7] === 'Z') offsetMinutes = 0;
  else if (m[8]) {
    const magnitude = Number(m[9]) * 60 + (m[10] ? Number(m[10]) : 0);
    offsetMinutes = m[8] === '-' ? -magnitude || 0 : magnitude;
  }

  const impossible = mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, Math.min(Math.max(mo, 1), 12)) || H > 23 || M > 59 || S > 59;
  const phpRejects = mo > 12 || d > 31 || H > 24 || M > 59 || S > 60;
  return { fields, offsetMinutes, impossible, phpRejects, normalized: fieldsOf(utcDate(fields)) };
}

// ---------------------------------------------------------------------------
// Offsets
// ---------------------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = null;
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** Offset of an IANA zone at an instant, in minutes (fractional for pre-1900 local mean time). */
function zoneOffsetMinutes(f: Intl.DateTimeFormat, utcMs: number): number {
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(utcMs))) parts[p.type] = p.value;
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = utcDate({
    y: year,
    m: Number(parts.month),
    d: Number(parts.day),
    H: Number(parts.hour) % 24,
    M: Number(parts.minute),
    S: Number(parts.second),
  }).getTime();
  const wholeSeconds = Math.floor(utcMs / 1000) * 1000;
  return (wall - wholeSeconds) / MINUTE + 0;
}

/**
 * A manual gmt_offset as wp_timezone_string() turns it into '±HH:MM': whole
 * hours, plus the fraction's minutes truncated.
 */
function fixedOffsetMinutes(gmtOffset: number): number {
  const hours = Math.trunc(gmtOffset);
  const minutes = Math.trunc(Math.abs((gmtOffset - hours) * 60));
  const magnitude = Math.abs(hours) * 60 + minutes;
  return gmtOffset < 0 ? -magnitude : magnitude;
}

/** The IANA formatter when timezone_string is set and known, else null (gmt_offset applies). */
function zoneOf(clock: SiteClock): Intl.DateTimeFormat | null {
  return clock.timezoneString ? formatterFor(clock.timezoneString) : null;
}

/** Site offset in minutes at a UTC instant (DST-aware for IANA zones). */
export function offsetAt(clock: SiteClock, utc: Date): number {
  const zone = zoneOf(clock);
  return zone ? zoneOffsetMinutes(zone, utc.getTime()) : fixedOffsetMinutes(clock.gmtOffset);
}

/** Real UTC instant → naive local Date (get_date_from_gmt). */
export function utcToLocal(clock: SiteClock, utc: Date): Date {
  return new Date(utc.getTime() + offsetAt(clock, utc) * MINUTE);
}

/**
 * Naive local Date → real UTC instant (get_gmt_from_date, i.e. PHP's
 * `new DateTime($local, wp_timezone())`). For IANA zones:
 * - a time repeated when clocks go back resolves to its first occurrence
 *   (the daylight-saving one: Paris 2021-10-31 02:30 → 00:30Z);
 * - a time skipped when clocks go forward is read with the offset in force
 *   before the change, landing after it (Paris 2021-03-28 02:30 → 01:30Z,
 *   which is 03:30 local).
 */
export function localToUtc(clock: SiteClock, local: Date): Date {
  const localMs = local.getTime();
  const zone = zoneOf(clock);
  if (!zone) return new Date(localMs - fixedOffsetMinutes(clock.gmtOffset) * MINUTE);

  const offsets = new Set([localMs - DAY, localMs, localMs + DAY].map((t) => zoneOffsetMinutes(zone, t)));
  const candidates = [...offsets].map((o) => localMs - o * MINUTE).sort((a, b) => a - b);
  const consistent = candidates.filter((u) => zoneOffsetMinutes(zone, u) === (localMs - u) / MINUTE);
  if (consistent.length > 0) return new Date(consistent[0]);
  // In a gap: the earliest candidate still lies before the change, so its offset is the old one.
  return new Date(localMs - zoneOffsetMinutes(zone, candidates[0]) * MINUTE);
}

// ---------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A Date's UTC fields as REST records show them: 'YYYY-MM-DDTHH:MM:SS'. */
export function formatWpDate(d: Date): string {
  const f = fieldsOf(d);
  return `${pad(f.y, 4)}-${pad(f.m)}-${pad(f.d)}T${pad(f.H)}:${pad(f.M)}:${pad(f.S)}`;
}

/**
 * get_option('gmt_offset') as text: the manual offset ('0', '5.5', '-3'), or
 * for a timezone_string site the offset now in hours rounded to 2 decimals
 * (wp_timezone_override_offset), e.g. 'Asia/Kolkata' → '5.5', Paris in summer → '2'.
 */
export function gmtOffsetString(clock: SiteClock, now: Date = new Date()): string {
  const zone = zoneOf(clock);
  if (!zone) return String(clock.gmtOffset + 0);
  const hours = zoneOffsetMinutes(zone, now.getTime()) / 60;
  const rounded = (Math.sign(hours) * Math.round(Math.abs(hours) * 100)) / 100;
  return String(rounded + 0);
}
