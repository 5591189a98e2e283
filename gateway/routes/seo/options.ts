// What the seo/v1 routes take from the service's configuration. In a module of its own because
// each route module (head.ts, scores.ts, site.ts) takes it and index.ts imports those: declared in
// index.ts, it made each of them and index.ts a cycle.
import type { ProviderSettings } from '../../../src/seo/providers/index.js';

/** What the seo/v1 routes need from the service's configuration. */
export interface SeoRouteOptions {
  /** Absolute REST root, e.g. `https://example.com/wp-json/`. */
  restRoot?: string;
  /** External providers (keyphrase research, rank tracker) and the hosts seo fetches may reach on private addresses. */
  providers?: ProviderSettings;
  /** Units (authors, terms, items) an import handles per call (default 50). */
  importChunkSize?: number;
}
