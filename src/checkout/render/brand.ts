/** WCAG AA's contrast for normal text (success criterion 1.4.3). */
export const AA_TEXT_CONTRAST = 4.5;

/** The relative luminance of an sRGB `#rrggbb` colour (WCAG 2's definition). */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const HEX_COLOR = /^#[0-9a-f]{6}$/;

/**
 * The merchant's colour as the pages may use it: behind white text (the band at the top and the
 * buttons), so only a colour white text reads on at AA contrast; any other (too light), or none,
 * leaves the gateway's own. Lower case, `#rrggbb`.
 */
export function usableBrandColor(color: string | null | undefined): string | null {
  const hex = color?.trim().toLowerCase();
  if (!hex || !HEX_COLOR.test(hex)) return null;
  return contrastRatio(hex, '#ffffff') >= AA_TEXT_CONTRAST ? hex : null;
}
