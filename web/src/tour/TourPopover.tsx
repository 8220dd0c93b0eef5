import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { desktopTourSteps, phoneTourSteps } from './steps';
import styles from './tour.module.css';
import { placeTourPanel, TOUR_ANCHOR_DELAY_MS, TOUR_ANCHOR_RECHECK_MS, TOUR_HIGHLIGHT_MS } from './tourRules';

export type TourEnd = 'skip' | 'complete';

/** The first element matching `selector` that is on screen, else the first match (jsdom lays nothing out). */
function findAnchor(selector: string): HTMLElement | null {
  const matches = [...document.querySelectorAll<HTMLElement>(selector)];
  return matches.find((element) => element.getClientRects().length > 0) ?? matches[0] ?? null;
}

/**
 * The tour's panel, in its own chunk: a small non-modal dialog beside the step's anchor, which it marks
 * (data-tour-anchor) and outlines (data-tour-highlight, for 3 s). Nothing covers the rest of the page,
 * and it leaves nothing behind when it closes. Focus moves into it and returns where it was.
 */
export default function TourPopover({
  phone,
  step,
  onStep,
  onEnd,
}: {
  /** The phone's steps, with the panel along the bottom edge instead of beside the anchor. */
  phone: boolean;
  step: number;
  onStep: (step: number) => void;
  onEnd: (how: TourEnd) => void;
}) {
  const steps = phone ? phoneTourSteps : desktopTourSteps;
  const docked = phone;
  const current = steps[step] ?? steps[0];
  const last = step === steps.length - 1;
  const panelRef = useRef<HTMLDivElement>(null);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [place, setPlace] = useState<{ top: number; left: number } | null>(null);
  const titleId = useId();
  const bodyId = useId();

  // Focus comes in when the tour opens and goes back where it was when it closes.
  useEffect(() => {
    const before = document.activeElement;
    return () => {
      if (before instanceof HTMLElement && before !== document.body && before.isConnected) before.focus();
    };
  }, []);

  // Each step: focus the panel (so its title and text are read), then mark and outline the anchor. The
  // anchor is looked for again while it is missing or was replaced: on a busy device the page's own
  // chunk can arrive after the delay, or re-render its heading, and the mark would be lost with it.
  useEffect(() => {
    panelRef.current?.focus();
    let found: HTMLElement | null = null;
    // The outline shows for TOUR_HIGHLIGHT_MS from the first mark, on whichever element is the anchor then.
    let outline: 'before' | 'on' | 'done' = 'before';
    let highlightTimer: ReturnType<typeof setTimeout> | undefined;
    let recheckTimer: ReturnType<typeof setTimeout> | undefined;
    const mark = () => {
      if (found?.isConnected) return;
      found = findAnchor(current.anchor);
      if (!found) return;
      found.setAttribute('data-tour-anchor', current.id);
      if (outline === 'before') {
        outline = 'on';
        highlightTimer = setTimeout(() => {
          outline = 'done';
          found?.removeAttribute('data-tour-highlight');
        }, TOUR_HIGHLIGHT_MS);
      }
      if (outline === 'on') found.setAttribute('data-tour-highlight', '');
      // jsdom has no scrollIntoView.
      if ('scrollIntoView' in found) found.scrollIntoView({ block: 'nearest' });
      setAnchor(found);
    };
    const watch = () => {
      mark();
      recheckTimer = setTimeout(watch, TOUR_ANCHOR_RECHECK_MS);
    };
    const anchorTimer = setTimeout(watch, TOUR_ANCHOR_DELAY_MS);
    return () => {
      clearTimeout(anchorTimer);
      clearTimeout(recheckTimer);
      clearTimeout(highlightTimer);
      found?.removeAttribute('data-tour-anchor');
      found?.removeAttribute('data-tour-highlight');
      setAnchor(null);
    };
  }, [current]);

  // Beside the anchor, kept there as the page scrolls or the window resizes.
  useLayoutEffect(() => {
    if (docked) return;
    const measure = () => {
      const panel = panelRef.current;
      if (!panel) return;
      const rect = anchor?.getBoundingClientRect();
      setPlace(
        placeTourPanel(
          rect ? { top: rect.top, left: rect.left, width: rect.width, height: rect.height } : null,
          { width: panel.offsetWidth, height: panel.offsetHeight },
          { width: window.innerWidth, height: window.innerHeight },
        ),
      );
    };
    measure();
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, true);
    return () => {
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, true);
    };
  }, [anchor, docked, step]);

  const next = () => (last ? onEnd('complete') : onStep(step + 1));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onEnd('skip');
    } else if (event.key === 'Enter' && event.target === event.currentTarget) {
      // Enter on the panel itself advances; on a button it presses that button.
      event.preventDefault();
      next();
    }
  };

  return (
    <div
      ref={panelRef}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      tabIndex={-1}
      className={`${styles.panel} ${docked ? styles.docked : place ? '' : styles.corner}`}
      style={docked || !place ? undefined : place}
      data-tour-step={current.id}
      onKeyDown={onKeyDown}
    >
      <Container
        header={
          <Header variant="h2" description={`Step ${step + 1} of ${steps.length}`}>
            <span id={titleId}>{current.title}</span>
          </Header>
        }
        footer={
          <Box float="right">
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              <Button variant="link" onClick={() => onEnd('skip')}>
                Skip tour
              </Button>
              {step > 0 && <Button onClick={() => onStep(step - 1)}>Back</Button>}
              <Button variant="primary" onClick={next}>
                {last ? 'Finish' : 'Next'}
              </Button>
            </SpaceBetween>
          </Box>
        }
      >
        <div id={bodyId}>
          <Box variant="p">{current.body}</Box>
        </div>
      </Container>
    </div>
  );
}
