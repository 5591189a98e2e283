// Runs a prepared operation in process on the same schema /graphql serves, with the request's
// context: no HTTP hop, no parsing per request.
//
// Each prepared document is compiled once into a JavaScript function (graphql-jit) that walks its
// fixed selection directly: graphql-js re-reads the selection, arguments and types of every
// field of every item on each execution, which was about 15% of the CPU of a cold page of posts.
// The resolvers are the schema's own, so answers do not change (the whole suite runs through
// here). A document graphql-jit cannot compile runs through graphql-js's execute.
import { execute, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Context } from '../src/context.js';
import type { Operations, RestContext } from './operations.js';
import { fromGraphQLErrors } from './errors.js';

export type Runner = (name: string, context: RestContext | undefined, variables: Record<string, unknown>, ctx: Context) => Promise<Record<string, any>>;

export function createRunner(schema: GraphQLSchema, operations: Operations): Runner {
  const compiled = new WeakMap<DocumentNode, CompiledQuery | null>();
  const compiledOf = (document: DocumentNode): CompiledQuery | null => {
    let c = compiled.get(document);
    if (c === undefined) {
      const out = compileQuery(schema, document);
      c = isCompiledQuery(out) ? out : null;
      compiled.set(document, c);
    }
    return c;
  };
  return async (name, context, variables, ctx) => {
    const document = operations.get(name, context);
    const c = compiledOf(document);
    const result = (c ? await c.query(undefined, ctx, variables) : await execute({ schema, document, variableValues: variables, contextValue: ctx })) as ExecutionResult;
    if (result.errors?.length) throw fromGraphQLErrors(result.errors);
    return result.data as Record<string, any>;
  };
}
