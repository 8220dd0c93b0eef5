import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Textarea from '@cloudscape-design/components/textarea';
import { useContext, useEffect, useState, type SubmitEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { unsubscribeReasons } from '../../../../schema/api/contacts';
import { UNSUBSCRIBE_DETAILS_MAX, unsubscribeMessages } from '../../../../schema/api/sending';
import { confirmUnsubscribe, lookupUnsubscribe, UnsubscribeError } from '../../api/unsubscribe';
import { RecipientPage } from '../../components/RecipientPage';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useKeyedState } from '../../lib/useKeyedState';
import { NotificationsContext } from '../../notifications/NotificationsContext';

type Reason = (typeof unsubscribeReasons)[number];

/** Spec §4: loading, then the confirm form, an error, or done (directly when already unsubscribed). */
type PageState =
  { status: 'loading' } | { status: 'error'; title: string; hint: string } | { status: 'form'; artistName: string } | { status: 'done'; artistName: string };

const LOADING: PageState = { status: 'loading' };

const USE_EMAIL_LINK = 'Use the unsubscribe link at the bottom of the email you received.';

/** What a failed lookup says (spec §8): an unknown token is 'Invalid or expired token'; otherwise the server's own words. */
function lookupFailure(error: unknown): PageState {
  if (error instanceof UnsubscribeError && error.status !== 404 && error.status !== 400) {
    if (error.status === 0)
      return { status: 'error', title: unsubscribeMessages.invalidOrExpiredLink, hint: 'Could not reach the server. Check your connection and try again.' };
    return { status: 'error', title: error.serverMessage ?? unsubscribeMessages.invalidOrExpiredLink, hint: USE_EMAIL_LINK };
  }
  const said = error instanceof UnsubscribeError ? error.serverMessage : undefined;
  return { status: 'error', title: said ?? unsubscribeMessages.invalidToken, hint: USE_EMAIL_LINK };
}

/** Public page for email recipients (spec §2 Unsubscribe page). Opening it never unsubscribes: only the button does. */
export default function UnsubscribePage({ fetchImpl }: { fetchImpl?: typeof fetch }) {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  useDocumentTitle('Unsubscribe');
  // Loading until the lookup of this token answers.
  const [state, setStateFor] = useKeyedState(token, LOADING);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    lookupUnsubscribe(token, { signal: controller.signal, fetchImpl }).then(
      (lookup) =>
        setStateFor(token, lookup.alreadyUnsubscribed ? { status: 'done', artistName: lookup.artistName } : { status: 'form', artistName: lookup.artistName }),
      (error: unknown) => {
        if (!controller.signal.aborted) setStateFor(token, lookupFailure(error));
      },
    );
    return () => controller.abort();
  }, [token, fetchImpl, setStateFor]);

  let content;
  if (!token) {
    content = (
      <Failure
        title={unsubscribeMessages.invalidLink}
        hint="This link has no unsubscribe token. Use the unsubscribe link at the bottom of the email you received."
      />
    );
  } else if (state.status === 'loading') {
    // In a card: the page around it is the brand's night background.
    content = (
      <Container>
        <Box textAlign="center" padding="l">
          <StatusIndicator type="loading">Loading...</StatusIndicator>
        </Box>
      </Container>
    );
  } else if (state.status === 'error') {
    content = <Failure title={state.title} hint={state.hint} />;
  } else if (state.status === 'form') {
    content = (
      <ConfirmForm
        token={token}
        artistName={state.artistName}
        fetchImpl={fetchImpl}
        onDone={() => setStateFor(token, { status: 'done', artistName: state.artistName })}
      />
    );
  } else {
    content = <Done artistName={state.artistName} />;
  }

  return <RecipientPage>{content}</RecipientPage>;
}

function Failure({ title, hint }: { title: string; hint: string }) {
  return (
    <Container header={<Header variant="h1">Unsubscribe</Header>}>
      <Alert type="error" header={title}>
        {hint}
      </Alert>
    </Container>
  );
}

function Done({ artistName }: { artistName: string }) {
  return (
    <Container header={<Header variant="h1">{unsubscribeMessages.doneTitle}</Header>}>
      <SpaceBetween size="s">
        <StatusIndicator type="success">{unsubscribeMessages.doneLine(artistName)}</StatusIndicator>
        <Box variant="p" color="text-body-secondary">
          {unsubscribeMessages.doneMistake}
        </Box>
      </SpaceBetween>
    </Container>
  );
}

function ConfirmForm({ token, artistName, fetchImpl, onDone }: { token: string; artistName: string; fetchImpl: typeof fetch | undefined; onDone: () => void }) {
  // Public pages sit inside the app's NotificationsProvider; read it softly so the page also renders alone.
  const notifications = useContext(NotificationsContext);
  const [reason, setReason] = useState<Reason | null>(null);
  const [details, setDetails] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const trimmed = details.trim();
      await confirmUnsubscribe({ token, reason, reasonDetails: reason && trimmed ? trimmed : null }, { fetchImpl });
      notifications?.notify({ type: 'success', title: unsubscribeMessages.success });
      onDone();
    } catch (error) {
      // Spec §8: the response's error field when it has one, else 'Failed to unsubscribe'.
      setFailure(error instanceof UnsubscribeError && error.serverMessage ? error.serverMessage : unsubscribeMessages.failed);
      setBusy(false);
    }
  }

  // The whole form in one card, its header, error and button included: the page around it is the brand's night background.
  return (
    <Container header={<Header variant="h1">{unsubscribeMessages.title(artistName)}</Header>}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Form
          actions={
            <Button variant="primary" formAction="submit" loading={busy} loadingText={unsubscribeMessages.processing}>
              {busy ? unsubscribeMessages.processing : unsubscribeMessages.confirm}
            </Button>
          }
          errorText={failure ?? undefined}
          errorIconAriaLabel="Error"
        >
          <SpaceBetween size="l">
            <Box variant="p">You will no longer receive emails from {artistName} at this address.</Box>
            <FormField label="Why are you unsubscribing? (optional)" stretch>
              <RadioGroup
                value={reason}
                onChange={({ detail }) => setReason(detail.value as Reason)}
                items={unsubscribeReasons.map((value) => ({ value, label: value, disabled: busy }))}
              />
            </FormField>
            {reason && (
              <FormField
                label="Anything else you would like to tell the artist? (optional)"
                constraintText={`${details.length}/${UNSUBSCRIBE_DETAILS_MAX} characters`}
                stretch
              >
                <Textarea value={details} onChange={({ detail }) => setDetails(detail.value.slice(0, UNSUBSCRIBE_DETAILS_MAX))} rows={3} disabled={busy} />
              </FormField>
            )}
          </SpaceBetween>
        </Form>
      </form>
    </Container>
  );
}
