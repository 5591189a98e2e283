// Webhook event names: `<subject>.<action>` for each change of the event log
// (src/content/events.ts), and the patterns a webhook subscribes with.
//
// Subjects: a content type by its name (post, page, a model type), `media` for attachments, a
// taxonomy by its name (`tag` for post_tag), `comment` and `menu`. Actions: the log's (created,
// updated, trashed, deleted, and whatever comments and menus record), plus `published`, derived
// for content whose status becomes `publish` (a create or an update from another status).
// Patterns: a name, `<subject>.*`, or `*`.
import type { ContentEvent } from '../content/events.js';
import { CONTENT_TYPES, TAXONOMY_REFS } from '../resources/content-types.js';

/** The subject of an event's name. */
export function subjectOf(e: Pick<ContentEvent, 'kind' | 'type'>): string {
  switch (e.kind ?? 'content') {
    case 'content': return e.type === 'attachment' ? 'media' : e.type;
    case 'term': return e.type === 'post_tag' ? 'tag' : e.type;
    default: return e.kind!;
  }
}

/** Whether the change makes content public: its status becomes `publish`. */
export const publishes = (e: ContentEvent): boolean =>
  (e.kind ?? 'content') === 'content' && (e.action === 'created' || e.action === 'updated') && e.status === 'publish' && e.previousStatus !== 'publish';

/** The names an event may be delivered under, most specific first (`post.published` before `post.updated`). */
export function namesOf(e: ContentEvent): string[] {
  const subject = subjectOf(e);
  return publishes(e) ? [`${subject}.published`, `${subject}.${e.action}`] : [`${subject}.${e.action}`];
}

/** Whether `pattern` (a name, `subject.*` or `*`) covers `name`. */
export function covers(pattern: string, name: string): boolean {
  if (pattern === '*' || pattern === name) return true;
  return pattern.endsWith('.*') && name.startsWith(pattern.slice(0, -1));
}

/**
 * The name a webhook subscribed with `patterns` receives `e` under, or null when it does not
 * receive it: one delivery per webhook and event, under the most specific name it subscribed to.
 */
export function deliveredAs(patterns: readonly string[], e: ContentEvent): string | null {
  for (const name of namesOf(e)) if (patterns.some((p) => covers(p, name))) return name;
  return null;
}

/** The subjects there are: every content type of the registry, every taxonomy, comments and menus. */
export function knownSubjects(): Set<string> {
  const out = new Set<string>(['comment', 'menu']);
  for (const d of CONTENT_TYPES) out.add(subjectOf({ kind: 'content', type: d.type }));
  for (const t of TAXONOMY_REFS) out.add(subjectOf({ kind: 'term', type: t.taxonomy }));
  return out;
}

const PATTERN = /^([a-z0-9_-]+)\.(\*|[a-z_]+)$/;

/** Why a subscription pattern is refused, or null when it is a valid one. */
export function patternProblem(pattern: string, subjects = knownSubjects()): string | null {
  if (pattern === '*') return null;
  const m = PATTERN.exec(pattern);
  if (!m) return `${pattern} is not an event name (subject.action, subject.* or *).`;
  if (!subjects.has(m[1])) return `${pattern} names no known subject (${[...subjects].sort().join(', ')}).`;
  return null;
}
