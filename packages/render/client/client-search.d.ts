/**
 * The pluggable client-search module. `buildReaderAssets` fills `kit:client-search` with a loader
 * that imports the module named by its `clientSearch` option on first use (a separate chunk), or
 * with undefined when there is none.
 */
declare module 'kit:client-search' {
  export const loadClientSearch:
    | (() => Promise<{
        queryClientIndex: import('../src/reader/client-logic.js').ClientIndexQuery | undefined;
        /** Optional: decodes the index and prepares ranking ahead of the first query. */
        prepareClientIndex?: ((serialized: string) => void) | undefined;
      }>)
    | undefined;
}
