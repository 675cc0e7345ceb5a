// The contract of the recruitment API: one source of truth for field names,
// rules and allowed values, imported by the client, the sandbox and the proxy.
export * from './values.ts';
export * from './inputs.ts';
export * from './queries.ts';
export * from './records.ts';
export * from './pagination.ts';
export * from './errors.ts';
export * from './file-type.ts';
