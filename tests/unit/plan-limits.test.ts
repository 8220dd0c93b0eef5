/**
 * The limits a plan sets (lambdas/core/plans.ts), read from the plan table by tier: monthly emails (the
 * send check and the capacity figures), LabelFinder additions, analytics depth; the Label plan's daily
 * limit; the Pacific calendar month for every plan.
 */
import { describe, expect, it } from 'vitest';
import { analyticsDepthOf, directoryAdditionsOf, monthlyLimitOf, raisesMonthlyLimit } from '../../lambdas/core/plans';
import { newProfile } from '../../lambdas/core/profile';
import { capacityOf, sendingStatus, type Usage } from '../../lambdas/core/queueing';
import { SEND_INTERVAL_MS } from '../../lambdas/core/sendingWindow';
import { tiers, type Tier } from '../../schema/api/profile';
import { directoryAdditionsLimits, isFreeAllowance } from '../../schema/api/directory';

const usage = (sentToday: number, usedThisMonth: number): Usage => ({ sentToday, usedThisMonth, nextSendAt: null });
const mailbox = { gmail_connected: true, gmail_email: 'nova@gmail.example', gmail_account_type: 'free' as const, gmail_daily_limit: 500 };

describe('each limit per tier (spec §6, §9)', () => {
  it.each([
    ['free', 50, 5, 'basic'],
    ['pro', 500, 1000, 'full'],
    ['label', null, 1000, 'full'],
  ] as const)('%s: %s emails a month, %i directory additions, %s analytics', (tier, monthly, additions, analytics) => {
    expect(monthlyLimitOf({ tier })).toBe(monthly);
    expect(directoryAdditionsOf(tier)).toBe(additions);
    expect(analyticsDepthOf(tier)).toBe(analytics);
  });

  it('a user without a profile yet has the Free allowance; a new profile stores the Free plan’s 50', () => {
    expect(directoryAdditionsOf(undefined)).toBe(5);
    expect(newProfile({ userId: 'u1', email: 'a@b.test', name: 'A', groups: [] }, new Date()).email_limit).toBe(50);
  });

  it('the directory contract’s limits and its free-allowance test come from the same table', () => {
    expect(directoryAdditionsLimits).toEqual({ free: 5, paid: 1000 });
    expect(isFreeAllowance({ used: 0, limit: directoryAdditionsOf('free') })).toBe(true);
    expect(isFreeAllowance({ used: 0, limit: directoryAdditionsOf('pro') })).toBe(false);
  });
});

describe('the send check and the capacity figures follow the tier', () => {
  it('a Pro user may queue past 50, up to 500', () => {
    expect(capacityOf({ tier: 'pro', gmail_daily_limit: 500 }, usage(0, 50), 450)).toMatchObject({
      monthRemaining: 450,
      availableNow: 450,
      scenario: 'sufficient',
    });
    expect(capacityOf({ tier: 'pro', gmail_daily_limit: 500 }, usage(0, 50), 451)).toMatchObject({ availableNow: 450, scenario: 'partial' });
  });

  it('a Free user stops at 50', () => {
    expect(capacityOf({ tier: 'free', gmail_daily_limit: 500 }, usage(0, 50), 1)).toMatchObject({ monthRemaining: 0, availableNow: 0 });
  });

  it('the Label plan has no monthly cap, and its mailbox’s daily limit still bounds it', () => {
    const label = { tier: 'label' as const, gmail_daily_limit: 500 };
    expect(capacityOf(label, usage(0, 5000), 500)).toMatchObject({ monthRemaining: null, availableNow: 500, scenario: 'sufficient' });
    expect(capacityOf(label, usage(100, 5000), 500)).toMatchObject({ todayRemaining: 400, availableNow: 400, scenario: 'partial' });
    expect(capacityOf({ ...label, gmail_daily_limit: 2000 }, usage(2000, 5000), 1)).toMatchObject({ availableNow: 0 });
  });

  it('a downgrade applies at once: the same usage, read again on Free, leaves nothing this month', () => {
    const now = new Date('2026-11-22T18:00:00Z');
    expect(sendingStatus({ ...mailbox, tier: 'pro' }, usage(10, 120), now, SEND_INTERVAL_MS).month).toEqual({
      month: '2026-11',
      used: 120,
      limit: 500,
      remaining: 380,
      resets_at: '2026-12-01T08:00:00.000Z',
    });
    expect(sendingStatus({ ...mailbox, tier: 'free' }, usage(10, 120), now, SEND_INTERVAL_MS).month).toEqual({
      month: '2026-11',
      used: 120,
      limit: 50,
      remaining: 0,
      resets_at: '2026-12-01T08:00:00.000Z',
    });
    expect(sendingStatus({ ...mailbox, tier: 'free' }, usage(10, 120), now, SEND_INTERVAL_MS).available_now).toBe(0);
  });
});

describe('a plan change that raises the monthly limit (it wakes the sender: held campaigns go on at once)', () => {
  // All nine pairs of tiers.
  it.each([
    ['free', 'pro', true],
    ['free', 'label', true],
    ['pro', 'label', true],
    ['label', 'pro', false],
    ['label', 'free', false],
    ['pro', 'free', false],
    ['free', 'free', false],
    ['pro', 'pro', false],
    ['label', 'label', false],
  ] as const)('%s → %s: %s', (before, after, raises) => {
    expect(raisesMonthlyLimit(before, after)).toBe(raises);
  });
});

describe('the monthly count is the Pacific calendar month for every plan', () => {
  it.each(tiers)('%s: the month turns at Pacific midnight on the 1st, not at UTC midnight', (tier: Tier) => {
    // 16:00 on 30 November in Los Angeles is already 1 December in UTC: still November's count.
    expect(sendingStatus({ ...mailbox, tier }, usage(0, 0), new Date('2026-12-01T00:00:00Z'), SEND_INTERVAL_MS).month.month).toBe('2026-11');
    expect(sendingStatus({ ...mailbox, tier }, usage(0, 0), new Date('2026-12-01T07:59:59Z'), SEND_INTERVAL_MS).month.month).toBe('2026-11');
    expect(sendingStatus({ ...mailbox, tier }, usage(0, 0), new Date('2026-12-01T08:00:00Z'), SEND_INTERVAL_MS).month.month).toBe('2026-12');
    // A month that starts in PDT: 1 November 2026 begins at 07:00Z.
    expect(sendingStatus({ ...mailbox, tier }, usage(0, 0), new Date('2026-11-01T06:59:59Z'), SEND_INTERVAL_MS).month.month).toBe('2026-10');
    expect(sendingStatus({ ...mailbox, tier }, usage(0, 0), new Date('2026-11-01T07:00:00Z'), SEND_INTERVAL_MS).month.month).toBe('2026-11');
  });
});
