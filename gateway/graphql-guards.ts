// What guards /graphql for outside clients: the size of a document (aliases and fields), its depth
// (graphql-armor) and its cost with the request's variables (gateway/graphql-cost.ts),
// introspection on or off, persisted operations (an allow-list of documents by hash, or the
// documents clients register as automatic persisted queries), an `extensions.code` on every error,
// and graphql-sse's single-connection mode refused with a reason. These are yoga plugins, so they
// apply to /graphql only: the REST routes run their own prepared documents with `execute`
// (gateway/execute.ts) and never pass through them.
import { createHash } from 'node:crypto';
import { GraphQLError, getOperationAST, type ASTVisitor, type DocumentNode, type ExecutionArgs, type ExecutionResult, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { useAPQ } from '@graphql-yoga/plugin-apq';
import { documentShape, operationCost, type DocumentShape } from './graphql-cost.js';
import { apqStore } from './persisted-operations.js';
import { StatementBudgetExceeded, withStatementBudget } from '../src/db/statement-budget.js';
import { camelCase, collectionParams } from '../src/resources/define.js';
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

/** Whether an error came of a statement refused past the budget (Prisma may wrap what the adapter threw). */
function ofBudget(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown; originalError?: unknown }).originalError ?? (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StatementBudgetExceeded || /SQL statement limit of \d+ exceeded/.test(String((e as Error).message))) return true;
  }
  return false;
}

/**
 * Stops a query once it has sent `max` SQL statements: the backstop behind the cost limit, for what
 * a document costs that its shape does not tell. The statement past the budget is refused before
 * it is sent; the fields that needed it answer null, and the answer carries one error saying the
 * limit (HTTP 400 `graphql_statement_limit`) instead of theirs. Mutations are not limited: a write
 * stopped halfway would be rolled back, but one that may not finish should not start, and their
 * documents are short.
 */
function statementLimit(max: number): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      setExecuteFn(async (a) => {
        const run = withStatementBudget(max, () => executeFn(a));
        const result = (await run.result) as ExecutionResult;
        if (!run.exceeded()) return result;
        const others = (result.errors ?? []).filter((e) => !ofBudget(e));
        return { ...result, errors: [refusal(`SQL statement limit of ${max} exceeded.`, 'graphql_statement_limit'), ...others] };
      });
    },
  };
}

/** graphql-js's hint after an unknown field, argument, type, enum value or input field: ` Did you mean "a", "b" or "c"?` */
const SUGGESTION = / Did you mean [^?]*\?$/;

/** graphql-js's refusals of a request's variables (wrong type, unknown enum value or input field, a required one missing). */
const VARIABLE_ERROR = /^Variable "\$[^"]*" /;

/** The message of yoga's refusal of a mutation sent with GET. */
const MUTATION_OVER_GET = /^Can only perform a mutation operation from a POST request/;

/** The REST names of the collection parameters (page, per_page, offset) with their GraphQL names and bounds. */
const COLLECTION = collectionParams();

/**
 * An error of the domain that names an argument as REST does (`Invalid parameter(s): per_page`, the
 * list resolvers' check of page and per_page), reaching a GraphQL client: named as GraphQL names it
 * (`perPage`), in the message and in `data.params`, as the domain's own `invalidParam` errors are
 * (the REST routes rename those the other way, gateway/dispatch/respond.ts). An argument the
 * operation wrote is found on the field the error is at; any other is the camel-case of its name,
 * as the list definitions derive them. Without `params` (those checks give none), the reason is
 * WordPress's for the parameter's bounds.
 */
function graphqlNamed(err: GraphQLError): GraphQLError {
  const ext = err.extensions as { code?: unknown; data?: { params?: Record<string, unknown>; details?: Record<string, unknown> } };
  const listed = /^Invalid parameter\(s\): (.+)$/.exec(err.message);
  if (ext.code !== 'rest_invalid_param' || !listed) return err;
  const written = new Map<string, string>();
  for (const node of err.nodes ?? []) {
    if (node.kind === 'Field') for (const a of node.arguments ?? []) written.set(a.name.value.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), a.name.value);
  }
  const name = (rest: string) => written.get(rest) ?? COLLECTION[rest]?.graphql ?? camelCase(rest);
  const names = listed[1].split(', ');
  if (names.every((n) => name(n) === n) && !(ext.data?.params === undefined && names.some((n) => COLLECTION[n]))) return err;
  const rename = (o: Record<string, unknown> | undefined) => (o ? Object.fromEntries(Object.entries(o).map(([k, v]) => [name(k), v])) : undefined);
  const params = rename(ext.data?.params) ?? Object.fromEntries(names.map((n) => [name(n), bounds(name(n), COLLECTION[n]?.schema)]));
  const details = rename(ext.data?.details);
  const data = { ...ext.data, params, ...(details ? { details } : {}) };
  return new GraphQLError(`Invalid parameter(s): ${names.map(name).join(', ')}`, { nodes: err.nodes, source: err.source, positions: err.positions, path: err.path, originalError: err.originalError, extensions: { ...err.extensions, data } });
}

/** WordPress's reason for a number out of its schema's bounds (rest_validate_value_from_schema). */
function bounds(name: string, schema: { minimum?: number; maximum?: number } | undefined): string {
  if (schema?.minimum !== undefined && schema.maximum !== undefined) return `${name} must be between ${schema.minimum} (inclusive) and ${schema.maximum} (inclusive)`;
  if (schema?.minimum !== undefined) return `${name} must be greater than or equal to ${schema.minimum}`;
  return `Invalid parameter.`;
}

/**
 * Syntax and validation errors with an `extensions.code` like every other error here
 * (`graphql_parse_failed`, `graphql_validation_failed`), the status yoga gives them kept; and, once
 * the answer is made, every error that still has none: a request's variables refused
 * (`graphql_bad_user_input`: a wrong type, an unknown enum value, a required one missing), a
 * mutation sent with GET (`graphql_method_not_allowed`, 405 with `Allow: POST`, as the
 * GraphQL-over-HTTP spec has it), yoga's other refusals of a request (`graphql_bad_request`), and
 * anything else that ends without a code (`graphql_execution_failed`). With introspection off,
 * without graphql-js's "Did you mean …?" hints, in validation and variable errors alike: they
 * would list the schema's names one misspelling at a time to a client that may not ask for them.
 */
function coded(introspection: boolean): Plugin {
  const shaped = (err: GraphQLError, code: string, message = err.message): GraphQLError => {
    if (err.extensions?.code && message === err.message) return err;
    return new GraphQLError(message, { nodes: err.nodes, source: err.source, positions: err.positions, path: err.path, originalError: err.originalError, extensions: { ...err.extensions, code: err.extensions?.code ?? code } });
  };
  const hidden = (message: string) => (introspection ? message : message.replace(SUGGESTION, ''));
  const finished = (err: GraphQLError): GraphQLError => {
    const code = err.extensions?.code;
    if (MUTATION_OVER_GET.test(err.message)) {
      return new GraphQLError('Mutations are sent with POST: a GET request runs queries only.', { extensions: { ...err.extensions, code: 'graphql_method_not_allowed' } });
    }
    if (code === 'BAD_REQUEST') return new GraphQLError(err.message, { nodes: err.nodes, source: err.source, positions: err.positions, path: err.path, originalError: err.originalError, extensions: { ...err.extensions, code: 'graphql_bad_request' } });
    if (typeof code === 'string') return code === 'rest_invalid_param' ? graphqlNamed(err) : err;
    const variable = VARIABLE_ERROR.test(err.message);
    return shaped(err, variable ? 'graphql_bad_user_input' : err.path ? 'graphql_execution_failed' : 'graphql_bad_request', hidden(err.message));
  };
  return {
    onParse: () => ({ result, replaceParseResult }) => {
      if (result instanceof GraphQLError) replaceParseResult(shaped(result, 'graphql_parse_failed'));
    },
    onValidate: () => ({ result, setResult }) => {
      if (result.length) setResult(result.map((e) => (e instanceof GraphQLError ? shaped(e, 'graphql_validation_failed', hidden(e.message)) : e)));
    },
    onExecutionResult({ result, setResult }) {
      // A subscription's events are left as they are; a batch is not served (yoga's default).
      if (!result || Array.isArray(result) || Symbol.asyncIterator in result) return;
      const errors = (result as ExecutionResult).errors;
      if (!errors?.length) return;
      const mapped = errors.map((e) => (e instanceof GraphQLError ? finished(e) : e));
      if (mapped.some((e, i) => e !== errors[i])) setResult({ ...(result as ExecutionResult), errors: mapped });
    },
  };
}

/**
 * graphql-sse's single-connection mode (a PUT that reserves a stream, then GET and POST requests
 * carrying its `X-GraphQL-Event-Stream-Token`, DELETE to end it) is not served: every request of
 * it is refused with a GraphQL error body naming the mode to use instead, 405 with `Allow` for the
 * reservation (so the client's `createClient({ singleConnection: true })` fails at once with a
 * reason) and 400 for a request carrying a token. Subscriptions are served in graphql-sse's
 * distinct-connections mode (its default): a POST or GET accepting `text/event-stream`.
 */
function noSingleConnection(): Plugin {
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      const reserving = request.method === 'PUT' || request.method === 'DELETE';
      if (!reserving && !request.headers.has('x-graphql-event-stream-token')) return;
      const body = { errors: [{ message: "graphql-sse's single-connection mode is not served here: subscribe in its distinct-connections mode (createClient without singleConnection), a POST or GET to /graphql accepting text/event-stream.", extensions: { code: 'graphql_sse_single_connection_unsupported' } }] };
      endResponse(new fetchAPI.Response(JSON.stringify(body), {
        status: reserving ? 405 : 400,
        headers: { 'Content-Type': 'application/json; charset=utf-8', ...(reserving ? { Allow: 'GET, POST' } : {}) },
      }));
    },
  };
}

/** The SHA-256 of a document, hex: the id automatic persisted queries name it by. */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The plugins for `config`; `list`: the persisted operations (loadPersistedOperations), when they
 * are on. The allow-list, when it is on, answers every `extensions.persistedQuery`; automatic
 * persisted queries are served only while it is off (a client registering its own documents would
 * defeat an `only` list).
 */
export function graphqlGuards(config: Config, list: Map<string, string> | null): Plugin[] {
  const plugins: Plugin[] = [coded(config.graphqlIntrospection), noSingleConnection()];
  if (config.graphqlPersisted === 'off' && config.graphqlApqEntries > 0) plugins.push(useAPQ({ store: apqStore(config.graphqlApqEntries), hash: sha256 }));
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
  if (config.graphqlMaxStatements > 0) plugins.push(statementLimit(config.graphqlMaxStatements));
  if (!config.graphqlIntrospection) plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(noIntrospection) });
  return plugins;
}
