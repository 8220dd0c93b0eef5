import { DIRECTORY_LIMIT_CODE, directoryMessages, isFreeAllowance, remainingAdditions, type DirectoryAllowance } from '../../../../schema/api/directory';
import { ApiError, errorMessage } from '../../api/client';
import type { NotifyInput } from '../../notifications/NotificationsContext';

/** LabelFinder tier rules on the web side (spec §6, §8): what to say before or instead of an add. */

/** DESIGN's route for the plan screen (the spec's /subscription). */
export const UPGRADE_HREF = '/dashboard/subscription';

/**
 * A refusal over the allowance: the message, with an Upgrade action on the free tier (a paid tier
 * already has the largest allowance there is).
 */
export function limitNotice(message: string, allowance: DirectoryAllowance): NotifyInput {
  return {
    type: 'warning',
    title: message,
    ...(isFreeAllowance(allowance) ? { action: { label: 'Upgrade', href: UPGRADE_HREF } } : {}),
  };
}

/** The message when nothing more may be added. */
export function limitReachedMessage(allowance: DirectoryAllowance): string {
  return isFreeAllowance(allowance) ? directoryMessages.freeLimitReached : directoryMessages.paidLimitReached(allowance.limit);
}

/**
 * Checked before any request: null when `count` additions fit in the allowance, else the notice that
 * refuses them (the limit reached, or 'You can only add N more contacts. ...').
 */
export function refusalBeforeAdd(count: number, allowance: DirectoryAllowance): NotifyInput | null {
  const remaining = remainingAdditions(allowance);
  if (remaining === 0) return limitNotice(limitReachedMessage(allowance), allowance);
  if (count > remaining) return limitNotice(directoryMessages.onlyNMore(remaining), allowance);
  return null;
}

/** The bulk add's closing summary. */
export const bulkAddSummary = (added: number, skipped: number) => `${added} contacts added, ${skipped} already in your contacts (skipped).`;

/**
 * What to say when an add request failed. `single` names the entry of a per-entry add (its 409 means
 * "already in your contacts"); without it the failure is a bulk add's. The server is authoritative on
 * the allowance (another tab may have used it): its 403 directory_limit reads like the refusal made
 * before sending.
 */
export function addFailureNotice(error: unknown, allowance: DirectoryAllowance, single?: { name: string }): NotifyInput {
  if (error instanceof ApiError) {
    if (error.status === 403 && error.code === DIRECTORY_LIMIT_CODE) return limitNotice(error.message, allowance);
    if (error.status === 409 && single) return { type: 'info', title: directoryMessages.alreadyInContacts(single.name) };
    if (error.status === 401) return { type: 'error', title: directoryMessages.loginRequired };
  }
  const title = single ? directoryMessages.addFailed : directoryMessages.addManyFailed;
  const detail = errorMessage(error, '');
  return detail === '' || detail === title ? { type: 'error', title } : { type: 'error', title, message: detail };
}
