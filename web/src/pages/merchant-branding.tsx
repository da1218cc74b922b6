import { Button } from '../ui';

/** `#RRGGBB`, as the API takes a brand colour (it stores it in lower case). */
export const BRAND_COLOR = /^#[0-9a-f]{6}$/i;

/** The least contrast WCAG AA asks of body text (success criterion 1.4.3): the checkout pages draw text in the brand colour on white. */
export const MIN_CONTRAST = 4.5;

/** What the colour picker shows while no colour is set: the dashboard's own accent. */
const UNSET_PICKER = '#0f766e';

/** A channel of an sRGB colour, 0–255, as WCAG 2's relative luminance counts it (linearised). */
function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** The contrast ratio of `#rrggbb` against white (1 to 21), by WCAG 2's formula. */
export function contrastOnWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => linear(parseInt(hex.slice(i, i + 2), 16))) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05);
}

/** "4.5:1", rounded down, so a colour just short of 4.5 never reads as enough. */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}

/**
 * The brand colour: a colour picker and its hex text, kept in step (the text is what is saved; empty
 * is no colour). A valid colour is previewed as the checkout page uses it, with its contrast on
 * white, and a warning when that is below 4.5:1.
 */
export function BrandColorInput({
  id,
  value,
  error,
  sample,
  onChange,
}: {
  id: string;
  value: string;
  error?: string;
  /** The name the preview shows (the display name, or the name). */
  sample: string;
  onChange: (value: string) => void;
}) {
  const colour = value.trim();
  const valid = BRAND_COLOR.test(colour);
  const ratio = valid ? contrastOnWhite(colour) : undefined;
  const described = [error ? `${id}-error` : `${id}-hint`, ratio !== undefined && ratio < MIN_CONTRAST ? `${id}-contrast` : ''].filter(Boolean).join(' ');
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>Brand colour</label>
      <div className="color-row">
        <input
          type="color"
          className="color-picker"
          aria-label="Pick the brand colour"
          value={valid ? colour.toLowerCase() : UNSET_PICKER}
          onChange={(event) => onChange(event.target.value)}
        />
        <input
          id={id}
          className="mono color-text"
          value={value}
          placeholder="#RRGGBB"
          maxLength={7}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={!!error}
          aria-describedby={described}
          onChange={(event) => onChange(event.target.value)}
        />
        {value && (
          <Button kind="ghost" onClick={() => onChange('')}>
            Clear
          </Button>
        )}
      </div>
      {error ? (
        <div className="field-error" id={`${id}-error`}>
          {error}
        </div>
      ) : (
        <div className="field-hint" id={`${id}-hint`}>
          The checkout pages&apos; headings and buttons. Empty: the gateway&apos;s own colour.
        </div>
      )}
      {ratio !== undefined && (
        <div className="color-preview" data-testid="brand-preview">
          <span className="color-sample-text" style={{ color: colour }}>
            {sample}
          </span>
          <span className="color-sample-button" style={{ background: colour }} aria-hidden="true">
            Copiar código
          </span>
          <span className="muted small">Contrast on white {formatRatio(ratio)}</span>
        </div>
      )}
      {ratio !== undefined && ratio < MIN_CONTRAST && (
        <div className="notice notice-warning color-warning" role="status" id={`${id}-contrast`}>
          <div className="notice-body">
            This colour has a contrast of {formatRatio(ratio)} on white, below the {MIN_CONTRAST}:1 that text needs (WCAG AA). The checkout page draws text in it, so payers may not
            be able to read it: pick a darker colour.
          </div>
        </div>
      )}
    </div>
  );
}
