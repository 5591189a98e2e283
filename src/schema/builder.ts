// The Pothos builder and its plugins; defines no domain types.
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import NullableRootsPlugin from './nullable-roots.js';
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

builder.addScalarType('LocalDateTime', GraphQLLocalDateTime);
builder.addScalarType('URL', GraphQLURL);
builder.addScalarType('JSON', GraphQLJSON);

builder.queryType({ description: 'Read access to the site and its content.' });
builder.mutationType({ description: 'Changes to the site and its content.' });
