// The import-boundary check (`npm run lint:boundaries`, and test/contract/boundaries.test.ts in
// `npm test`). The layers, top to bottom, and why each rule exists: docs/architecture.md, "Layers
// and the import-boundary check". A layer may import its own and any lower layer, never a higher
// one, and no module may reach itself again through its imports.
//
// Violations listed in .dependency-cruiser-known-violations.json are tolerated; anything not on that
// list fails. The list held those that predated the check until they were fixed; it is empty now
// and only shrinks.

/** The infrastructure: the database, the generated Prisma client and types, configuration, errors, logging. */
const INFRASTRUCTURE = ['^src/db/', '^src/generated/', '^src/(config|errors|log|root)[.]ts$'];
/** The GraphQL layer. */
const SCHEMA = '^src/schema/';
/** The domain: everything else in src/. */
const DOMAIN_NOT = [SCHEMA, ...INFRASTRUCTURE];
/** What runs the service but is not part of it: tests, benchmarks, scripts, tools, the Prisma seed. */
const OUTSIDE = '^(test|bench|scripts|tools|prisma)/';

module.exports = {
  forbidden: [
    {
      name: 'src-not-to-gateway',
      comment:
        'src/ is the service without HTTP; the gateway (routes, adapters, server) sits on top of it and ' +
        'nothing below may reach up into it.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^gateway/' },
    },
    {
      name: 'domain-not-to-schema',
      comment:
        'The domain folders of src/ sit below the GraphQL layer: a helper both need lives in the domain ' +
        'and src/schema imports it from there, not the other way round.',
      severity: 'error',
      from: { path: '^src/', pathNot: DOMAIN_NOT },
      to: { path: SCHEMA },
    },
    {
      name: 'infrastructure-not-upward',
      comment:
        'The database, configuration, errors and logging are the bottom layer: they may not import the ' +
        'domain (src/context.ts included) or the GraphQL layer.',
      severity: 'error',
      from: { path: INFRASTRUCTURE },
      to: { path: '^src/', pathNot: INFRASTRUCTURE },
    },
    {
      name: 'not-to-tests-or-tooling',
      comment: 'The service must run without its tests, benchmarks, scripts and tools.',
      severity: 'error',
      from: { path: '^(src|gateway)/' },
      to: { path: OUTSIDE },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'An import the check cannot follow is an import it cannot judge; this keeps a change in how ' +
        'modules resolve from passing every other rule by seeing no imports at all.',
      severity: 'error',
      from: { path: '^(src|gateway)/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle makes the modules in it one unit: none can be loaded, tested or moved on its own, and ' +
        'the order they initialise in depends on which one is imported first.',
      severity: 'error',
      from: { path: '^(src|gateway)/' },
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports count: a type from a higher layer ties the lower one to it as surely as a value.
    tsPreCompilationDeps: true,
    // The generated Prisma client is a leaf: what it imports inside itself is not ours to check.
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    skipAnalysisNotInRules: true,
    // A recorded violation that no longer occurs fails too: left in the baseline, it would let the
    // same import come back unnoticed.
    baseline: { staleEntriesSeverity: 'error' },
  },
};
