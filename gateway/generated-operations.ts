// The GraphQL documents the REST routes of registry types run, written from the schema itself: for
// each post-like type (posts, pages, the site's own) its list, get, create, update, trash and
// delete, its revisions and autosaves where it keeps them; for each taxonomy its list, get,
// create, update and delete. Every argument of the root field becomes a variable of the same
// name, so a route passes what it has and the field's defaults apply to the rest. `...XFields`
// is replaced per context by the loader (gateway/operations.ts), as in the .graphql files.
import type { GraphQLField, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { POST_LIKE } from '../src/resources/content.js';
import { TAXONOMIES } from '../src/resources/terms.js';

const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);
const upperFirst = (s: string) => s[0].toUpperCase() + s.slice(1);

/** `query Name($a: T, …) { field(a: $a, …) selection }`, or '' when the schema has no such field. */
function call(root: GraphQLObjectType | null | undefined, kind: 'query' | 'mutation', name: string, field: string, selection: string, extra: string[] = []): string {
  const f: GraphQLField<unknown, unknown> | undefined = root?.getFields()[field];
  if (!f) return '';
  const vars = [...f.args.map((a) => `$${a.name}: ${String(a.type)}`), ...extra];
  const args = f.args.map((a) => `${a.name}: $${a.name}`);
  return `${kind} ${name}${vars.length ? `(${vars.join(', ')})` : ''} {\n  ${field}${args.length ? `(${args.join(', ')})` : ''} ${selection}\n}\n`;
}

export function generatedOperations(schema: GraphQLSchema): string {
  const q = schema.getQueryType();
  const m = schema.getMutationType();
  const out: string[] = [];
  const withTotal = '{\n    total @include(if: $withTotal)\n    totalPages @include(if: $withTotal)\n    nodes { ...%Fields }\n  }';
  for (const { descriptor: d, resource } of POST_LIKE) {
    const N = d.graphqlName;
    const lower = lowerFirst(N);
    // The excerpt's length is a variable of the fragments (`excerpt(length: $excerptLength)`).
    const ex = resource.fields.excerpt ? ['$excerptLength: Int'] : [];
    const item = `{ ...${N}Fields }`;
    out.push(
      call(q, 'query', `${N}sList`, d.graphqlPlural, withTotal.replace('%', N), [...ex, '$withTotal: Boolean!']),
      call(q, 'query', `${N}Get`, lower, item, ex),
      call(m, 'mutation', `${N}Create`, `create${N}`, item, ex),
      call(m, 'mutation', `${N}Update`, `update${N}`, item, ex),
      call(m, 'mutation', `${N}Trash`, `trash${N}`, item, ex),
      call(m, 'mutation', `${N}Delete`, `delete${N}`, `{ deleted previous ${item} }`, ex),
      call(q, 'query', `${N}RevisionsList`, `${lower}Revisions`, `{\n    total\n    totalPages\n    nodes { ...${N}RevisionFields }\n  }`),
      call(q, 'query', `${N}RevisionGet`, `${lower}Revision`, `{ ...${N}RevisionFields }`),
      call(m, 'mutation', `${N}RevisionDelete`, `delete${N}Revision`, `{ deleted previous { ...${N}RevisionFields } }`),
      call(m, 'mutation', `${N}RevisionRestore`, `restore${N}Revision`, item, ex),
      call(q, 'query', `${N}AutosavesList`, `${lower}Autosaves`, `{ ...${N}AutosaveFields }`),
      call(q, 'query', `${N}AutosaveGet`, `${lower}Autosave`, `{ ...${N}AutosaveFields }`),
      call(m, 'mutation', `${N}AutosaveCreate`, `autosave${N}`, `{ ...${N}AutosaveFields }`),
    );
  }
  for (const t of TAXONOMIES) {
    const N = t.graphqlName;
    const item = `{ ...${N}Fields }`;
    out.push(
      call(q, 'query', `${upperFirst(t.graphqlPlural)}List`, t.graphqlPlural, withTotal.replace('%', N), ['$withTotal: Boolean!']),
      call(q, 'query', `${N}Get`, lowerFirst(N), item),
      call(m, 'mutation', `${N}Create`, `create${N}`, item),
      call(m, 'mutation', `${N}Update`, `update${N}`, item),
      call(m, 'mutation', `${N}Delete`, `delete${N}`, `{ deleted previous ${item} }`),
    );
  }
  return out.filter(Boolean).join('\n');
}
