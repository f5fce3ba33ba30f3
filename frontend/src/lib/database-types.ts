/**
 * Re-export point for the generated database types (frontend/src/lib/database.types.ts, written
 * by `npm run gen:types`). Until the generated file exists this alias keeps the client untyped
 * per table; switch the import below once it is committed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = any;
