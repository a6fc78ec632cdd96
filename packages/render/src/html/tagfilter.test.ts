import { describe, expect, it } from 'vitest';
import { dropFilteredElements } from './tagfilter.js';

describe('dropFilteredElements', () => {
  it('takes a style block out whole, in any case, with quoted > in attributes', () => {
    expect(dropFilteredElements('<p>a</p>\n<STYLE media="x>y">p { color: red }</Style >\n<p>b</p>')).toEqual({
      html: '<p>a</p>\n\n<p>b</p>',
      dropped: ['style'],
    });
  });

  it('drops an unclosed tag alone and keeps what follows, so the block keeps its shape', () => {
    expect(dropFilteredElements('<div>a <iframe src=x> b</div>')).toEqual({
      html: '<div>a  b</div>',
      dropped: ['iframe'],
    });
    expect(dropFilteredElements('</script><b>x</b>')).toEqual({ html: '<b>x</b>', dropped: ['script'] });
    expect(dropFilteredElements('<plaintext>rest')).toEqual({ html: 'rest', dropped: ['plaintext'] });
  });

  it('leaves look-alike tags and clean HTML untouched', () => {
    const html = '<titles>x</titles><scripts/><stylesheet><p>ok</p>';
    expect(dropFilteredElements(html)).toEqual({ html, dropped: [] });
  });

  it('removes every element of a series, nested raw text included', () => {
    const { html, dropped } = dropFilteredElements('<textarea><script>alert(1)</script></textarea><xmp>x</xmp>ok');
    expect(html).toBe('ok');
    expect(dropped).toEqual(['textarea', 'xmp']);
  });
});
