import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import type { CSSProperties, ReactNode } from 'react';
import styles from './StatCard.module.css';

/**
 * A figure on a card: its label, the value large, and an optional line under it. A named group, so a
 * screen reader (and a test) finds each figure by its label. While `loading`, a spinner stands in for
 * the value and the description line keeps its height, so the cards do not move when the figures come.
 */
export function StatCard({
  label,
  info,
  description,
  loading = false,
  children,
}: {
  label: string;
  /** Beside the label, e.g. a help popover's trigger. */
  info?: ReactNode;
  description?: ReactNode;
  loading?: boolean;
  children: ReactNode;
}) {
  return (
    <div role="group" aria-label={label} aria-busy={loading || undefined} className={styles.card}>
      <Container fitHeight>
        <SpaceBetween size="xxs">
          <Box variant="awsui-key-label">
            {label}
            {info && <> {info}</>}
          </Box>
          <Box variant="awsui-value-large" tagOverride="div">
            {loading ? <Spinner size="large" /> : children}
          </Box>
          {description !== undefined && (
            <Box variant="small" color="text-body-secondary" display="block">
              {loading ? '\u00a0' : description}
            </Box>
          )}
        </SpaceBetween>
      </Container>
    </div>
  );
}

/** Stat cards in a grid that fits as many to a row as the width allows (`minWidth` each), at most `maxColumns`. */
export function StatGrid({ minWidth, maxColumns, children }: { minWidth: number; maxColumns?: number; children: ReactNode }) {
  const style = { '--stat-min': `${minWidth}px`, ...(maxColumns !== undefined && { '--stat-columns': maxColumns }) };
  return (
    <div className={styles.grid} style={style as CSSProperties}>
      {children}
    </div>
  );
}
