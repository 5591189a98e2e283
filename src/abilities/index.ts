// The registry: every ability the site offers, in the order the list route answers them.
import type { Ability } from './registry.js';
import type { Context } from '../context.js';
import { authStatus, restError } from '../errors.js';
import { createDraft, getSiteInfo, searchContent, siteStatistics } from './core.js';

export { CATEGORIES } from './core.js';
export { executeAbility, type Ability, type AbilityEnv } from './registry.js';

export const ABILITIES: readonly Ability[] = [createDraft, getSiteInfo, searchContent, siteStatistics];

const byName = new Map(ABILITIES.map((a) => [a.name, a]));
if (byName.size !== ABILITIES.length) throw new Error('two abilities share a name');

export const findAbility = (name: string): Ability | undefined => byName.get(name);

/** The list and an ability need `read` (401 anonymous, 403 signed in), as the REST routes' permission callbacks. */
export function requireAbilityRead(ctx: Context): void {
  if (!ctx.viewer || !ctx.can('read')) throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
}

/** An ability by name, or 404 rest_ability_not_found. */
export function getAbility(name: unknown): Ability {
  const ability = findAbility(String(name));
  if (!ability) throw restError('rest_ability_not_found', 'Ability not found.', 404);
  return ability;
}

/** The abilities of a category (all when null), in registry order. */
export const listAbilities = (category: string | null): Ability[] => ABILITIES.filter((a) => category === null || a.category === category);
