/**
 * Settings → 'Your data' (issue 26 §3; the Privacy page and the Terms promise both): 'Download my data'
 * downloads a zip of the contacts (CSV) and campaigns with their emails and answers (JSON), from the
 * storage URL the export answers; 'Delete account'
 * asks for the account's email, typed, then deletes everything, signs out and shows the landing page.
 */
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { deleteAccount, exportAccountData } from '../../api/account';
import { errorMessage } from '../../api/client';
import { useAuth } from '../../auth/AuthContext';
import { browser } from '../../lib/browser';
import { useNotifications } from '../../notifications/NotificationsContext';

/** The landing page's own path ('/' sends a signed-in user to the dashboard). */
export const LANDING_PATH = '/landing';

/** Where the browser goes once the account is deleted: a full load (one object, so tests can replace it: jsdom cannot navigate). */
export const afterDeletion = {
  go(path: string): void {
    window.location.replace(path);
  },
};

/** The typed address confirms when it is the account's, case and surrounding spaces aside (the server's rule). */
const sameAddress = (typed: string, email: string) => email !== '' && typed.trim().toLowerCase() === email.trim().toLowerCase();

function DeleteAccountModal({ email, onClose }: { email: string; onClose: () => void }) {
  const { api, signOut } = useAuth();
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmed = sameAddress(typed, email);

  async function confirm() {
    if (!confirmed || deleting) return;
    setDeleting(true);
    setError(null);
    try {
      await deleteAccount(api, typed);
    } catch (failure) {
      setError(errorMessage(failure));
      setDeleting(false);
      return;
    }
    // The session goes whatever the sign-out says (its tokens name no user now), then a fresh load of the
    // landing page: a route change would race the dashboard's own redirect of a signed-out user to /auth.
    await signOut().catch(() => undefined);
    afterDeletion.go(LANDING_PATH);
  }

  return (
    <Modal
      visible
      header="Delete account?"
      onDismiss={() => !deleting && onClose()}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={deleting} onClick={onClose}>
              Cancel
            </Button>
            <Button variant="primary" loading={deleting} disabled={!confirmed} onClick={() => void confirm()}>
              Delete account
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p">
          This deletes your account and everything in it, for good: your contacts, campaigns and their emails, your tracks, and your sign-in. A paid
          subscription is cancelled now. Links in emails you sent stop working. Download your data first if you want to keep a copy.
        </Box>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <FormField label="Type your email to confirm" description={email}>
            <Input
              value={typed}
              onChange={({ detail }) => setTyped(detail.value)}
              type="email"
              inputMode="email"
              autoComplete={false}
              disabled={deleting}
              ariaRequired
              autoFocus
            />
          </FormField>
        </form>
        {error && <Alert type="error">{error}</Alert>}
      </SpaceBetween>
    </Modal>
  );
}

export function AccountDataCard({ email }: { email: string }) {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const [downloading, setDownloading] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function download() {
    setDownloading(true);
    try {
      // The server stores the zip as it builds it; the browser downloads it from storage's signed URL.
      const { url } = await exportAccountData(api);
      browser.download(url);
    } catch (error) {
      notify({ type: 'error', title: 'Could not download your data', message: errorMessage(error) });
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Container header={<Header variant="h2">Your data</Header>}>
      <SpaceBetween size="m">
        <Box variant="p">Download your contacts (CSV) and your campaigns with their emails and answers (JSON) in one zip file, or delete your account.</Box>
        <SpaceBetween direction="horizontal" size="xs">
          <Button iconName="download" loading={downloading} onClick={() => void download()}>
            Download my data
          </Button>
          <Button onClick={() => setDeleting(true)}>Delete account</Button>
        </SpaceBetween>
      </SpaceBetween>
      {deleting && <DeleteAccountModal email={email} onClose={() => setDeleting(false)} />}
    </Container>
  );
}
