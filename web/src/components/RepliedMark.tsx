import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useState } from 'react';
import { errorMessage } from '../api/client';
import { setEmailReplied } from '../api/sending';
import { useAuth } from '../auth/AuthContext';

export const repliedLabels = {
  mark: 'Mark as replied',
  replied: 'Replied',
  undo: 'Undo replied',
} as const;

/**
 * The artist's "Replied" mark on one sent email (issue 27 §1: gmail.send cannot read replies, so the
 * artist says so), the same on the campaign page and the contact's card: "Mark as replied", or when
 * marked the "Replied" status and "Undo replied". `onChange` gets the stored mark (its time, or null).
 */
export function RepliedMark({
  campaignId,
  position,
  repliedAt,
  onChange,
}: {
  campaignId: string;
  position: number;
  repliedAt: string | null;
  onChange: (repliedAt: string | null) => void;
}) {
  const { api } = useAuth();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const change = (replied: boolean) => {
    setSaving(true);
    setError(null);
    setEmailReplied(api, campaignId, position, replied).then(
      (email) => {
        setSaving(false);
        onChange(email.replied_at);
      },
      (caught: unknown) => {
        setSaving(false);
        setError(errorMessage(caught, 'Could not save the mark. Please try again.'));
      },
    );
  };

  return (
    <SpaceBetween direction="horizontal" size="xs" alignItems="center">
      {repliedAt ? (
        <>
          <StatusIndicator type="success">{repliedLabels.replied}</StatusIndicator>
          <Button variant="inline-link" loading={saving} onClick={() => change(false)}>
            {repliedLabels.undo}
          </Button>
        </>
      ) : (
        <Button variant="normal" loading={saving} onClick={() => change(true)}>
          {repliedLabels.mark}
        </Button>
      )}
      {error && (
        <Box variant="small" color="text-status-error">
          <span role="alert">{error}</span>
        </Box>
      )}
    </SpaceBetween>
  );
}
