// The registry: every ability the site offers, in the order the list route answers them.
import type { Ability } from './registry.js';
import { createDraft, getSiteInfo, searchContent, siteStatistics } from './core.js';

export { CATEGORIES } from './core.js';
export { executeAbility, type Ability, type AbilityEnv } from './registry.js';

export const ABILITIES: readonly Ability[] = [createDraft, getSiteInfo, searchContent, siteStatistics];

const byName = new Map(ABILITIES.map((a) => [a.name, a]));
if (byName.size !== ABILITIES.length) throw new Error('two abilities share a name');

export const findAbility = (name: string): Ability | undefined => byName.get(name);
