// The Pothos builder and its plugins; defines no domain types.
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import NullableRootsPlugin from './nullable-roots.js';
import { GraphQLScalarType } from 'graphql';
import { GraphQLJSON, GraphQLLocalDateTime, GraphQLURL } from 'graphql-scalars';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type { Context } from '../context.js';

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  DefaultFieldNullability: false;
  Scalars: {
    LocalDateTime: { Input: string; Output: string };
    URL: { Input: URL; Output: string | URL };
    JSON: { Input: unknown; Output: unknown };
    File: { Input: File; Output: never };
  };
}>({
  // Nullable Query and Mutation fields, so one failing root field does not blank the rest of the
  // answer (the reasons, and why Subscription is left alone, are in nullable-roots.ts).
  plugins: [PrismaPlugin, NullableRootsPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    // A development aid (a resolver handed a Prisma selection it did not use): warned about under
    // the tests and in development only. It was on whenever NODE_ENV was not "production", and
    // `npm start` sets none, so a served GraphQL list asking for featuredImage wrote a line to
    // stderr for each post without a featured image (nothing to read, so the selection goes unused).
    onUnusedQuery: process.env.NODE_ENV === 'test' || process.env.NODE_ENV === 'development' ? 'warn' : null,
  },
});

/** Days of each month, February of a leap year. */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const digits = (v: string, from: number, to: number): number => {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = v.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
};

/**
 * Whether `v` is a plain `YYYY-MM-DDTHH:mm:ss` that is a real date and time, as every date the
 * service writes (src/content/dates.ts) is: checked on its characters, where graphql-scalars' own
 * check upper-cases it, matches a regular expression and parses a Date, for each of the four dates
 * of every item of a list (2% of a cold page's CPU). Anything else takes that check.
 */
export function plainLocalDateTime(v: unknown): v is string {
  if (typeof v !== 'string' || v.length !== 19 || v[4] !== '-' || v[7] !== '-' || v[10] !== 'T' || v[13] !== ':' || v[16] !== ':') return false;
  const year = digits(v, 0, 4), month = digits(v, 5, 7), day = digits(v, 8, 10);
  const hour = digits(v, 11, 13), minute = digits(v, 14, 16), second = digits(v, 17, 19);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && !leap ? 28 : MONTH_DAYS[month - 1]);
}

/** graphql-scalars' LocalDateTime, its output checked quickly when it is plain (`plainLocalDateTime`). */
function localDateTime(): GraphQLScalarType {
  const config = GraphQLLocalDateTime.toConfig();
  const serialize = config.serialize;
  return new GraphQLScalarType({ ...config, serialize: (value) => (plainLocalDateTime(value) ? value : serialize(value)) });
}

builder.addScalarType('LocalDateTime', localDateTime());
builder.addScalarType('URL', GraphQLURL);
builder.addScalarType('JSON', GraphQLJSON);

builder.queryType({ description: 'Read access to the site and its content.' });
builder.mutationType({ description: 'Changes to the site and its content.' });
