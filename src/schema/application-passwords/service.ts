// Application passwords' business rules are domain code and live in
// src/users/application-passwords.ts. The record type stays importable from here only for
// src/resources/users.ts, which still imports it from this path; new code imports the domain module.
export type { AppPasswordRecord } from '../../users/application-passwords.js';
