import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import { accentPresets, normaliseAccent } from '../../../../../schema/email/htmlTemplates';
import styles from './html.module.css';

/** The accent colour as chosen: the colour in use (#rrggbb) and the text in the hex box. */
export interface AccentChoice {
  colour: string;
  text: string;
}

export const accentTextError = 'Enter a colour as #rgb or #rrggbb, for example #6366f1.';

/** True when the hex box holds something that is not a colour (the colour in use is then the last good one). */
export function accentTextInvalid(choice: AccentChoice): boolean {
  return normaliseAccent(choice.text) === null;
}

/**
 * 'Accent Color' (spec §2, presets of §9): the browser's colour picker, a hex text box and six preset
 * swatches, all kept in step. Text that is not a colour does not change the colour; it shows an error
 * once the box is left (or when the form is submitted), not while the artist is still typing.
 */
export function AccentColorField({
  choice,
  onChange,
  showTextError,
  onTextBlur,
  disabled = false,
}: {
  choice: AccentChoice;
  onChange: (choice: AccentChoice) => void;
  showTextError: boolean;
  onTextBlur: () => void;
  disabled?: boolean;
}) {
  const pick = (colour: string) => onChange({ colour, text: colour });
  const error = showTextError && accentTextInvalid(choice) ? accentTextError : undefined;
  return (
    <FormField label="Accent Color" description="Used for the header, links and the listen button." errorText={error} stretch>
      <div className={styles.accentRow}>
        <input
          type="color"
          className={styles.colorInput}
          aria-label="Pick accent colour"
          value={choice.colour}
          disabled={disabled}
          onChange={(event) => {
            const colour = normaliseAccent(event.target.value);
            if (colour) pick(colour);
          }}
        />
        <div className={styles.hexInput}>
          <Input
            value={choice.text}
            disabled={disabled}
            invalid={error !== undefined}
            spellcheck={false}
            autoComplete={false}
            placeholder="#6366f1"
            onChange={({ detail }) => {
              const colour = normaliseAccent(detail.value);
              onChange({ colour: colour ?? choice.colour, text: detail.value });
            }}
            onBlur={onTextBlur}
          />
        </div>
        <div className={styles.presets} role="group" aria-label="Preset accent colours">
          {accentPresets.map((preset) => {
            const pressed = choice.colour === preset;
            return (
              <button
                key={preset}
                type="button"
                className={styles.preset}
                style={{ background: preset }}
                aria-label={`Use accent colour ${preset}`}
                aria-pressed={pressed}
                title={preset}
                disabled={disabled}
                onClick={() => pick(preset)}
              >
                {pressed ? (
                  <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
                    <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                ) : null}
              </button>
            );
          })}
        </div>
      </div>
    </FormField>
  );
}
