// What guards /graphql for outside clients: the size of a document (aliases and fields), its depth
// (graphql-armor) and its cost with the request's variables (gateway/graphql-cost.ts),
// introspection on or off, and persisted operations (an allow-list of documents by hash). These are
// yoga plugins, so they apply to /graphql only: the REST routes run their own prepared documents
// with `execute` (gateway/execute.ts) and never pass through them.
import { GraphQLError, type ASTVisitor, type DocumentNode, type ExecutionArgs, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { documentShape, operationCost, type DocumentShape } from './graphql-cost.js';
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

/**
 * Refuses a document with more aliases or fields than allowed before it is validated, because
 * validation takes time in proportion to the document (5,000 aliases, hundreds of milliseconds).
 * The counts do not depend on the variables, so the refusal may be kept with the document's
 * validation result. Fragments count where they are spread, so a fragment spread in many places
 * cannot widen the answer unseen.
 */
function shapeLimits(maxAliases: number, maxFields: number): Plugin {
  const shapes = new WeakMap<DocumentNode, DocumentShape>();
  return {
    onValidate({ params, setResult }) {
      let shape = shapes.get(params.documentAST);
      if (!shape) shapes.set(params.documentAST, (shape = documentShape(params.documentAST)));
      const errors: GraphQLError[] = [];
      if (maxAliases > 0 && shape.aliases > maxAliases) errors.push(refusal(`Aliases limit of ${maxAliases} exceeded, found ${shape.aliases}.`, 'graphql_alias_limit'));
      if (maxFields > 0 && shape.fields > maxFields) errors.push(refusal(`Field limit of ${maxFields} exceeded, found ${shape.fields}.`, 'graphql_field_limit'));
      if (errors.length) setResult(errors);
    },
  };
}

/**
 * Refuses an operation whose cost (gateway/graphql-cost.ts) is over `max`, once its variables are
 * known: just before it runs, after the document was validated and the context made. Not a
 * validation rule: validation results are kept by the document's text, whatever the variables.
 */
function costLimit(max: number): Plugin {
  const check = (args: ExecutionArgs): GraphQLError | null => {
    const cost = operationCost(args.schema, args.document, args.variableValues as Record<string, unknown> | null | undefined, args.operationName);
    return cost !== null && cost > max ? refusal(`Query cost limit of ${max} exceeded, found ${cost}.`, 'graphql_cost_limit') : null;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
  };
}

/** The plugins for `config`; `list`: the persisted operations (loadPersistedOperations), when they are on. */
/** graphql-js's hint after an unknown field, argument or type: ` Did you mean "a", "b" or "c"?` */
const SUGGESTION = / Did you mean [^?]*\?$/;

/**
 * Syntax and validation errors with an `extensions.code` like every other error here
 * (`graphql_parse_failed`, `graphql_validation_failed`), the status yoga gives them kept. With
 * introspection off, without graphql-js's "Did you mean …?" hints: they would list the schema's
 * names one misspelling at a time to a client that may not ask for them.
 */
function coded(introspection: boolean): Plugin {
  const shaped = (err: GraphQLError, code: string): GraphQLError => {
    if (err.extensions?.code) return err;
    const message = introspection ? err.message : err.message.replace(SUGGESTION, '');
    return new GraphQLError(message, { nodes: err.nodes, source: err.source, positions: err.positions, path: err.path, originalError: err.originalError, extensions: { ...err.extensions, code } });
  };
  return {
    onParse: () => ({ result, replaceParseResult }) => {
      if (result instanceof GraphQLError) replaceParseResult(shaped(result, 'graphql_parse_failed'));
    },
    onValidate: () => ({ result, setResult }) => {
      if (result.length) setResult(result.map((e) => (e instanceof GraphQLError ? shaped(e, 'graphql_validation_failed') : e)));
    },
  };
}

export function graphqlGuards(config: Config, list: Map<string, string> | null): Plugin[] {
  const plugins: Plugin[] = [coded(config.graphqlIntrospection)];
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
  if (config.graphqlMaxAliases > 0 || config.graphqlMaxFields > 0) plugins.push(shapeLimits(config.graphqlMaxAliases, config.graphqlMaxFields));
  if (config.graphqlMaxDepth > 0) {
    plugins.push(maxDepthPlugin({ n: config.graphqlMaxDepth, flattenFragments: true, propagateOnRejection: false, onReject: report('graphql_depth_limit') }) as Plugin);
  }
  if (config.graphqlMaxCost > 0) plugins.push(costLimit(config.graphqlMaxCost));
  if (!config.graphqlIntrospection) plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(noIntrospection) });
  return plugins;
}
