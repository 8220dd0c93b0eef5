import { useCallback, useEffect, useRef, useState } from 'react';
import { contactMessages, type Contact } from '../../../../schema/api/contacts';
import { errorMessage } from '../../api/client';
import { listContacts } from '../../api/contacts';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';

export type ContactListStatus = 'loading' | 'ready' | 'failed';

export interface ContactList {
  contacts: readonly Contact[];
  /** 'loading' until the first page is in; 'failed' when a page could not be fetched. */
  status: ContactListStatus;
  /** Contacts loaded so far while more pages stream in after the first; null otherwise. */
  streamed: number | null;
  reload: () => void;
  /** Puts new contacts at the top (newest first), leaving out any the list already has. */
  prepend: (contacts: readonly Contact[]) => void;
  /** Replaces the contact that had `oldId` (an email change gives the contact a new id). */
  replace: (oldId: string, contact: Contact) => void;
  remove: (ids: ReadonlySet<string>) => void;
}

/**
 * The user's contacts, newest first: the first page is shown as soon as it arrives and the later pages
 * are appended as they come. Adds, edits, deletes and imports change the list in place (no reload), and
 * a page that arrives after such a change never brings back a duplicate. After a failed import the page
 * calls `reload`: what the failing batch wrote before its error is known only to the server.
 */
export function useContactList(): ContactList {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const [contacts, setContacts] = useState<readonly Contact[]>([]);
  const [status, setStatus] = useState<ContactListStatus>('loading');
  const [streamed, setStreamed] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);
  /** Ids deleted while pages were still loading: a later page must not bring them back. */
  const removedWhileLoading = useRef(new Set<string>());

  // State is set only in the request's callbacks, so the effect below may start it (the list starts empty, loading).
  const fetchContacts = useCallback(() => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    removedWhileLoading.current = new Set();
    let loaded = 0;
    listContacts(api, {
      signal: current.signal,
      onPage: (page, more) => {
        if (current.signal.aborted) return;
        loaded += page.length;
        setContacts((list) => {
          const known = new Set(list.map((contact) => contact.id));
          const removed = removedWhileLoading.current;
          const fresh = page.filter((contact) => !known.has(contact.id) && !removed.has(contact.id));
          return fresh.length === 0 ? list : [...list, ...fresh];
        });
        setStatus('ready');
        setStreamed(more ? loaded : null);
      },
    }).catch((error: unknown) => {
      if (current.signal.aborted) return;
      setStatus('failed');
      setStreamed(null);
      notify({ type: 'error', title: contactMessages.loadFailed, message: errorMessage(error) });
    });
  }, [api, notify]);

  useEffect(() => {
    fetchContacts();
    return () => controller.current?.abort();
  }, [fetchContacts]);

  const prepend = useCallback((added: readonly Contact[]) => {
    if (added.length === 0) return;
    setContacts((list) => {
      const ids = new Set(added.map((contact) => contact.id));
      return [...added, ...list.filter((contact) => !ids.has(contact.id))];
    });
  }, []);

  const replace = useCallback((oldId: string, contact: Contact) => {
    if (oldId !== contact.id) removedWhileLoading.current.add(oldId);
    setContacts((list) => {
      const next: Contact[] = [];
      for (const item of list) {
        if (item.id === oldId) next.push(contact);
        else if (item.id !== contact.id) next.push(item);
      }
      return next;
    });
  }, []);

  const remove = useCallback((ids: ReadonlySet<string>) => {
    for (const id of ids) removedWhileLoading.current.add(id);
    setContacts((list) => list.filter((contact) => !ids.has(contact.id)));
  }, []);

  // A reload starts from nothing; what is added while it runs (a form, an import) is kept.
  const reload = useCallback(() => {
    setContacts([]);
    setStatus('loading');
    setStreamed(null);
    fetchContacts();
  }, [fetchContacts]);

  return { contacts, status, streamed, reload, prepend, replace, remove };
}
