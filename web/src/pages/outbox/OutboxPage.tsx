import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Table from '@cloudscape-design/components/table';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { outboxMessages, type OutboxMessage, type OutboxMessageSummary } from '../../../../schema/api/sending';
import { ApiError, errorMessage } from '../../api/client';
import { getOutboxMessage, listOutbox } from '../../api/outbox';
import { useAuth } from '../../auth/AuthContext';
import { useKeyedState } from '../../lib/useKeyedState';
import { useConfig } from '../../config/ConfigContext';
import { PageShell } from '../dashboard/PageShell';
import { formatSentAt, groupThreads, headerValue, MAIL_FRAME_SANDBOX, withLinksInNewTab } from './mailView';

/** While the list is open it refreshes this often, so a sending campaign's emails appear as they go. */
export const OUTBOX_REFRESH_MS = 5_000;

const TITLE = 'Outbox';
const LOCAL_DESCRIPTION =
  'The local mailbox: every email Trackpitch sent while running on this computer. Nothing here left it. Open one to see it as the recipient would; its opens, clicks and unsubscribes are tracked like real ones.';
const AWS_DESCRIPTION = 'The outbox exists only when Trackpitch runs locally. Here, emails go out through your connected Gmail.';

/**
 * The messages, newest first, refreshed every few seconds while shown, grouped by thread as a mail client
 * shows a conversation: its newest message, with the earlier ones (a follow-up's first email) under it.
 */
function MessageList({ onOpen }: { onOpen: (id: string) => void }) {
  const { api } = useAuth();
  const navigate = useNavigate();
  const [messages, setMessages] = useState<OutboxMessageSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Threads opened by id: a refresh brings new objects, the open threads stay open.
  const [openThreads, setOpenThreads] = useState<ReadonlySet<string>>(new Set());
  const threads = useMemo(() => groupThreads(messages ?? []), [messages]);
  const earlierOf = useMemo(() => new Map(threads.map((thread) => [thread.latest.id, thread.earlier])), [threads]);

  // State is set only in the request's callbacks: the effect below starts it.
  const load = useCallback(
    (signal: AbortSignal) =>
      listOutbox(api, { signal }).then(
        (list) => {
          if (signal.aborted) return;
          setMessages(list);
          setError(null);
        },
        (caught: unknown) => {
          if (signal.aborted) return;
          // A failed refresh keeps the list already shown; the next refresh may succeed.
          setError(errorMessage(caught, 'Could not load the outbox.'));
        },
      ),
    [api],
  );

  useEffect(() => {
    let controller = new AbortController();
    void load(controller.signal);
    const timer = window.setInterval(() => {
      controller.abort();
      controller = new AbortController();
      void load(controller.signal);
    }, OUTBOX_REFRESH_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [load]);

  return (
    <SpaceBetween size="m">
      {error && (
        <Alert type="error" header="Could not load the outbox">
          {error}
        </Alert>
      )}
      <Table<OutboxMessageSummary>
        variant="container"
        header={
          <Header counter={messages ? `(${messages.length})` : undefined} description="Newest first. Refreshes every 5 seconds.">
            Sent messages
          </Header>
        }
        items={threads.map((thread) => thread.latest)}
        loading={messages === null && error === null}
        loadingText="Loading messages"
        trackBy="id"
        wrapLines
        expandableRows={{
          getItemChildren: (message) => earlierOf.get(message.id) ?? [],
          isItemExpandable: (message) => (earlierOf.get(message.id)?.length ?? 0) > 0,
          expandedItems: threads.filter((thread) => openThreads.has(thread.latest.thread_id)).map((thread) => thread.latest),
          onExpandableItemToggle: ({ detail }) =>
            setOpenThreads((current) => {
              const next = new Set(current);
              if (detail.expanded) next.add(detail.item.thread_id);
              else next.delete(detail.item.thread_id);
              return next;
            }),
        }}
        ariaLabels={{ tableLabel: 'Sent messages' }}
        columnDefinitions={[
          { id: 'to', header: 'To', cell: (message) => message.to },
          {
            id: 'subject',
            header: 'Subject',
            cell: (message) => {
              const inThread = (earlierOf.get(message.id)?.length ?? 0) + 1;
              return (
                <>
                  <Link
                    href={`?message=${encodeURIComponent(message.id)}`}
                    onFollow={(event) => {
                      event.preventDefault();
                      onOpen(message.id);
                    }}
                  >
                    {message.subject || '(no subject)'}
                  </Link>
                  {inThread > 1 && <Box variant="span" color="text-body-secondary">{` (${inThread} messages in this thread)`}</Box>}
                </>
              );
            },
          },

          { id: 'sent', header: 'Sent', cell: (message) => <time dateTime={message.sent_at}>{formatSentAt(message.sent_at)}</time> },
        ]}
        empty={
          <Box textAlign="center" color="inherit" padding="l">
            <SpaceBetween size="xs">
              <Box variant="strong" color="inherit">
                No messages yet
              </Box>
              <Box variant="p" color="inherit">
                Send a campaign: each email the local mailbox sends appears here.
              </Box>
              <Button onClick={() => void navigate('/dashboard/compose')}>Compose a campaign</Button>
            </SpaceBetween>
          </Box>
        }
      />
    </SpaceBetween>
  );
}

type MessageState = { status: 'loading' } | { status: 'ready'; message: OutboxMessage } | { status: 'failed'; error: string };

const MESSAGE_LOADING: MessageState = { status: 'loading' };

/** One message as a mail client shows it: the envelope, the HTML (pixel and tracked links live), the headers. */
function MessageView({ id, onBack }: { id: string; onBack: () => void }) {
  const { api } = useAuth();
  // Loading until the read of this message answers.
  const [state, setStateFor] = useKeyedState(id, MESSAGE_LOADING);

  useEffect(() => {
    const controller = new AbortController();
    getOutboxMessage(api, id, { signal: controller.signal }).then(
      (message) => !controller.signal.aborted && setStateFor(id, { status: 'ready', message }),
      (caught: unknown) =>
        !controller.signal.aborted &&
        setStateFor(id, {
          status: 'failed',
          error: caught instanceof ApiError && caught.status === 404 ? outboxMessages.messageNotFound : errorMessage(caught),
        }),
    );
    return () => controller.abort();
  }, [api, id, setStateFor]);

  const back = (
    <Button iconName="arrow-left" onClick={onBack}>
      Back to Outbox
    </Button>
  );

  if (state.status === 'loading') {
    return (
      <SpaceBetween size="m">
        {back}
        <Box>
          <Spinner /> Loading the message…
        </Box>
      </SpaceBetween>
    );
  }
  if (state.status === 'failed') {
    return (
      <SpaceBetween size="m">
        {back}
        <Alert type="error" header="Could not open the message">
          {state.error}
        </Alert>
      </SpaceBetween>
    );
  }
  const { message } = state;
  // A reply in a thread (a follow-up) names the email it answers: shown beside the envelope.
  const threading = (['In-Reply-To', 'References'] as const).flatMap((name) => {
    const value = headerValue(message.headers, name);
    return value === undefined ? [] : [{ label: name, value: <span style={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{value}</span> }];
  });
  return (
    <SpaceBetween size="m">
      {back}
      <Container header={<Header variant="h2">{message.subject || '(no subject)'}</Header>}>
        <SpaceBetween size="l">
          <KeyValuePairs
            columns={2}
            items={[
              { label: 'From', value: message.from },
              { label: 'To', value: message.to },
              { label: 'Subject', value: message.subject },
              { label: 'Date', value: <time dateTime={message.sent_at}>{formatSentAt(message.sent_at)}</time> },
              ...threading,
            ]}
          />
          <iframe
            title="Email message"
            sandbox={MAIL_FRAME_SANDBOX}
            srcDoc={withLinksInNewTab(message.html)}
            style={{ width: '100%', height: 560, border: '1px solid #d1d5db', borderRadius: 8, background: '#fff', display: 'block' }}
          />
          <ExpandableSection headerText="Show headers">
            <SpaceBetween size="m">
              <dl style={{ margin: 0, fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' }}>
                {message.headers.map(([name, value], index) => (
                  <div key={`${index}-${name}`}>
                    <dt style={{ display: 'inline', fontWeight: 'bold' }}>{name}:</dt> <dd style={{ display: 'inline', margin: 0 }}>{value}</dd>
                  </div>
                ))}
              </dl>
              <Box variant="h3">Plain text part</Box>
              <pre style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 13 }}>{message.text}</pre>
            </SpaceBetween>
          </ExpandableSection>
        </SpaceBetween>
      </Container>
    </SpaceBetween>
  );
}

/** The local mailbox's sent folder (local mode only): every message, then one opened as a mail client would. */
export default function OutboxPage() {
  const { mode } = useConfig();
  const [params, setParams] = useSearchParams();
  const openId = params.get('message');

  if (mode !== 'local') {
    return (
      <PageShell title={TITLE} description={AWS_DESCRIPTION}>
        <Alert type="info">{AWS_DESCRIPTION}</Alert>
      </PageShell>
    );
  }
  return (
    <PageShell title={TITLE} description={LOCAL_DESCRIPTION}>
      {openId ? <MessageView id={openId} onBack={() => setParams({})} /> : <MessageList onOpen={(id) => setParams({ message: id })} />}
    </PageShell>
  );
}
