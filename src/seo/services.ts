// What the seo/v1 site features need from the running service besides the database: the
// external providers, the hosts server-side fetches may reach on private addresses, the import
// chunk size, the REST root (import and OAuth addresses point there), and whether the SEO index is
// kept at all. One per app, among its services (src/services.ts), so REST and GraphQL of one app
// share them and two apps in one process (tests) keep their own; code without an app gets
// providers that are not configured.
import { createProviders, type ProviderSettings, type SeoProviders } from './providers/index.js';

export interface SeoServices {
  providers: SeoProviders;
  /** Hosts the seo fetches (providers, file sizes) may reach even on private addresses. */
  allowHosts: string[];
  /** Units (authors, terms, items) an import handles per call. */
  importChunkSize: number;
  /** API root with a trailing slash (`https://site/wp-json/`). */
  restRoot: string;
  /**
   * Deployment B: the SEO index is kept current on writes (src/seo/indexables/hooks.ts, one of the
   * app's write hooks), and the seo/v1 features and the items' heads are served.
   */
  indexing: boolean;
}

export interface SeoServiceSettings {
  providers?: ProviderSettings;
  importChunkSize?: number;
  restRoot?: string;
  indexing?: boolean;
}

export function makeSeoServices(o: SeoServiceSettings): SeoServices {
  return {
    providers: createProviders(o.providers ?? {}),
    allowHosts: o.providers?.allowHosts ?? [],
    importChunkSize: o.importChunkSize ?? 50,
    restRoot: o.restRoot ?? '/',
    indexing: o.indexing ?? false,
  };
}
