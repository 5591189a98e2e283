// Abilities: named units of work a client (an assistant, an automation) can discover and run, as
// WordPress 6.9's Abilities API. Each is defined once here, with JSON Schemas for its input and
// output: they are what the REST routes print, what input is validated against before anything
// runs, and what the answer is checked against after.
import { Ajv, type ValidateFunction } from 'ajv';
import type { Context } from '../context.js';
import { authStatus, restError } from '../errors.js';

export type JsonSchema = Record<string, unknown>;

export interface AbilityAnnotations {
  /** Reads only: run with GET. */
  readonly: boolean;
  destructive: boolean;
  idempotent: boolean;
}

/** What a run gets besides the caller and the input: facts only the serving side knows. */
export interface AbilityEnv {
  /** The REST namespaces the site serves. */
  namespaces: string[];
}

export interface AbilityDefinition<I = any, O = any> {
  /** `namespace/name`, lower-case letters, digits and dashes. */
  name: string;
  label: string;
  description: string;
  category: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: AbilityAnnotations;
  /** A capability the caller must hold, or a decision from the caller and the (valid) input. */
  permission: string | ((ctx: Context, input: I) => boolean);
  execute(ctx: Context, input: I, env: AbilityEnv): Promise<O>;
}

export interface Ability<I = any, O = any> extends AbilityDefinition<I, O> {
  /** Validates (and fills defaults into) a JSON input. */
  validateInput: ValidateFunction;
  /** The same for query-string input, whose scalars arrive as strings. */
  validateQueryInput: ValidateFunction;
  validateOutput: ValidateFunction;
}

export interface AbilityCategory { slug: string; label: string; description: string }

const NAME = /^[a-z0-9-]+\/[a-z0-9-]+$/;
const strict = new Ajv({ useDefaults: true, allErrors: false });
const lenient = new Ajv({ useDefaults: true, coerceTypes: true, allErrors: false });

export function defineAbility<I, O>(d: AbilityDefinition<I, O>): Ability<I, O> {
  if (!NAME.test(d.name)) throw new Error(`ability name ${d.name}: expected namespace/name in lower-case letters, digits and dashes`);
  // The root default is the input when none is given (applied before validation, as WordPress's normalize_input).
  const { default: _rootDefault, ...inputSchema } = d.inputSchema;
  // The validators are compiled on first use: compiling all of them (three per ability) cost a
  // start-up a few hundred milliseconds, for routes most processes never serve.
  const ability = { ...d } as Ability<I, O>;
  const lazy = (key: 'validateInput' | 'validateQueryInput' | 'validateOutput', compile: () => ValidateFunction) => {
    let fn: ValidateFunction | undefined;
    Object.defineProperty(ability, key, { enumerable: true, get: () => (fn ??= compile()) });
  };
  lazy('validateInput', () => strict.compile(inputSchema));
  lazy('validateQueryInput', () => lenient.compile(inputSchema));
  lazy('validateOutput', () => strict.compile(d.outputSchema));
  return ability;
}

/** An ajv error as WordPress words a schema failure: `input/title is not of type string.` */
function reason(v: ValidateFunction, what: 'input' | 'output'): string {
  const e = v.errors?.[0];
  if (!e) return `${what} is invalid.`;
  const at = `${what}${e.instancePath}`;
  if (e.keyword === 'required') return `${at}/${(e.params as { missingProperty: string }).missingProperty} is a required property.`;
  if (e.keyword === 'additionalProperties') return `${at}/${(e.params as { additionalProperty: string }).additionalProperty} is not a valid property.`;
  if (e.keyword === 'type') return `${at} is not of type ${(e.params as { type: string }).type}.`;
  return `${at} ${e.message}.`;
}

/**
 * Runs an ability as WordPress's run route does after its method check: the input (the schema's
 * default when none is given) must be valid (400 ability_invalid_input), then the caller must be
 * allowed (401/403 rest_ability_cannot_execute); the answer must match the output schema.
 */
export async function executeAbility(ctx: Context, ability: Ability, given: unknown, o: { fromQuery: boolean; env: AbilityEnv }): Promise<unknown> {
  let input = given === undefined || given === null || given === '' ? ability.inputSchema.default : given;
  // A query string carries the input as JSON text (`input={"query":"x"}`) or in brackets (`input[query]=x`).
  if (o.fromQuery && typeof input === 'string' && /^\s*[[{]/.test(input)) {
    try { input = JSON.parse(input); } catch { throw restError('ability_invalid_input', `Ability "${ability.name}" has invalid input. Reason: input is not valid JSON.`, 400); }
  }
  input = structuredClone(input);
  const validate = o.fromQuery ? ability.validateQueryInput : ability.validateInput;
  if (!validate(input)) throw restError('ability_invalid_input', `Ability "${ability.name}" has invalid input. Reason: ${reason(validate, 'input')}`, 400);

  const allowed = typeof ability.permission === 'string' ? ctx.can(ability.permission) : ability.permission(ctx, input);
  if (!allowed) throw restError('rest_ability_cannot_execute', 'Sorry, you are not allowed to execute this ability.', authStatus(!!ctx.viewer));

  const output = await ability.execute(ctx, input, o.env);
  if (!ability.validateOutput(output)) {
    throw restError('ability_invalid_output', `Ability "${ability.name}" has invalid output. Reason: ${reason(ability.validateOutput, 'output')}`, 500);
  }
  return output;
}
