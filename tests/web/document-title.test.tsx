import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { documentTitle, useDocumentTitle } from '../../web/src/components/useDocumentTitle';

function Titled({ title }: { title?: string }) {
  useDocumentTitle(title);
  return null;
}

describe('useDocumentTitle', () => {
  it('formats "{title} · Trackpitch", and "Trackpitch" alone without a title', () => {
    expect(documentTitle('Contacts')).toBe('Contacts · Trackpitch');
    expect(documentTitle()).toBe('Trackpitch');
    expect(documentTitle('')).toBe('Trackpitch');
  });

  it('sets the title while mounted, follows a new title, and puts back "Trackpitch" on unmount', () => {
    document.title = 'something else';
    const { rerender, unmount } = render(<Titled title="Settings" />);
    expect(document.title).toBe('Settings · Trackpitch');
    rerender(<Titled title="Subscription" />);
    expect(document.title).toBe('Subscription · Trackpitch');
    rerender(<Titled />);
    expect(document.title).toBe('Trackpitch');
    rerender(<Titled title="Analytics" />);
    unmount();
    expect(document.title).toBe('Trackpitch');
  });
});
