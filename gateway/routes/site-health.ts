// site-health/v1: one route per test, as WordPress registers wp-site-health/v1/tests/<test>, plus
// directory-sizes. Each test answers WordPress's result object; the checks live in
// src/site-health. Administrators only (manage_options), refused with WordPress's rest_forbidden.
import type { Endpoint, GatewayRequest, RouteEntry, RouteResult } from '../types.js';
import { HEALTH_TESTS, directorySizes, requireManageOptions, type HealthOptions } from '../../src/site-health/checks.js';

export type SiteHealthOptions = HealthOptions;

const NS = 'site-health/v1';

const context = ['view', 'edit', 'embed'];
/** WordPress's wp-site-health-test schema: the result object every test answers. */
const TEST_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'wp-site-health-test',
  type: 'object',
  properties: {
    test: { description: 'The name of the test being run.', type: 'string', readonly: true, context },
    label: { description: 'A label describing the test.', type: 'string', readonly: true, context },
    status: { description: 'The status of the test.', type: 'string', enum: ['good', 'recommended', 'critical'], readonly: true, context },
    badge: {
      description: 'The category this test is grouped in.', type: 'object', readonly: true, context,
      properties: { label: { type: 'string', readonly: true }, color: { type: 'string', enum: ['blue', 'orange', 'red', 'green', 'purple', 'gray'], readonly: true } },
    },
    description: { description: 'A more descriptive explanation of what the test looks for, and why it is important for the user.', type: 'string', readonly: true, context },
    actions: { description: 'HTML containing an action to direct the user to where they can resolve the issue.', type: 'string', readonly: true, context },
  },
};

const endpoint = (run: (req: GatewayRequest) => Promise<unknown>): Endpoint => ({
  methods: ['GET'], permission: 'manage_options', args: {},
  async handler(req): Promise<RouteResult> {
    requireManageOptions(req.ctx);
    return { status: 200, body: await run(req) };
  },
});

export function siteHealthRoutes(o: SiteHealthOptions): RouteEntry[] {
  return [
    ...Object.entries(HEALTH_TESTS).map(([name, run]): RouteEntry => ({ namespace: NS, pattern: `/${NS}/tests/${name}`, endpoints: [endpoint((req) => run(req.ctx.db, o))], schema: () => TEST_SCHEMA })),
    { namespace: NS, pattern: `/${NS}/directory-sizes`, endpoints: [endpoint((req) => directorySizes(req.ctx.db, o))] },
  ];
}
