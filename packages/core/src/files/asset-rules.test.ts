import { describe, expect, it } from 'vitest';
import { isKitError } from '../errors/kit-error.js';
import { assetDataUrl, dataUrlSize, decodeAssetContent, readAssetDataUrl } from './asset-content.js';
import { assetRefusal, checkAsset, MAX_ASSET_BYTES } from './asset-rules.js';

const encode = (text: string) => new TextEncoder().encode(text);
/** A real 1x1 PNG. */
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (char) => char.charCodeAt(0),
);
const AWS_KEY = 'aws_access_key_id = AKIAZ3MSJV4WWNK6TQ7H';

describe('the rules a file must pass to be added to a set', () => {
  it('accept an image, a clean SVG drawing, a stylesheet and JSON', () => {
    expect(assetRefusal({ name: '13.x/images/flow.png', bytes: PNG })).toBeNull();
    expect(assetRefusal({ name: 'images/photo.JPG', bytes: Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0, 16) })).toBeNull();
    const svg =
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" style="fill:#09f"/><text>Turn it on</text></svg>';
    expect(assetRefusal({ name: 'brand/logo.svg', bytes: encode(svg) })).toBeNull();
    expect(assetRefusal({ name: 'theme.css', bytes: encode('body { color: #111 }\n') })).toBeNull();
    expect(assetRefusal({ name: 'data/sample.json', bytes: encode('{"ok": true}') })).toBeNull();
    expect(checkAsset({ name: 'images/flow.png', bytes: PNG })).toEqual({ contentType: 'image/png', text: false });
  });

  it.each([
    ['a <script> element', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>'],
    ['an event handler', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>'],
    ['an event handler behind a ">" in a quoted value', '<svg><a title=">" onclick="alert(1)">x</a></svg>'],
    [
      'a javascript: link spelled with character references',
      '<svg><a href="jav&#x61;script&colon;alert(1)">x</a></svg>',
    ],
    ['a javascript: link split by a tab', '<svg><a xlink:href="java\tscript:alert(1)">x</a></svg>'],
    ['embedded HTML', '<svg><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>'],
    ['an entity declaration', '<!DOCTYPE svg [<!ENTITY lol "lol">]><svg>&lol;</svg>'],
    ['an animation setting an event handler', '<svg><set attributeName="onmouseover" to="alert(1)"/></svg>'],
  ])('refuse an SVG holding %s', (_what, svg) => {
    expect(assetRefusal({ name: 'images/evil.svg', bytes: encode(svg) })?.rule).toBe('asset.content');
  });

  it('refuses XML that a browser would run as XHTML', () => {
    const xml = '<html xmlns="http://www.w3.org/1999/xhtml"><body>hi</body></html>';
    expect(assetRefusal({ name: 'feed.xml', bytes: encode(xml) })?.rule).toBe('asset.content');
  });

  it('refuses bytes that are not what the name says, and a declared type that is not the name’s', () => {
    const html = encode('<html><script>alert(1)</script></html>');
    const mislabelled = assetRefusal({ name: 'images/flow.png', bytes: html });
    expect(mislabelled).toMatchObject({ rule: 'asset.type' });
    expect(mislabelled?.message).toContain('not a PNG image (they look like text or markup)');
    expect(assetRefusal({ name: 'images/flow.png', bytes: PNG, declaredType: 'image/jpeg' })?.message).toContain(
      'declared as image/jpeg',
    );
    expect(assetRefusal({ name: 'images/flow.jpg', bytes: PNG })?.rule).toBe('asset.type');
    expect(assetRefusal({ name: 'images/flow.svg', bytes: encode('just text') })?.rule).toBe('asset.type');
    expect(assetRefusal({ name: 'data.json', bytes: encode('{nope') })?.rule).toBe('asset.type');
    expect(assetRefusal({ name: 'notes.txt', bytes: Uint8Array.of(0x41, 0, 0x42) })?.rule).toBe('asset.type');
    expect(assetRefusal({ name: 'images/flow.png', bytes: PNG, declaredType: 'image/png; charset=binary' })).toBeNull();
    expect(assetRefusal({ name: 'images/flow.png', bytes: PNG, declaredType: 'application/octet-stream' })).toBeNull();
  });

  it('refuses a file over the size limit, and an empty one', () => {
    const big = new Uint8Array(MAX_ASSET_BYTES + 1);
    big.set(PNG);
    expect(assetRefusal({ name: 'images/big.png', bytes: big })).toMatchObject({ rule: 'asset.size' });
    const limit = new Uint8Array(MAX_ASSET_BYTES);
    limit.set(PNG);
    expect(assetRefusal({ name: 'images/limit.png', bytes: limit })).toBeNull();
    expect(assetRefusal({ name: 'images/empty.png', bytes: new Uint8Array() })?.rule).toBe('asset.size');
  });

  it.each([
    ['../outside.png', 'not a plain relative path'],
    ['13.x/../../etc/flow.png', 'not a plain relative path'],
    ['/etc/flow.png', 'not a plain relative path'],
    ['images\\flow.png', 'backslash'],
    ['images/.hidden.png', 'looks like it holds secrets'],
    ['.env.png', 'looks like it holds secrets'],
    ['config/flow.png', 'looks like it holds secrets'],
    ['certs/server.key.png', 'looks like it holds secrets'],
    ['guides/setup.md', 'Markdown files are pages'],
    ['13.x/navigation.json', 'update_navigation'],
    ['kit.json', 'update_manifest'],
  ])('refuses the name %s', (name, why) => {
    const refusal = assetRefusal({ name, bytes: PNG });
    expect(refusal?.rule).toBe('asset.name');
    expect(refusal?.message).toContain(why);
  });

  it.each(['page.html', 'app.js', 'setup.exe', 'module.wasm', 'README'])('refuses the type of %s', (name) => {
    const refusal = assetRefusal({ name: `downloads/${name}`, bytes: encode('x') });
    expect(refusal?.rule).toBe('asset.type');
    expect(refusal?.message).toContain('.png');
  });

  it('refuses a text file that adds a credential, but not one its previous copy held', () => {
    const refusal = assetRefusal({ name: 'examples/aws-config.txt', bytes: encode(`${AWS_KEY}\n`) });
    expect(refusal?.rule).toBe('asset.secret');
    expect(refusal?.message).not.toContain('AKIAZ3MSJV4WWNK6TQ7H');
    expect(
      assetRefusal({ name: 'examples/aws-config.txt', bytes: encode(`${AWS_KEY}\nmore\n`), previous: encode(AWS_KEY) }),
    ).toBeNull();
    expect(assetRefusal({ name: 'brand/logo.svg', bytes: encode(`<svg><!-- ${AWS_KEY} --></svg>`) })?.rule).toBe(
      'asset.secret',
    );
  });

  it('throws a KitError naming the rule from checkAsset', () => {
    let caught: unknown;
    try {
      checkAsset({ name: '../x.png', bytes: PNG });
    } catch (error) {
      caught = error;
    }
    expect(isKitError(caught, 'argument.invalid')).toBe(true);
    expect((caught as { details: unknown }).details).toEqual({ rule: 'asset.name' });
  });
});

describe('the content an author tool receives', () => {
  it('reads a base64 data URL with its type, bare base64 and percent-encoded SVG', () => {
    const url = assetDataUrl(PNG, 'image/png');
    expect(decodeAssetContent(url)).toEqual({ bytes: PNG, declaredType: 'image/png' });
    expect(decodeAssetContent(url.slice(url.indexOf(',') + 1).replace(/(.{20})/g, '$1\n'))).toEqual({
      bytes: PNG,
      declaredType: null,
    });
    const svg = decodeAssetContent('data:image/svg+xml,%3Csvg%2F%3E');
    expect(new TextDecoder().decode(svg.bytes)).toBe('<svg/>');
    expect(svg.declaredType).toBe('image/svg+xml');
    expect(readAssetDataUrl(url)).toEqual({ type: 'image/png', bytes: PNG });
    expect(dataUrlSize(url)).toBe(PNG.byteLength);
  });

  it.each([
    ['not base64', 'this is not base64!'],
    ['a data URL without data', 'data:image/png;base64'],
    ['nothing', ''],
    ['a number', 42],
  ])('refuses %s, naming the formats', (_what, content) => {
    expect(() => decodeAssetContent(content)).toThrow(/base64|data URL/);
  });

  it('refuses content longer than the largest file before decoding it', () => {
    expect(() => decodeAssetContent('A'.repeat(Math.ceil(MAX_ASSET_BYTES / 3) * 4 + 8192))).toThrow(/10 MiB/);
  });
});
