import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useAuth } from '../auth/AuthContext';
import { tourSteps } from './steps';
import { TourContext } from './TourContext';
import { markTourCompleted, shouldAutoStartTour } from './tourRules';

/** A step-by-step walkthrough of the dashboard sections in an accessible modal dialog. */
export function TourProvider({ children }: { children: ReactNode }) {
  const { user, profile } = useAuth();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState(0);
  const autoChecked = useRef<string | null>(null);

  const start = useCallback(() => {
    setStep(0);
    setOpen(true);
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    if (user) markTourCompleted(user.userId);
  }, [user]);

  // Auto-start once per page session, for a profile created less than 24 hours ago.
  useEffect(() => {
    if (!user || !profile || autoChecked.current === user.userId) return;
    autoChecked.current = user.userId;
    if (shouldAutoStartTour({ userId: user.userId, profileCreatedAt: profile.created_at })) start();
  }, [user, profile, start]);

  const value = useMemo(() => ({ open, start }), [open, start]);
  const current = tourSteps[step] ?? tourSteps[0];
  const last = step === tourSteps.length - 1;

  return (
    <TourContext.Provider value={value}>
      {children}
      <Modal
        visible={open}
        onDismiss={close}
        closeAriaLabel="Close tour"
        header={current.title}
        footer={
          <Box float="right">
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              <Button variant="link" onClick={close}>
                Skip tour
              </Button>
              {step > 0 && <Button onClick={() => setStep(step - 1)}>Back</Button>}
              {last ? (
                <Button variant="primary" onClick={close}>
                  Finish
                </Button>
              ) : (
                <Button variant="primary" onClick={() => setStep(step + 1)}>
                  Next
                </Button>
              )}
            </SpaceBetween>
          </Box>
        }
      >
        <SpaceBetween size="s">
          <Box variant="small" color="text-body-secondary">
            Step {step + 1} of {tourSteps.length}
          </Box>
          <Box variant="p">{current.body}</Box>
        </SpaceBetween>
      </Modal>
    </TourContext.Provider>
  );
}
