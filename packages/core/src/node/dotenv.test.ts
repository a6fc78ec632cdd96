import { describe, expect, it } from 'vitest';
import { isKitError } from '../errors/kit-error.js';
import { parseDotenv } from './dotenv.js';

describe('parseDotenv', () => {
  it('reads KEY=VALUE lines and skips blank lines and comments', () => {
    expect(parseDotenv('# settings\n\nKIT_REVIEW=auto\nKIT_ASK = true \n')).toEqual({
      KIT_REVIEW: 'auto',
      KIT_ASK: 'true',
    });
  });

  it('drops an inline comment after an unquoted value but keeps a # inside it', () => {
    expect(parseDotenv('A=one # note\nB=color#red')).toEqual({ A: 'one', B: 'color#red' });
  });

  it('keeps single-quoted values literally', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: .env syntax, not a template
    expect(parseDotenv("A='x # y ${B} \\n'")).toEqual({ A: 'x # y ${B} \\n' });
  });

  it('unescapes double-quoted values, which may span lines', () => {
    expect(parseDotenv('A="line\\none \\"q\\""\nB="first\nsecond" # done')).toEqual({
      A: 'line\none "q"',
      B: 'first\nsecond',
    });
  });

  it('accepts an export prefix, CRLF line ends and a BOM', () => {
    expect(parseDotenv('\uFEFFexport A=1\r\nB=2\r\n')).toEqual({ A: '1', B: '2' });
  });

  it('expands references to earlier keys, then the environment, and leaves escaped ones', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: .env syntax, not a template
    const text = 'HOST=db\nURL=postgres://${HOST}/${DB_NAME}\nQ="\\${HOST}"';
    const values = parseDotenv(text, { DB_NAME: 'app' });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the escaped reference stays as written
    expect(values).toEqual({ HOST: 'db', URL: 'postgres://db/app', Q: '${HOST}' });
  });

  it('gives an empty value for KEY=', () => {
    expect(parseDotenv('KIT_PREFIX=')).toEqual({ KIT_PREFIX: '' });
  });

  it('refuses a line that is not KEY=VALUE, naming the line but not its text', () => {
    try {
      parseDotenv('A=1\nSECRET hunter2', {}, '/app/.env');
      expect.unreachable();
    } catch (error) {
      expect(isKitError(error, 'config.invalid')).toBe(true);
      expect((error as Error).message).toMatchInlineSnapshot(`"/app/.env line 2: expected KEY=VALUE (or a # comment)"`);
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('refuses an unclosed quote', () => {
    expect(() => parseDotenv('A="open\nB=2')).toThrowErrorMatchingInlineSnapshot(
      `[KitError: .env line 1: the value of A opens a " quote that never closes]`,
    );
  });
});
