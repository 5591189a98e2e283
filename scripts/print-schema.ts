// Writes schema.graphql from the code (sorted SDL). `--check` fails when the file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { sortedSchema } from '../src/schema/index.js';

export const printed = () => printSchema(sortedSchema()) + '\n';
const file = new URL('../schema.graphql', import.meta.url);
if (process.argv.includes('--check')) {
  if (readFileSync(file, 'utf8') !== printed()) { console.error('schema.graphql is stale: run npm run schema:print'); process.exit(1); }
} else writeFileSync(file, printed());
