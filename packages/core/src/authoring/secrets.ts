// What an author tool refuses to write because the spec keeps it out of docs: secrets and
// configuration or environment values ("Secrets never belong in the manifest, in frontmatter or in
// docs; environment values live in the environment file").

/** Frontmatter keys that name a secret or a setting rather than something about the page. */
const SECRET_KEY =
  /^(?:password|passwd|secret|client_secret|token|access_token|auth_token|api_?key|private_?key|credentials?|sync_token|remote_token)$/i;

/** Shapes of real credentials; a documentation example uses placeholders such as `<SYNC_TOKEN>`. */
const SECRET_SHAPES: Array<{ pattern: RegExp; what: string }> = [
  { pattern: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/, what: 'a private key block' },
  { pattern: /\bAKIA[0-9A-Z]{16}\b/, what: 'an AWS access key id' },
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/, what: 'a GitHub token' },
  { pattern: /\bgithub_pat_[A-Za-z0-9_]{50,}\b/, what: 'a GitHub token' },
  { pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/, what: 'a Slack token' },
  { pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,}\b/, what: 'an API secret key' },
  { pattern: /\bsk_live_[A-Za-z0-9]{20,}\b/, what: 'a Stripe live secret key' },
  { pattern: /\bAIza[0-9A-Za-z_-]{35}\b/, what: 'a Google API key' },
];

/** Values that read the environment or a config file instead of saying something about the page. */
const ENVIRONMENT_VALUE = /^\s*(?:\$\{[A-Z_][A-Z0-9_]*\}|\$[A-Z_][A-Z0-9_]*|env\(|process\.env\.|import\.meta\.env\.)/;

/**
 * Why `text` may not be written into docs (it holds something shaped like a real credential), or
 * null. Placeholders (`<SYNC_TOKEN>`, `sk-...`) pass: docs explain secrets without holding them.
 *
 * @example
 * secretIn('key: AKIAABCDEFGHIJKLMNOP'); // 'an AWS access key id'
 */
export function secretIn(text: string): string | null {
  for (const { pattern, what } of SECRET_SHAPES) if (pattern.test(text)) return what;
  return null;
}

/**
 * Why a frontmatter object may not be written, or null: a key that names a secret or setting, a
 * value that reads the environment, or a value shaped like a credential. Nested values are checked.
 */
export function frontmatterRefusal(frontmatter: Record<string, unknown>): string | null {
  const visit = (value: unknown, trail: string): string | null => {
    if (typeof value === 'string') {
      if (ENVIRONMENT_VALUE.test(value)) {
        return `frontmatter \`${trail}\` reads the environment ("${value.slice(0, 40)}"): environment values live in the environment file, never in docs. Write what the page is about instead, or remove the key.`;
      }
      const secret = secretIn(value);
      if (secret) {
        return `frontmatter \`${trail}\` holds ${secret}. Secrets never belong in docs: remove it and rotate the credential if it was real.`;
      }
      return null;
    }
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) {
        const found = visit(item, `${trail}[${index}]`);
        if (found) return found;
      }
      return null;
    }
    if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (SECRET_KEY.test(key)) {
          return `frontmatter \`${trail ? `${trail}.` : ''}${key}\` names a secret or setting. Frontmatter describes the page (title, description, sources, ...); secrets and settings belong in the environment file and kit.config.ts. Remove the key.`;
        }
        const found = visit(item, trail ? `${trail}.${key}` : key);
        if (found) return found;
      }
    }
    return null;
  };
  return visit(frontmatter, '');
}
