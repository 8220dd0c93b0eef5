import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { listenAnswerLabels } from '../../../../schema/api/listenValues';
import type { PipelineEntry } from '../../../../schema/api/pipeline';
import styles from './tracks.module.css';
import { derivedText, markText, stageColors, stageLabel } from './pipelineView';

/** A contact's stage as the board and the table show it: the stage, and an artist's mark beside the stage the events give. */
export function StageSummary({ entry, showStage = true }: { entry: PipelineEntry; showStage?: boolean }) {
  const marked = markText(entry);
  return (
    <SpaceBetween size="xxs">
      {showStage && (
        <div>
          <Badge color={stageColors[entry.stage]}>{stageLabel(entry.stage)}</Badge>
        </div>
      )}
      {marked && (
        <Box variant="small">
          {marked}
          <Box variant="span" color="text-body-secondary" fontSize="body-s">
            {` · ${derivedText(entry)}`}
          </Box>
        </Box>
      )}
      {entry.mark?.note && (
        <Box variant="small" color="text-body-secondary">
          <span className={styles.note}>{entry.mark.note}</span>
        </Box>
      )}
    </SpaceBetween>
  );
}

/** 'Answer: Interested', with the recipient's note under it; nothing before an answer. */
export function AnswerSummary({ entry }: { entry: PipelineEntry }) {
  if (!entry.answer) return null;
  return (
    <SpaceBetween size="xxs">
      <Box variant="small">{`Answer: ${listenAnswerLabels[entry.answer]}`}</Box>
      {entry.answer_note && (
        <Box variant="small" color="text-body-secondary">
          <span className={styles.note}>{`“${entry.answer_note}”`}</span>
        </Box>
      )}
    </SpaceBetween>
  );
}
