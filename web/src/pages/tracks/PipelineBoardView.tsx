import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { memo, useId, useMemo } from 'react';
import type { PipelineEntry, PipelineStage } from '../../../../schema/api/pipeline';
import { useFollow } from '../../components/useFollow';
import { campaignPath, formatDateTime } from '../campaigns/campaignView';
import { AnswerSummary, StageSummary } from './EntrySummary';
import { entriesByStage, labelSizeLabel, labelSizeKeyOf, stageLabel } from './pipelineView';
import styles from './tracks.module.css';

/** Where a contact works: 'Velvet Records · Independent'; null when neither is known. */
function companyLine(entry: PipelineEntry): string | null {
  const parts = [entry.company, entry.label_size].filter((part): part is string => !!part && part.trim() !== '');
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** The attribute marking each Move button with its contact's address id, so the page can give it the focus back after a move. */
export const MOVE_TARGET_ATTRIBUTE = 'data-move-address';

function MoveButton({ entry, onMove }: { entry: PipelineEntry; onMove: (entry: PipelineEntry) => void }) {
  return (
    <Button onClick={() => onMove(entry)} ariaLabel={`Move ${entry.name}`} iconName="arrow-right" data-move-address={entry.address_id}>
      Move
    </Button>
  );
}

function StageColumn({ stage, entries, onMove }: { stage: PipelineStage; entries: readonly PipelineEntry[]; onMove: (entry: PipelineEntry) => void }) {
  const headingId = useId();
  return (
    <section className={styles.column} aria-labelledby={headingId}>
      <Container
        header={
          <Header variant="h3" headingTagOverride="h2" counter={`(${entries.length})`}>
            <span id={headingId}>{stageLabel(stage)}</span>
          </Header>
        }
      >
        {entries.length === 0 ? (
          <Box color="text-body-secondary" fontSize="body-s">
            No contacts
          </Box>
        ) : (
          <ul className={styles.cards} aria-label={`${stageLabel(stage)}: contacts`}>
            {entries.map((entry) => (
              <li key={entry.address_id} className={styles.card}>
                <SpaceBetween size="xs">
                  <div>
                    <Box fontWeight="bold">{entry.name}</Box>
                    <Box variant="small" color="text-body-secondary">
                      {entry.email}
                    </Box>
                    {companyLine(entry) && (
                      <Box variant="small" color="text-body-secondary" display="block">
                        {companyLine(entry)}
                      </Box>
                    )}
                  </div>
                  <AnswerSummary entry={entry} />
                  <StageSummary entry={entry} showStage={false} />
                  <MoveButton entry={entry} onMove={onMove} />
                </SpaceBetween>
              </li>
            ))}
          </ul>
        )}
      </Container>
    </section>
  );
}

/**
 * The board (issue 28 §1): a column per stage, Queued to Passed, a card per contact with its answer, the
 * artist's mark beside the stage the events give, and 'Move'. Every card's Move is a button in reading
 * order, so the whole board is worked by Tab and Enter.
 */
export const PipelineBoardView = memo(function PipelineBoardView({
  entries,
  onMove,
}: {
  entries: readonly PipelineEntry[];
  onMove: (entry: PipelineEntry) => void;
}) {
  const columns = useMemo(() => entriesByStage(entries), [entries]);
  return (
    <div className={styles.board} data-testid="pipeline-board">
      {[...columns].map(([stage, inStage]) => (
        <StageColumn key={stage} stage={stage} entries={inStage} onMove={onMove} />
      ))}
    </div>
  );
});

/** The same contacts as a table (for screen readers and the keyboard): one row each, the dates of what happened. */
export const PipelineTableView = memo(function PipelineTableView({
  entries,
  onMove,
}: {
  entries: readonly PipelineEntry[];
  onMove: (entry: PipelineEntry) => void;
}) {
  const follow = useFollow();
  const sorted = useMemo(() => [...entries].sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email)), [entries]);
  const columnDefinitions: TableProps.ColumnDefinition<PipelineEntry>[] = [
    {
      id: 'contact',
      header: 'Contact',
      isRowHeader: true,
      cell: (entry) => (
        <div>
          <Box fontWeight="bold">{entry.name}</Box>
          <Box variant="small" color="text-body-secondary">
            {entry.email}
          </Box>
        </div>
      ),
    },
    { id: 'company', header: 'Company', cell: (entry) => entry.company ?? '—' },
    { id: 'label_size', header: 'Label size', cell: (entry) => labelSizeLabel(labelSizeKeyOf(entry)) },
    { id: 'stage', header: 'Stage', cell: (entry) => <StageSummary entry={entry} /> },
    { id: 'answer', header: 'Answer', cell: (entry) => (entry.answer ? <AnswerSummary entry={entry} /> : '—') },
    { id: 'pitched', header: 'Pitched', cell: (entry) => formatDateTime(entry.pitched_at) },
    { id: 'opened', header: 'Opened', cell: (entry) => formatDateTime(entry.opened_at) },
    { id: 'listened', header: 'Listened', cell: (entry) => formatDateTime(entry.listened_at) },
    { id: 'answered', header: 'Answered', cell: (entry) => formatDateTime(entry.answered_at) },
    {
      id: 'campaign',
      header: 'Campaign',
      cell: (entry) => (
        <Link href={campaignPath(entry.campaign_id)} onFollow={follow} ariaLabel={`View the campaign that pitched ${entry.name}`}>
          View
        </Link>
      ),
    },
    { id: 'actions', header: 'Actions', cell: (entry) => <MoveButton entry={entry} onMove={onMove} /> },
  ];
  return (
    <Table
      ariaLabels={{ tableLabel: 'Contacts pitched with this track' }}
      columnDefinitions={columnDefinitions}
      items={sorted}
      trackBy="address_id"
      wrapLines
      stickyColumns={{ first: 1 }}
      variant="container"
      empty={<Box color="text-body-secondary">No contact matches these filters.</Box>}
    />
  );
});
