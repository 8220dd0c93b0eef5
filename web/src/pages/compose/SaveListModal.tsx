import Box from '@cloudscape-design/components/box';
import { campaignLimits, composeMessages, type ContactListInput, type SavedContactList } from '../../../../schema/api/campaigns';
import { createContactList } from '../../api/campaigns';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';
import { NamedSaveModal } from './NamedSaveModal';

/**
 * The 'Save Contact List' dialog (spec §2): saves the recipient filters and the selection under a name,
 * for Quick Load later.
 */
export function SaveListModal({
  contents,
  onSaved,
  onClose,
}: {
  contents: Omit<ContactListInput, 'name'>;
  onSaved: (list: SavedContactList) => void;
  onClose: () => void;
}) {
  const { api } = useAuth();
  const { notify } = useNotifications();

  async function save(name: string) {
    const list = await createContactList(api, { ...contents, name });
    notify({ type: 'success', title: composeMessages.listSaved, message: `"${list.name}": ${list.contact_ids.length.toLocaleString()} contacts.` });
    onSaved(list);
  }

  const count = contents.contact_ids.length;
  return (
    <NamedSaveModal
      header="Save Contact List"
      nameLabel="List Name"
      namePlaceholder="e.g. Techno labels"
      maxLength={campaignLimits.listName}
      nameRequired={composeMessages.listNameRequired}
      savingText="Saving list"
      failureTitle={composeMessages.saveListFailed}
      intro={<Box variant="p">{`Saves the contact type and genre filters and the ${count.toLocaleString()} selected contact${count === 1 ? '' : 's'}.`}</Box>}
      onSave={save}
      onClose={onClose}
    />
  );
}
