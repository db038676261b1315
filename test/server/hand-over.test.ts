/** Answers handed to the kernel together, once the turn's input is handled (server/http/hand-over.ts). */
import { describe, expect, it } from 'vitest';
import { HandOver } from '../../server/http/hand-over.js';

const nextTurn = () => new Promise((r) => setImmediate(r));

describe('answers handed over together', () => {
  it('sends nothing during the turn, then every answer of the turn in the order made; a later turn is sent in its own pass', async () => {
    const sent: string[] = [];
    const passes: number[] = [];
    let pass = 0;
    const h = new HandOver<string>((a) => {
      sent.push(a);
      passes.push(pass);
    });
    h.add('a');
    h.add('b');
    h.add('c');
    expect(sent).toEqual([]);
    pass = 1;
    await nextTurn();
    expect(sent).toEqual(['a', 'b', 'c']);
    h.add('d');
    expect(sent).toHaveLength(3);
    pass = 2;
    await nextTurn();
    expect(sent).toEqual(['a', 'b', 'c', 'd']);
    expect(passes).toEqual([1, 1, 1, 2]);
  });

  it('sends an answer made while sending in the same pass', async () => {
    const sent: string[] = [];
    const h: HandOver<string> = new HandOver<string>((a) => {
      sent.push(a);
      if (a === 'first') h.add('made while sending');
    });
    h.add('first');
    await nextTurn();
    expect(sent).toEqual(['first', 'made while sending']);
    await nextTurn();
    expect(sent).toHaveLength(2);
  });
});
