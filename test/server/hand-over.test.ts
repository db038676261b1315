/** Answers handed to the kernel together, once the turn's input is handled (server/http/hand-over.ts). */
import { describe, expect, it } from 'vitest';
import { HandOver } from '../../server/http/hand-over.js';

const nextTurn = () => new Promise((r) => setImmediate(r));
const never = () => {
  throw new Error('not expected');
};

describe('answers handed over together', () => {
  it('sends nothing during the turn, then every answer of the turn in the order made; a later turn is sent in its own pass', async () => {
    const sent: string[] = [];
    const passes: number[] = [];
    let pass = 0;
    const h = new HandOver<string>((a) => {
      sent.push(a);
      passes.push(pass);
    }, never);
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

  it('sends an answer made while sending in a pass of its own', async () => {
    const sent: string[] = [];
    const h: HandOver<string> = new HandOver<string>((a) => {
      sent.push(a);
      if (a === 'first') h.add('made while sending');
    }, never);
    h.add('first');
    await nextTurn();
    expect(sent).toEqual(['first']);
    await nextTurn();
    expect(sent).toEqual(['first', 'made while sending']);
  });

  it('reports an answer whose sending throws, and sends the others of its turn and of later turns', async () => {
    const sent: string[] = [];
    const failed: string[] = [];
    const h = new HandOver<string>(
      (a) => {
        if (a === 'bad') throw new Error('cannot send');
        sent.push(a);
      },
      (a, e) => failed.push(`${a}: ${(e as Error).message}`),
    );
    h.add('a');
    h.add('bad');
    h.add('c');
    await nextTurn();
    expect(sent).toEqual(['a', 'c']);
    expect(failed).toEqual(['bad: cannot send']);
    h.add('later');
    await nextTurn();
    expect(sent).toEqual(['a', 'c', 'later']);
  });
});
