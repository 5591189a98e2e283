// What the seo/v1 site features need from the running service besides the database: the
// external providers, the hosts server-side fetches may reach on private addresses, the import
// chunk size and the REST root (import and OAuth addresses point there). Registered per database
// handle by the app, so REST and GraphQL of one app share them and two apps in one process
// (tests) keep their own; code without an app gets providers that are not configured.
import type { Db } from '../db/client.js';
import { createProviders, type ProviderSettings, type SeoProviders } from './providers/index.js';

export interface SeoServices {
  providers: SeoProviders;
  /** Hosts the seo fetches (providers, file sizes) may reach even on private addresses. */
  allowHosts: string[];
  /** Units (authors, terms, items) an import handles per call. */
  importChunkSize: number;
  /** API root with a trailing slash (`https://site/wp-json/`). */
  restRoot: string;
}

export interface SeoServiceSettings {
  providers?: ProviderSettings;
  importChunkSize?: number;
  restRoot?: string;
}

const registered = new WeakMap<Db, SeoServices>();

export function makeSeoServices(o: SeoServiceSettings): SeoServices {
  return {
    providers: createProviders(o.providers ?? {}),
    allowHosts: o.providers?.allowHosts ?? [],
    importChunkSize: o.importChunkSize ?? 50,
    restRoot: o.restRoot ?? '/',
  };
}

export function registerSeoServices(db: Db, o: SeoServiceSettings): SeoServices {
  const s = makeSeoServices(o);
  registered.set(db, s);
  return s;
}

export function seoServices(db: Db): SeoServices {
  let s = registered.get(db);
  if (!s) registered.set(db, (s = makeSeoServices({})));
  return s;
}
