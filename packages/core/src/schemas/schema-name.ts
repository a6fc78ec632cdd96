/**
 * Names under which the schemas are served (`/{prefix}/schemas/{name}.json`). Each also answers
 * under the file name of its `$id` (`kit.json` for `larecipe`), so the `$id` itself resolves.
 */
export type SchemaName = 'larecipe' | 'navigation' | 'frontmatter' | 'validate';
