import { describe, expect, it } from 'vitest';
import { answerHtml, readEvents } from './ask-logic.js';

describe('readEvents', () => {
  it('reads complete events and keeps an unfinished one for the next read', () => {
    const first = readEvents('data: {"type":"text","delta":"Hi"}\n\ndata: {"type":"te');
    expect(first.events).toEqual([{ type: 'text', delta: 'Hi' }]);
    const second = readEvents(`${first.rest}xt","delta":" there"}\n\n`);
    expect(second).toEqual({ events: [{ type: 'text', delta: ' there' }], rest: '' });
  });
});

describe('answerHtml', () => {
  const cited = new Map([['/docs/queues#retrying-jobs', '/docs/queues#retrying-jobs']]);

  it('links only the citations the server checked, and escapes everything', () => {
    expect(answerHtml('See [Retrying](/docs/queues#retrying-jobs) and [Evil](javascript:alert) <b>x</b>.', cited)).toBe(
      '<p>See <a href="/docs/queues#retrying-jobs">Retrying</a> and <span class="kit-ask-unlinked">Evil</span> &#60;b&#62;x&#60;/b&#62;.</p>',
    );
  });

  it('shows labels without links while the answer streams', () => {
    expect(answerHtml('[Retrying](/docs/queues#retrying-jobs)', null)).toBe(
      '<p><span class="kit-ask-unlinked">Retrying</span></p>',
    );
  });

  it('writes lists, code, bold and fenced code', () => {
    expect(answerHtml('**Steps**\n\n- run `kit serve`\n- open it\n\n```sh\nnpm i <x>\n```', null)).toBe(
      '<p><strong>Steps</strong></p><ul><li>run <code>kit serve</code></li><li>open it</li></ul><pre><code>npm i &#60;x&#62;</code></pre>',
    );
  });
});
