// abilities/v1 over GraphQL: the same registry (src/abilities), the same read rule, input
// validation, permission check and output check as the REST routes, with their error codes.
import { builder } from '../builder.js';
import { namespacesFor } from '../../config.js';
import {
  executeAbility, getAbility, listAbilities, requireAbilityRead, type Ability,
} from '../../abilities/index.js';
import type { AbilityAnnotations } from '../../abilities/registry.js';

const AnnotationsRef = builder.objectRef<AbilityAnnotations>('AbilityAnnotations').implement({
  description: 'What running an ability does to the site.',
  fields: (t) => ({
    readonly: t.exposeBoolean('readonly', { description: 'It only reads (REST runs it with GET).' }),
    destructive: t.exposeBoolean('destructive', { description: 'It may remove or overwrite data.' }),
    idempotent: t.exposeBoolean('idempotent', { description: 'Running it again with the same input changes nothing more.' }),
  }),
});

const AbilityRef = builder.objectRef<Ability>('Ability').implement({
  description: 'A named unit of work a client can discover and run (WordPress\'s Abilities API), as abilities/v1 prints it.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Unique identifier for the ability: namespace/name.' }),
    label: t.exposeString('label', { description: 'Display label for the ability.' }),
    description: t.exposeString('description', { description: 'Description of the ability.' }),
    category: t.exposeString('category', { description: 'The category the ability belongs to.' }),
    inputSchema: t.field({ type: 'JSON', description: 'JSON Schema of the ability\'s input.', resolve: (a) => a.inputSchema }),
    outputSchema: t.field({ type: 'JSON', description: 'JSON Schema of the ability\'s output.', resolve: (a) => a.outputSchema }),
    annotations: t.field({ type: AnnotationsRef, description: 'Annotations of the ability (readonly, destructive, idempotent).', resolve: (a) => a.annotations }),
  }),
});

builder.queryFields((t) => ({
  abilities: t.field({
    type: [AbilityRef],
    description: 'The abilities the site offers, in registry order (needs read, as GET abilities/v1/abilities).',
    args: { category: t.arg.string({ required: false, description: 'Only abilities of this category.' }) },
    resolve: (_r, a, ctx) => { requireAbilityRead(ctx); return listAbilities(a.category ?? null); },
  }),
  ability: t.field({
    type: AbilityRef,
    description: 'One ability by name (needs read; rest_ability_not_found 404 when unknown).',
    args: { name: t.arg.string({ required: true, description: 'Unique identifier for the ability.' }) },
    resolve: (_r, a, ctx) => { requireAbilityRead(ctx); return getAbility(a.name); },
  }),
}));

builder.mutationFields((t) => ({
  runAbility: t.field({
    type: 'JSON',
    description: 'Runs an ability as POST abilities/v1/abilities/{name}/run does and answers its output: unknown name 404 rest_ability_not_found, input not matching the input schema 400 ability_invalid_input, a caller without the right 401/403 rest_ability_cannot_execute. Read-only abilities run here too (GraphQL has no GET/POST distinction).',
    args: {
      name: t.arg.string({ required: true, description: 'Unique identifier for the ability.' }),
      input: t.arg({ type: 'JSON', required: false, description: 'Input parameters for the ability execution; absent uses the input schema\'s default.' }),
    },
    resolve: (_r, a, ctx) => executeAbility(ctx, getAbility(a.name), a.input ?? undefined, {
      fromQuery: false,
      env: { namespaces: namespacesFor(ctx.services.seo.indexing ? 'B' : 'A') },
    }),
  }),
}));
