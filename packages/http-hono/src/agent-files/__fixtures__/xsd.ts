import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const schemaFile = (fileName: string) => ({
  fileName,
  contents: readFileSync(join(import.meta.dirname, fileName), 'utf8'),
});

/**
 * Validates XML against the sitemaps.org schemas in this folder with libxml2's own validator
 * (xmllint compiled to WebAssembly, installed by `pnpm install`), so no system xmllint is needed.
 * `sitemap.xsd` imports `xhtml-link.xsd` for the hreflang alternates.
 */
export async function validateXsd(
  xml: string,
  schema: 'sitemap.xsd' | 'siteindex.xsd',
): Promise<{ ok: boolean; output: string }> {
  const result = await validateXML({
    xml: [{ fileName: 'sitemap.xml', contents: xml }],
    schema: [schemaFile(schema)],
    preload: [schemaFile('xhtml-link.xsd')],
  });
  return { ok: result.valid, output: result.rawOutput };
}
