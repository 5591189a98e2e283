// Runs a prepared operation in process on the same schema /graphql serves, with the request's
// context: no HTTP hop, no parsing per request.
import { execute, type GraphQLSchema } from 'graphql';
import type { Context } from '../src/context.js';
import type { Operations, RestContext } from './operations.js';
import { fromGraphQLErrors } from './errors.js';

export type Runner = (name: string, context: RestContext | undefined, variables: Record<string, unknown>, ctx: Context) => Promise<Record<string, any>>;

export function createRunner(schema: GraphQLSchema, operations: Operations): Runner {
  return async (name, context, variables, ctx) => {
    const result = await execute({ schema, document: operations.get(name, context), variableValues: variables, contextValue: ctx });
    if (result.errors?.length) throw fromGraphQLErrors(result.errors);
    return result.data as Record<string, any>;
  };
}
