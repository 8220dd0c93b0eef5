import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import { TimeZoneSelect } from '../../components/TimeZoneSelect';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useMemo, useState, type SubmitEvent } from 'react';
import { contactLimits, contactMessages, type Contact, type ContactInputBody } from '../../../../schema/api/contacts';
import { contactTypes, type ContactType } from '../../../../schema/api/options';
import { ApiError, errorMessage } from '../../api/client';
import { createContact, updateContact } from '../../api/contacts';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';
import { timeZoneOptions } from '../../lib/timeZones';

export type ContactFormMode = { kind: 'add' } | { kind: 'edit'; contact: Contact };

type Draft = {
  name: string;
  email: string;
  label_name: string;
  contact_type: ContactType;
  position: string;
  genre: string;
  website_url: string;
  notes: string;
  /** An IANA name, or '' for none. */
  time_zone: string;
};

const typeOptions: SelectProps.Option[] = contactTypes.map((type) => ({ value: type, label: type }));

const noTimeZone: SelectProps.Option = { value: '', label: 'Not set' };

function draftOf(mode: ContactFormMode): Draft {
  if (mode.kind === 'add') {
    return { name: '', email: '', label_name: '', contact_type: 'Label', position: '', genre: '', website_url: '', notes: '', time_zone: '' };
  }
  const c = mode.contact;
  return {
    name: c.name,
    email: c.email,
    label_name: c.label_name ?? '',
    contact_type: c.contact_type,
    position: c.position ?? '',
    genre: c.genre ?? '',
    website_url: c.website_url ?? '',
    notes: c.notes ?? '',
    time_zone: c.time_zone ?? '',
  };
}

/**
 * The 'Add New Contact' / 'Edit Contact' form (spec §2). It keeps what was typed until the server
 * accepts it: a 400 or 409 (the email is already a contact) is shown on the form, ready to correct.
 */
export function ContactForm({
  mode,
  onSaved,
  onCancel,
}: {
  mode: ContactFormMode;
  /** `previousId` is the id the contact had before an edit (it changes with the email). */
  onSaved: (contact: Contact, previousId?: string) => void;
  onCancel: () => void;
}) {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const [draft, setDraft] = useState<Draft>(() => draftOf(mode));
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const editing = mode.kind === 'edit';
  const failedTitle = editing ? contactMessages.updateFailed : contactMessages.addFailed;

  const zoneOptions = useMemo(() => timeZoneOptions(mode.kind === 'edit' ? (mode.contact.time_zone ?? '') : '', [noTimeZone]), [mode]);

  const bind = (field: Exclude<keyof Draft, 'contact_type' | 'time_zone'>) => ({
    value: draft[field],
    onChange: ({ detail }: { detail: { value: string } }) => setDraft((current) => ({ ...current, [field]: detail.value })),
    disabled: saving,
  });

  async function submit(event?: SubmitEvent) {
    event?.preventDefault();
    if (saving) return;
    // Spec §5: the add form checks the two required fields; edit leaves it to the server.
    if (!editing && (draft.name.trim() === '' || draft.email.trim() === '')) {
      setFormError(contactMessages.nameAndEmailRequired);
      return;
    }
    setSaving(true);
    setFormError(null);
    const input: ContactInputBody = { ...draft };
    try {
      if (mode.kind === 'edit') {
        const updated = await updateContact(api, mode.contact.id, input);
        notify({ type: 'success', title: contactMessages.updated });
        onSaved(updated, mode.contact.id);
      } else {
        const created = await createContact(api, input);
        notify({ type: 'success', title: contactMessages.added });
        onSaved(created);
      }
    } catch (error) {
      setSaving(false);
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
        setFormError(error.message);
        notify({ type: 'error', title: failedTitle });
      } else {
        notify({ type: 'error', title: failedTitle, message: errorMessage(error) });
      }
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={editing ? 'Edit Contact' : 'Add New Contact'}>
      <Form
        header={<Header variant="h2">{editing ? 'Edit Contact' : 'Add New Contact'}</Header>}
        errorText={formError ?? undefined}
        errorIconAriaLabel="Error"
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            <Button formAction="none" variant="link" onClick={onCancel} disabled={saving}>
              Cancel
            </Button>
            <Button variant="primary" loading={saving} loadingText="Saving contact">
              {editing ? 'Update Contact' : 'Save Contact'}
            </Button>
          </SpaceBetween>
        }
      >
        <Container>
          <SpaceBetween size="m">
            <ColumnLayout columns={2}>
              <FormField label="Full Name *">
                <Input {...bind('name')} autoFocus autoComplete="off" spellcheck={false} />
              </FormField>
              <FormField label="Email *">
                <Input {...bind('email')} type="email" inputMode="email" autoComplete="off" spellcheck={false} />
              </FormField>
              <FormField label="Label/Company (Optional)">
                <Input {...bind('label_name')} />
              </FormField>
              <FormField label="Contact Type">
                <Select
                  selectedOption={typeOptions.find((option) => option.value === draft.contact_type) ?? null}
                  options={typeOptions}
                  disabled={saving}
                  onChange={({ detail }) =>
                    setDraft((current) => ({ ...current, contact_type: (detail.selectedOption.value as ContactType | undefined) ?? 'Label' }))
                  }
                />
              </FormField>
              <FormField label="Position">
                <Input {...bind('position')} placeholder="e.g. A&R Manager" />
              </FormField>
              <FormField label="Genre">
                <Input {...bind('genre')} placeholder="e.g. House, Techno, Progressive" />
              </FormField>
              <FormField label="Website">
                <Input {...bind('website_url')} type="url" inputMode="url" placeholder="https://label.com" />
              </FormField>
              <FormField label="Time zone" description="Their working hours are read in this zone.">
                <TimeZoneSelect
                  value={draft.time_zone}
                  options={zoneOptions}
                  empty={noTimeZone}
                  disabled={saving}
                  onChange={(zone) => setDraft((current) => ({ ...current, time_zone: zone }))}
                />
              </FormField>
            </ColumnLayout>
            <FormField label="Notes" constraintText={`At most ${contactLimits.notes.toLocaleString()} characters.`}>
              <Textarea {...bind('notes')} rows={3} />
            </FormField>
          </SpaceBetween>
        </Container>
      </Form>
    </form>
  );
}
