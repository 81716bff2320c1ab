import { describe, expect, it } from 'vitest';
import { heldOutBelowTarget, memberRow, missedMemberTarget, summarizeMembers } from '../../bench/route-eval.mjs';

/** A member task of one squad in one half, answered right or wrong. */
function row(half: 'tune' | 'held-out', right: boolean, ask = false) {
  const expect = ask ? { ask: 'Brady' } : { member: 'ripley' };
  const answer = right
    ? ask
      ? { agent: '', ask: 'brady' }
      : { agent: 'ripley', displayName: 'Ripley', role: 'Backend Dev' }
    : { agent: 'dallas', displayName: 'Dallas', role: 'Lead' };
  return memberRow('s1', { task: `${half} ${right} ${ask}`, expect, half }, answer);
}

describe('the member targets of the routing evaluation', () => {
  it('are enforced on the tuned tasks and reported, never enforced, on the held-out half', () => {
    const tuned = [...Array.from({ length: 9 }, () => row('tune', true)), row('tune', false), row('tune', true, true)];
    const heldOut = [row('held-out', true), row('held-out', false), row('held-out', false, true)];
    const members = summarizeMembers([...tuned, ...heldOut]);
    expect(missedMemberTarget(members)).toEqual([]);
    expect(heldOutBelowTarget(members)).toEqual(['held-out member accuracy on s1 33.3% < 90.0%', '"ask" answered for 0 of 1 held-out tasks of a human\'s row']);
  });

  it('miss when a tuned task falls below the target or a tuned ask is not answered "ask"', () => {
    const members = summarizeMembers([row('tune', true), row('tune', false), row('tune', false, true)]);
    expect(missedMemberTarget(members)).toEqual(["member accuracy on s1's tuned tasks 33.3% < 90.0%", '"ask" answered for 0 of 1 tuned tasks of a human\'s row']);
  });
});
