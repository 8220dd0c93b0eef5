import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Tabs from '@cloudscape-design/components/tabs';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { Contact } from '../../../../schema/api/contacts';
import { countUnsubscribes } from '../../api/contacts';
import { useAuth } from '../../auth/AuthContext';
import { PageShell } from '../dashboard/PageShell';
import { ContactForm, type ContactFormMode } from './ContactForm';
import { ContactsList } from './ContactsList';
import { UnsubscribedList } from './UnsubscribedList';
import { useContactList } from './useContactList';

// The import panel brings the CSV parser: it is downloaded when the panel is first opened.
const CsvImportPanel = lazy(() => import('./CsvImportPanel'));

type Panel = { kind: 'none' } | { kind: 'import' } | ContactFormMode;

/**
 * /dashboard/contacts (spec §2): 'Import CSV' and 'Add Contact' toggle their panels (one open at a
 * time) above the Contacts and Unsubscribed tabs. The unsubscribed count is read on load; its list
 * loads when its tab is opened.
 */
export default function ContactsPage() {
  const { api } = useAuth();
  const list = useContactList();
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [activeTab, setActiveTab] = useState<'contacts' | 'unsubscribed'>('contacts');
  const [unsubscribedCount, setUnsubscribedCount] = useState<number | null>(null);
  const [importing, setImporting] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    countUnsubscribes(api, { signal: controller.signal }).then(
      (count) => {
        if (!controller.signal.aborted) setUnsubscribedCount(count);
      },
      // The tab label goes without its count; opening the tab loads the list (and says so if that fails).
      () => {},
    );
    return () => controller.abort();
  }, [api]);

  const toggle = (kind: 'import' | 'add') => setPanel((current) => (current.kind === kind ? { kind: 'none' } : { kind }));
  const openAdd = useCallback(() => setPanel({ kind: 'add' }), []);
  const openEdit = useCallback((contact: Contact) => setPanel({ kind: 'edit', contact }), []);
  const closePanel = useCallback(() => setPanel({ kind: 'none' }), []);

  const onSaved = (contact: Contact, previousId?: string) => {
    if (previousId === undefined) list.prepend([contact]);
    else list.replace(previousId, contact);
    closePanel();
  };

  // While later pages are still coming the count is not the total yet: 'Contacts (1,000…)'.
  const contactsLabel = list.status === 'loading' ? 'Contacts' : `Contacts (${list.contacts.length.toLocaleString()}${list.streamed === null ? '' : '…'})`;
  const unsubscribedLabel = unsubscribedCount === null ? 'Unsubscribed' : `Unsubscribed (${unsubscribedCount.toLocaleString()})`;

  return (
    <PageShell
      title="Contacts"
      description="Manage your A&R contacts, label managers and industry connections."
      actions={
        <SpaceBetween direction="horizontal" size="xs">
          <Button iconName="upload" ariaExpanded={panel.kind === 'import'} disabled={importing} onClick={() => toggle('import')}>
            Import CSV
          </Button>
          <Button variant="primary" iconName="add-plus" ariaExpanded={panel.kind === 'add'} disabled={importing} onClick={() => toggle('add')}>
            Add Contact
          </Button>
        </SpaceBetween>
      }
    >
      {panel.kind === 'import' && (
        <Suspense fallback={<StatusIndicator type="loading">Loading the CSV import…</StatusIndicator>}>
          <CsvImportPanel onImported={list.prepend} onFailed={list.reload} onClose={closePanel} onBusyChange={setImporting} />
        </Suspense>
      )}
      {(panel.kind === 'add' || panel.kind === 'edit') && (
        <ContactForm key={panel.kind === 'edit' ? panel.contact.id : 'add'} mode={panel} onSaved={onSaved} onCancel={closePanel} />
      )}
      <Tabs
        activeTabId={activeTab}
        onChange={({ detail }) => setActiveTab(detail.activeTabId === 'unsubscribed' ? 'unsubscribed' : 'contacts')}
        ariaLabel="Contact lists"
        tabs={[
          {
            id: 'contacts',
            label: contactsLabel,
            // Kept mounted behind the other tab, so filters, page and selection survive a visit to it.
            contentRenderStrategy: 'eager',
            content: <ContactsList list={list} onEdit={openEdit} onAddFirst={openAdd} />,
          },
          {
            id: 'unsubscribed',
            label: unsubscribedLabel,
            content: <UnsubscribedList onCount={setUnsubscribedCount} />,
          },
        ]}
      />
    </PageShell>
  );
}
