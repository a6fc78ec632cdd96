/**
 * The pluggable client-search module. `buildReaderAssets` resolves `kit:client-search` to the
 * module named by its `clientSearch` option, or to `no-client-search.ts` when there is none.
 */
declare module 'kit:client-search' {
  export const queryClientIndex: import('../src/reader/client-logic.js').ClientIndexQuery | undefined;
  /** Optional: decodes the index and prepares ranking ahead of the first query. */
  export const prepareClientIndex: ((serialized: string) => void) | undefined;
}
