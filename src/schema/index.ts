// Imports every schema module and builds the executable schema.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import './site/types.js';
import './posts/types.js';
import './posts/queries.js';
import './posts/mutations.js';

export const schema = builder.toSchema();

/** The printed SDL is sorted so that its diff shows real changes only. */
export const sortedSchema = () => lexicographicSortSchema(schema);
