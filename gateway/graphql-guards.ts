// What guards /graphql for outside clients: depth and cost limits (graphql-armor), introspection
// on or off, and persisted operations (an allow-list of documents by hash). These are yoga
// plugins, so they apply to /graphql only: the REST routes run their own prepared documents with
// `execute` (gateway/execute.ts) and never pass through them.
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Config } from '../src/config.js';

/**
 * A refusal before anything runs, with `code` and `status` like every other error here. HTTP 400
 * (yoga reads `http`) whatever the client accepts: yoga would answer a plain `application/json`
 * client 200 for a validation error (`spec`), and a refused operation is the client's fault.
 */
function refusal(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code, status: 400, http: { status: 400, spec: false } } });
}

/** graphql-armor reports "Syntax Error: Query depth limit of N exceeded, found M."; keep the numbers, drop the prefix. */
const armorMessage = (err: GraphQLError) => err.message.replace(/^Syntax Error: /, '');

function report(code: string) {
  return [(ctx: ValidationContext | null, err: GraphQLError) => ctx?.reportError(refusal(armorMessage(err), code))];
}

/** Refuses `__schema` and `__type` (GRAPHQL_INTROSPECTION=0); `__typename` stays. */
function noIntrospection(ctx: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        ctx.reportError(refusal('GraphQL introspection is turned off on this server.', 'graphql_introspection_disabled'));
      }
    },
  };
}

/** The plugins for `config`; `list`: the persisted operations (loadPersistedOperations), when they are on. */
export function graphqlGuards(config: Config, list: Map<string, string> | null): Plugin[] {
  const plugins: Plugin[] = [];
  if (config.graphqlPersisted !== 'off' && list) {
    plugins.push(usePersistedOperations({
      getPersistedOperation: (id) => list.get(id) ?? null,
      allowArbitraryOperations: config.graphqlPersisted === 'allow',
      customErrors: {
        notFound: { message: 'No persisted operation has this id.', extensions: { code: 'persisted_query_not_found', status: 400, http: { status: 400 } } },
        persistedQueryOnly: { message: 'This server runs persisted operations only: send extensions.persistedQuery.sha256Hash instead of a query.', extensions: { code: 'persisted_query_only', status: 400, http: { status: 400 } } },
        keyNotFound: { message: 'Send a query, or the id of a persisted operation in extensions.persistedQuery.sha256Hash.', extensions: { code: 'persisted_query_missing', status: 400, http: { status: 400 } } },
      },
    }) as Plugin);
  }
  if (config.graphqlMaxDepth > 0) {
    plugins.push(maxDepthPlugin({ n: config.graphqlMaxDepth, flattenFragments: true, propagateOnRejection: false, onReject: report('graphql_depth_limit') }) as Plugin);
  }
  if (config.graphqlMaxCost > 0) {
    plugins.push(costLimitPlugin({ maxCost: config.graphqlMaxCost, flattenFragments: true, propagateOnRejection: false, onReject: report('graphql_cost_limit') }) as Plugin);
  }
  if (!config.graphqlIntrospection) plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(noIntrospection) });
  return plugins;
}
