import { describe, expect, it } from 'vitest';
import { contactMessages } from '../../schema/api/contacts';
import { plural } from '../../schema/plural';

describe('plural', () => {
  it("counts in the singular for one and the plural otherwise, never 'contact(s)'", () => {
    expect(plural(1, 'contact')).toBe('1 contact');
    expect(plural(0, 'contact')).toBe('0 contacts');
    expect(plural(3, 'contact')).toBe('3 contacts');
    expect(plural(2, 'match', 'matches')).toBe('2 matches');
    expect(plural(1200, 'email', 'emails', 'en-US')).toBe('1,200 emails');
  });

  it("words the bulk delete's toast for one contact and for many", () => {
    expect(contactMessages.deletedMany(1)).toBe('1 contact has been removed.');
    expect(contactMessages.deletedMany(3)).toBe('3 contacts have been removed.');
  });
});
