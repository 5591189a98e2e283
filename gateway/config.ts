// Namespaces and deployment switches of the REST interface.

/** Namespaces the index advertises (defined beside the deployment, which GraphQL reads too). */
export { namespacesFor } from '../src/config.js';
