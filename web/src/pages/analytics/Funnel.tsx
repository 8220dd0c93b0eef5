import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { Analytics } from '../../../../schema/api/insights';
import type { ReactNode } from 'react';
import styles from './analytics.module.css';
import { funnelOf } from './analyticsView';

/**
 * The period's funnel sent → opened → clicked → unsubscribed, each stage a progress bar of its percent
 * of the emails sent, with the count in words beside it (the bars are a picture of the words, so no
 * table alternative is needed). Opened counts people only.
 */
export function Funnel({ analytics, locked }: { analytics: Analytics; locked?: ReactNode }) {
  const sent = analytics.totals.emails_sent.toLocaleString('en-US');
  return (
    <Container
      header={
        <Header
          variant="h2"
          description="Opens, clicks and unsubscribes by people in this period, as a share of the emails sent in it (at most 100 %: some may be of emails sent before). Machine opens are not counted."
        >
          Funnel
        </Header>
      }
    >
      <SpaceBetween size="m">
        <ol aria-label="Funnel" data-testid="analytics-funnel" className={styles.stages}>
          {funnelOf(analytics.totals).map((stage) => (
            <li key={stage.label} data-testid={`funnel-${stage.label.toLowerCase()}`}>
              <ProgressBar
                label={stage.label}
                value={stage.percent}
                additionalInfo={`${stage.count.toLocaleString('en-US')} of ${sent} sent`}
                ariaLabel={`${stage.label}: ${stage.count.toLocaleString('en-US')} of ${sent} sent, ${stage.percent}%`}
              />
            </li>
          ))}
        </ol>
        {locked}
      </SpaceBetween>
    </Container>
  );
}
