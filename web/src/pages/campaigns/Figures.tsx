import Box from '@cloudscape-design/components/box';
import type { CSSProperties, ReactNode } from 'react';
import styles from './campaigns.module.css';

export interface Figure {
  label: string;
  value: ReactNode;
}

/**
 * Label-over-value pairs in a grid that fits as many to a row as the width allows: unlike KeyValuePairs
 * (one per row on a phone), the queue's five counts stay compact at 360 px. A description list.
 */
export function Figures({ items, large = false, minWidth = 96 }: { items: readonly Figure[]; large?: boolean; minWidth?: number }) {
  return (
    <dl className={styles.figures} style={{ '--figure-min': `${minWidth}px` } as CSSProperties}>
      {items.map(({ label, value }) => (
        <div key={label}>
          <dt>
            <Box variant="awsui-key-label" tagOverride="span">
              {label}
            </Box>
          </dt>
          <dd>
            {large ? (
              <Box fontSize="heading-l" fontWeight="bold" tagOverride="span">
                {value}
              </Box>
            ) : (
              <Box tagOverride="span">{value}</Box>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
