// The application: the schema, the prepared operations, the route table and the dispatcher over
// one database. `fetch` serves in-process tests; server.ts puts it behind node:http.
import { createYoga } from 'graphql-yoga';
import type { Config } from '../src/config.js';
import type { Db } from '../src/db/client.js';
import { schema } from '../src/schema/index.js';
import { createContext } from '../src/context.js';
import { authenticateRequest } from '../src/auth/request.js';
import { RestError } from '../src/errors.js';
import { loadOperations } from './operations.js';
import { createRunner } from './execute.js';
import { buildRouteTable } from './routes/index.js';
import { namespacesFor } from './config.js';
import { createDispatcher, type CoreRequest, type CoreResponse } from './dispatch.js';
import { createResponseCache } from './cache.js';
import { createAdminHandler } from './admin/authorize.js';

export type App = Awaited<ReturnType<typeof createApp>>;

export function createApp(config: Config, db: Db) {
  const operations = loadOperations(schema);
  const run = createRunner(schema, operations);
  const table = buildRouteTable({
    namespaces: namespacesFor(config.deployment),
    authorizationUrl: `${config.siteUrl}${config.adminPath}/authorize-application.php`,
  });
  const cache = config.cacheEntries > 0 ? createResponseCache(config.cacheEntries, () => db.version()) : null;
  const dispatcher = createDispatcher({ db, run, table, restPrefix: config.restPrefix, siteUrl: config.siteUrl, cache });

  const yoga = createYoga({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    context: async ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      const identity = await authenticateRequest(db, { headers: request.headers, query });
      if (identity instanceof RestError) throw identity;
      return createContext(db, identity.user);
    },
  });

  const admin = createAdminHandler(config, db);
  /** The sign-in and authorize-application pages (HTML), under ADMIN_PATH. */
  const isAdmin = (url: URL) => url.pathname.startsWith(config.adminPath + '/');

  const isRest = (url: URL) =>
    url.pathname === config.restPrefix || url.pathname.startsWith(config.restPrefix + '/') ||
    ((url.pathname === '/' || url.pathname === '/index.php') && url.searchParams.has('rest_route'));

  /** Fetch-style entry: REST goes to the dispatcher, /graphql to yoga. */
  async function fetch(request: Request, ip?: string): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/graphql') return yoga.fetch(request);
    if (isAdmin(url)) return admin(request, ip);
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : Buffer.from(await request.arrayBuffer());
    if (!isRest(url)) return new Response('Not found', { status: 404 });
    const res = await dispatcher.handle({ method: request.method, url: url.pathname + url.search, headers: request.headers, body, ip });
    return new Response(res.body === '' ? null : res.body, { status: res.status, headers: res.headers });
  }

  return {
    config, db, table, operations, run, yoga, cache, fetch, isRest, isAdmin, admin,
    handle: (req: CoreRequest): Promise<CoreResponse> => dispatcher.handle(req),
    root: dispatcher.root,
  };
}
