/**
 * Threading a follow-up with the first email (lambdas/core/thread.ts, issue 27 §1): the reply subject
 * never doubles its prefix, and only a sent email with a recorded thread can be answered in it.
 */
import { describe, expect, it } from 'vitest';
import { baseSubject, firstEmailOf, replySubject, sameConversation } from '../../lambdas/core/thread';
import { buildRecipient } from '../fakes/builders';

describe('replySubject', () => {
  it.each([
    ['New track: Night Drive', 'Re: New track: Night Drive'],
    ['Re: New track', 'Re: New track'],
    ['RE: re:New track', 'Re: New track'],
    ['  Re : Re:  New track ', 'Re: New track'],
    // A word that starts with "re" is not a prefix.
    ['Remix for you', 'Re: Remix for you'],
    ['', 'Re: '],
  ])('%j → %j', (subject, expected) => {
    expect(replySubject(subject)).toBe(expected);
  });

  it('is the same after a second reply (no "Re: Re:")', () => {
    expect(replySubject(replySubject('Hello'))).toBe('Re: Hello');
  });
});

describe('baseSubject and sameConversation', () => {
  it('strips every leading reply prefix and compares without case', () => {
    expect(baseSubject('Re: RE: Hello')).toBe('Hello');
    expect(sameConversation('Re: hello there', 'Hello There')).toBe(true);
    expect(sameConversation('Re: Hello', 'Goodbye')).toBe(false);
  });
});

describe('firstEmailOf', () => {
  const sent = buildRecipient({ status: 'sent', message_id: '<C1.0.abcdefgh@trackpitch>', thread_id: '18c2f0a9d1e2b3c4', subject: 'Night Drive' });

  it('gives the thread and our Message-ID of a sent email', () => {
    expect(firstEmailOf(sent)).toEqual({ thread: { threadId: '18c2f0a9d1e2b3c4', inReplyTo: '<C1.0.abcdefgh@trackpitch>' }, subject: 'Night Drive' });
  });

  it.each([
    ['not sent', { status: 'unknown' as const }],
    ['sent before threads were recorded', { thread_id: null }],
    ['without its Message-ID', { message_id: null }],
    ['without its subject', { subject: null }],
  ])('none for an email %s', (_, change) => {
    expect(firstEmailOf({ ...sent, ...change })).toBeUndefined();
  });
});
