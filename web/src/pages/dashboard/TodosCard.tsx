import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useEffect, useState } from 'react';
import { listenAnswerLabels } from '../../../../schema/api/listenValues';
import type { PipelineTodo } from '../../../../schema/api/pipeline';
import { errorMessage } from '../../api/client';
import { listPipelineTodos, setPipelineTodoDone } from '../../api/pipeline';
import { useAuth } from '../../auth/AuthContext';
import { useFollow } from '../../components/useFollow';
import { useNotifications } from '../../notifications/NotificationsContext';
import { formatDateTime } from '../campaigns/campaignView';
import styles from './dashboard.module.css';

type TodosState = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; todos: PipelineTodo[] };

/** What the artist did about an answer: the WAVs went out, or the interested label was followed up. */
export const todoDoneLabel = (todo: Pick<PipelineTodo, 'answer'>) => (todo.answer === 'send_wavs' ? 'WAVs sent' : 'Mark done');

const todoKey = (todo: PipelineTodo) => `${todo.track_key}/${todo.address_id}`;

// The track's page, written here rather than imported: the Dashboard's first chunk stays free of the tracks pages' code.
const trackPath = (trackKey: string) => `/dashboard/tracks/${encodeURIComponent(trackKey)}`;

/**
 * The Dashboard's to-dos (issue 28 §1): every Interested and Send me the WAVs answer the artist has not
 * acted on, each gone once marked done. Shows nothing while loading and when there is nothing to do, so
 * the Dashboard does not move for an artist without answers.
 */
export function TodosCard() {
  const { api } = useAuth();
  const { notify } = useNotifications();
  const follow = useFollow();
  const [state, setState] = useState<TodosState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [marking, setMarking] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    const controller = new AbortController();
    listPipelineTodos(api, { signal: controller.signal }).then(
      (todos) => !controller.signal.aborted && setState({ kind: 'ready', todos }),
      (error: unknown) => !controller.signal.aborted && setState({ kind: 'failed', message: errorMessage(error) }),
    );
    return () => controller.abort();
  }, [api, attempt]);

  async function markDone(todo: PipelineTodo) {
    const key = todoKey(todo);
    setMarking((current) => new Set(current).add(key));
    try {
      await setPipelineTodoDone(api, todo.track_key, todo.address_id, true);
      setState((current) => (current.kind === 'ready' ? { kind: 'ready', todos: current.todos.filter((one) => todoKey(one) !== key) } : current));
      notify({ type: 'success', title: `${todo.answer === 'send_wavs' ? 'WAVs sent' : 'Done'}: ${todo.name}, ${todo.track_name}` });
    } catch (error) {
      notify({ type: 'error', title: 'Could not mark the to-do done', message: errorMessage(error) });
    } finally {
      setMarking((current) => {
        const next = new Set(current);
        next.delete(key);
        return next;
      });
    }
  }

  if (state.kind === 'loading' || (state.kind === 'ready' && state.todos.length === 0)) return null;
  if (state.kind === 'failed') {
    return (
      <Alert
        type="warning"
        header="Could not load your to-dos"
        action={
          <Button
            onClick={() => {
              setState({ kind: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            Retry
          </Button>
        }
      >
        {state.message}
      </Alert>
    );
  }
  return (
    <Container
      data-testid="todos-card"
      header={
        <Header variant="h2" counter={`(${state.todos.length})`} description="Labels that asked for more: answer them, then mark each done.">
          To-dos
        </Header>
      }
    >
      <ul className={styles.todos} aria-label="To-dos">
        {state.todos.map((todo) => (
          <li key={todoKey(todo)} className={styles.todo}>
            <div className={styles.todoText}>
              <SpaceBetween size="xxs">
                <Box>
                  <strong>{todo.name}</strong>
                  {` (${todo.email}) answered `}
                  <strong>{listenAnswerLabels[todo.answer]}</strong>
                  {' on '}
                  <Link href={trackPath(todo.track_key)} onFollow={follow}>
                    {todo.track_name}
                  </Link>
                </Box>
                <Box variant="small" color="text-body-secondary">
                  {formatDateTime(todo.answered_at)}
                  {todo.answer_note && ` · “${todo.answer_note}”`}
                </Box>
              </SpaceBetween>
            </div>
            <Button
              loading={marking.has(todoKey(todo))}
              ariaLabel={`${todoDoneLabel(todo)}: ${todo.name}, ${todo.track_name}`}
              onClick={() => void markDone(todo)}
            >
              {todoDoneLabel(todo)}
            </Button>
          </li>
        ))}
      </ul>
    </Container>
  );
}
