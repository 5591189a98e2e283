import { describe, expect, it } from 'vitest';
import {
  formatWpDate,
  gmtOffsetString,
  localToUtc,
  offsetAt,
  parseRestDate,
  utcToLocal,
  type SiteClock,
} from '../../src/content/dates.js';

/** A Date from 'YYYY-MM-DDTHH:MM:SS' read as UTC fields (naive or real, depending on use). */
const at = (s: string) => new Date(`${s}Z`);

const PARIS: SiteClock = { timezoneString: 'Europe/Paris', gmtOffset: 0 };
const MANUAL_5_5: SiteClock = { timezoneString: '', gmtOffset: 5.5 };
const MANUAL_MINUS_3_5: SiteClock = { timezoneString: '', gmtOffset: -3.5 };
const UTC: SiteClock = { timezoneString: 'UTC', gmtOffset: 0 };

describe('parseRestDate', () => {
  const f = (y: number, m: number, d: number, H: number, M: number, S: number) => ({ y, m, d, H, M, S });

  it.each([
    ['T separator, no zone', '2021-07-01T12:34:56', f(2021, 7, 1, 12, 34, 56), null],
    ['space separator', '2021-07-01 12:34:56', f(2021, 7, 1, 12, 34, 56), null],
    ['lower-case t', '2021-07-01t12:34:56', f(2021, 7, 1, 12, 34, 56), null],
    ['fraction and Z', '2021-07-01T12:34:56.789Z', f(2021, 7, 1, 12, 34, 56), 0],
    ['+HH:MM', '2021-07-01T12:34:56+05:30', f(2021, 7, 1, 12, 34, 56), 330],
    ['-HH', '2021-07-01T12:34:56-03', f(2021, 7, 1, 12, 34, 56), -180],
    ['-00:00', '2021-07-01T12:34:56-00:00', f(2021, 7, 1, 12, 34, 56), 0],
    ['leap day', '2020-02-29T00:00:00', f(2020, 2, 29, 0, 0, 0), null],
  ])('accepts %s', (_name, input, fields, offset) => {
    expect(parseRestDate(input)).toEqual({ fields, offsetMinutes: offset, impossible: false, phpRejects: false, normalized: fields });
  });

  it.each([
    ['date only', '2021-07-01'],
    ['no seconds', '2021-07-01T12:34'],
    ['offset without colon', '2021-07-01T12:34:56+0530'],
    ['lower-case z', '2021-07-01T12:34:56z'],
    ['two-digit year', '21-07-01T12:34:56'],
    ['single-digit month', '2021-7-01T12:34:56'],
    ['surrounding space', ' 2021-07-01T12:34:56'],
    ['empty', ''],
    ['garbage', 'yesterday'],
  ])('rejects %s', (_name, input) => {
    expect(parseRestDate(input)).toBeNull();
  });

  it.each([
    ['Feb 30 (PHP rolls it over)', '2021-02-30T10:00:00', false, f(2021, 3, 2, 10, 0, 0)],
    ['Feb 29 in a common year', '2021-02-29T10:00:00', false, f(2021, 3, 1, 10, 0, 0)],
    ['hour 24 (PHP rolls it over)', '2021-01-01T24:00:00', false, f(2021, 1, 2, 0, 0, 0)],
    ['month 13', '2021-13-01T00:00:00', true, f(2022, 1, 1, 0, 0, 0)],
    ['hour 25', '2021-01-01T25:00:00', true, f(2021, 1, 2, 1, 0, 0)],
    ['minute 60', '2021-01-01T10:60:00', true, f(2021, 1, 1, 11, 0, 0)],
    ['day 32', '2021-01-32T00:00:00', true, f(2021, 2, 1, 0, 0, 0)],
  ])('flags %s as impossible', (_name, input, phpRejects, normalized) => {
    const parsed = parseRestDate(input);
    expect(parsed?.impossible).toBe(true);
    expect(parsed?.phpRejects).toBe(phpRejects);
    expect(parsed?.normalized).toEqual(normalized);
  });
});

describe('offsets and conversions', () => {
  it.each([
    ['Paris summer', PARIS, '2021-07-01T10:00:00', 120],
    ['Paris winter', PARIS, '2021-01-15T11:00:00', 60],
    ['manual 5.5', MANUAL_5_5, '2021-07-01T10:00:00', 330],
    ['manual -3.5', MANUAL_MINUS_3_5, '2021-07-01T10:00:00', -210],
    ['UTC', UTC, '2021-07-01T10:00:00', 0],
    ['unknown zone falls back to gmt_offset', { timezoneString: 'Not/AZone', gmtOffset: -3 }, '2021-07-01T10:00:00', -180],
  ])('offsetAt %s', (_name, clock, utc, minutes) => {
    expect(offsetAt(clock, at(utc))).toBe(minutes);
  });

  it.each([
    ['Paris summer', PARIS, '2021-07-01T10:00:00', '2021-07-01T12:00:00'],
    ['Paris winter', PARIS, '2021-01-15T11:00:00', '2021-01-15T12:00:00'],
    ['Paris, first 02:30 of the fall-back night', PARIS, '2021-10-31T00:30:00', '2021-10-31T02:30:00'],
    ['Paris, second 02:30 of the fall-back night', PARIS, '2021-10-31T01:30:00', '2021-10-31T02:30:00'],
    ['manual 5.5', MANUAL_5_5, '2021-07-01T06:30:00', '2021-07-01T12:00:00'],
    ['manual -3.5 across midnight', MANUAL_MINUS_3_5, '2021-07-01T02:00:00', '2021-06-30T22:30:00'],
  ])('utcToLocal %s', (_name, clock, utc, local) => {
    expect(formatWpDate(utcToLocal(clock, at(utc)))).toBe(local);
  });

  it.each([
    ['Paris summer', PARIS, '2021-07-01T12:00:00', '2021-07-01T10:00:00'],
    ['Paris winter', PARIS, '2021-01-15T12:00:00', '2021-01-15T11:00:00'],
    ['Paris ambiguous → first (summer-time) occurrence', PARIS, '2021-10-31T02:30:00', '2021-10-31T00:30:00'],
    ['Paris skipped hour → read with the old offset', PARIS, '2021-03-28T02:30:00', '2021-03-28T01:30:00'],
    ['manual 5.5', MANUAL_5_5, '2021-07-01T12:00:00', '2021-07-01T06:30:00'],
    ['manual -3.5', MANUAL_MINUS_3_5, '2021-06-30T22:30:00', '2021-07-01T02:00:00'],
    ['UTC', UTC, '2021-07-01T12:00:00', '2021-07-01T12:00:00'],
  ])('localToUtc %s', (_name, clock, local, utc) => {
    expect(formatWpDate(localToUtc(clock, at(local)))).toBe(utc);
  });

  it('round-trips every hour of a DST year in Paris (outside the repeated hour)', () => {
    for (let t = at('2021-01-01T00:00:00').getTime(); t < at('2022-01-01T00:00:00').getTime(); t += 3_600_000) {
      const utc = new Date(t);
      if (utc.toISOString().startsWith('2021-10-31T01')) continue; // second 02:xx maps back to the first
      expect(localToUtc(PARIS, utcToLocal(PARIS, utc)).getTime()).toBe(t);
    }
  });
});

describe('formatWpDate', () => {
  it.each([
    ['plain', '2021-07-01T12:34:56.789Z', '2021-07-01T12:34:56'],
    ['padding', '2021-01-02T03:04:05.000Z', '2021-01-02T03:04:05'],
    ['midnight', '2000-01-01T00:00:00.000Z', '2000-01-01T00:00:00'],
  ])('%s', (_name, iso, expected) => {
    expect(formatWpDate(new Date(iso))).toBe(expected);
  });

  it('pads small years to four digits', () => {
    const d = new Date(0);
    d.setUTCFullYear(99, 2, 4);
    d.setUTCHours(5, 6, 7, 0);
    expect(formatWpDate(d)).toBe('0099-03-04T05:06:07');
  });
});

describe('gmtOffsetString', () => {
  it.each([
    ['manual 5.5', MANUAL_5_5, undefined, '5.5'],
    ['manual 0', { timezoneString: '', gmtOffset: 0 }, undefined, '0'],
    ['manual -3', { timezoneString: '', gmtOffset: -3 }, undefined, '-3'],
    ['manual -0 prints 0', { timezoneString: '', gmtOffset: -0 }, undefined, '0'],
    ['Asia/Kolkata', { timezoneString: 'Asia/Kolkata', gmtOffset: 0 }, undefined, '5.5'],
    ['Asia/Kathmandu', { timezoneString: 'Asia/Kathmandu', gmtOffset: 0 }, undefined, '5.75'],
    ['UTC zone', UTC, undefined, '0'],
    ['Paris in summer', PARIS, '2021-07-01T00:00:00', '2'],
    ['Paris in winter', PARIS, '2021-01-01T00:00:00', '1'],
    ['St Johns in winter', { timezoneString: 'America/St_Johns', gmtOffset: 0 }, '2021-01-01T00:00:00', '-3.5'],
    ['zone wins over gmt_offset', { timezoneString: 'Asia/Tokyo', gmtOffset: -5 }, undefined, '9'],
  ])('%s', (_name, clock, now, expected) => {
    expect(gmtOffsetString(clock, now ? at(now) : undefined)).toBe(expected);
  });
});
