// Namespaces and deployment switches of the REST interface.
import type { Deployment } from '../src/config.js';

/** Namespaces the index advertises, in the order WordPress lists them. */
export function namespacesFor(deployment: Deployment): string[] {
  const list = ['oembed/1.0', 'forms/v1', 'widgets/v1', 'core/v2', 'site-health/v1', 'block-editor/v1', 'abilities/v1'];
  if (deployment === 'B') list.push('seo/v1');
  return list;
}
