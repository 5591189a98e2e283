// The users' business rules are domain code and live in src/users/service.ts, where the domain
// folders below the GraphQL layer can import them. These names stay importable from here only for
// the modules that still import them from this path (src/resources/users.ts,
// src/schema/relations/index.ts); new code imports src/users/service.ts.
export { authorLink, avatarUrls, checkReadUser } from '../../users/service.js';
