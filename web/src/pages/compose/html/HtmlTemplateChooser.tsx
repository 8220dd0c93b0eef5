import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Tiles, { type TilesProps } from '@cloudscape-design/components/tiles';
import { forwardRef, type ReactNode } from 'react';
import { darkenAccent, htmlTemplateInfo, htmlTemplateKinds, type HtmlTemplateKind } from '../../../../../schema/email/htmlTemplates';
import styles from './html.module.css';

/** A tiny sketch of each layout in its default accent, so the names have a picture (decorative). */
function Thumbnail({ kind }: { kind: HtmlTemplateKind }): ReactNode {
  const accent = htmlTemplateInfo[kind].accent;
  const lines = (
    <>
      <div className={styles.thumbLine} />
      <div className={`${styles.thumbLine} ${styles.thumbShort}`} />
    </>
  );
  switch (kind) {
    case 'minimal':
      return (
        <div className={styles.thumb} aria-hidden="true">
          <div className={styles.thumbRule} style={{ background: accent }} />
          {lines}
          <div className={styles.thumbButton} style={{ background: accent }} />
        </div>
      );
    case 'bold':
      return (
        <div className={styles.thumb} aria-hidden="true">
          <div className={styles.thumbBand} style={{ background: `linear-gradient(135deg, ${accent}, ${darkenAccent(accent)})` }} />
          {lines}
          <div className={styles.thumbButton} style={{ background: accent }} />
        </div>
      );
    case 'professional':
      return (
        <div className={styles.thumb} aria-hidden="true">
          <div className={styles.thumbBand} style={{ background: accent, borderRadius: 0 }} />
          {lines}
          <div className={styles.thumbLine} />
        </div>
      );
    case 'custom':
      return (
        <div className={`${styles.thumb} ${styles.thumbCode}`} aria-hidden="true">
          {'<table>\n  <td>…</td>\n</table>'}
        </div>
      );
  }
}

const tiles: TilesProps.TilesDefinition[] = htmlTemplateKinds.map((kind) => ({
  value: kind,
  label: htmlTemplateInfo[kind].name,
  description: htmlTemplateInfo[kind].blurb,
  image: <Thumbnail kind={kind} />,
}));

/**
 * The HTML template chooser (spec §2): Minimal, Bold, Professional and Custom HTML as radio tiles, so
 * arrow keys move between them and the choice is announced.
 */
export const HtmlTemplateChooser = forwardRef<TilesProps.Ref, { value: HtmlTemplateKind; onChange: (kind: HtmlTemplateKind) => void; disabled?: boolean }>(
  function HtmlTemplateChooser({ value, onChange, disabled = false }, ref) {
    return (
      <Container
        header={
          <Header variant="h2" description="Start from a designed email and set its subject and accent colour, or write your own HTML.">
            HTML Template
          </Header>
        }
      >
        <Tiles
          ref={ref}
          ariaLabel="HTML email template"
          value={value}
          items={disabled ? tiles.map((tile) => ({ ...tile, disabled: true })) : tiles}
          onChange={({ detail }) => onChange(detail.value as HtmlTemplateKind)}
        />
      </Container>
    );
  },
);
