import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { BrandColorInput, contrastOnWhite, formatRatio } from './merchant-branding';

describe('contrastOnWhite', () => {
  it('is 21:1 for black, 1:1 for white, and WCAG’s figures between', () => {
    expect(contrastOnWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastOnWhite('#FFFFFF')).toBeCloseTo(1, 5);
    // #767676 is the lightest grey with 4.5:1 on white; #777777 falls just short.
    expect(contrastOnWhite('#767676')).toBeGreaterThanOrEqual(4.5);
    expect(contrastOnWhite('#777777')).toBeLessThan(4.5);
    expect(contrastOnWhite('#0f766e')).toBeCloseTo(5.47, 2);
  });

  it('rounds the ratio down, so that one just short never reads as enough', () => {
    expect(formatRatio(4.4999)).toBe('4.4:1');
    expect(formatRatio(21)).toBe('21.0:1');
  });
});

function Harness({ from = '' }: { from?: string }) {
  const [value, setValue] = useState(from);
  return (
    <>
      <BrandColorInput id="c" value={value} sample="Ana Doces" onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('BrandColorInput', () => {
  const text = () => screen.getByLabelText<HTMLInputElement>('Brand colour');
  const picker = () => screen.getByLabelText<HTMLInputElement>('Pick the brand colour');

  it('keeps the picker and the hex text in step, and clears to no colour', async () => {
    render(<Harness from="#0b6e4f" />);
    expect(picker().value).toBe('#0b6e4f');
    fireEvent.input(picker(), { target: { value: '#1d4ed8' } });
    expect(text().value).toBe('#1d4ed8');
    await userEvent.clear(text());
    await userEvent.type(text(), '#B42318');
    expect(picker().value).toBe('#b42318');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByTestId('value').textContent).toBe('');
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    expect(screen.queryByTestId('brand-preview')).toBeNull();
  });

  it('previews a readable colour with its contrast, and gives no warning', () => {
    render(<Harness from="#0f766e" />);
    expect(screen.getByTestId('brand-preview').textContent).toContain('Contrast on white 5.4:1');
    expect(screen.getByText('Ana Doces').style.color).toBe('rgb(15, 118, 110)');
    expect(screen.queryByText(/below the 4.5:1/)).toBeNull();
    expect(text().getAttribute('aria-describedby')).toBe('c-hint');
  });

  it('warns when the colour on white is below 4.5:1, and ties the warning to the field', async () => {
    render(<Harness from="#0f766e" />);
    await userEvent.clear(text());
    await userEvent.type(text(), '#f7c948');
    const warning = screen.getByText(/below the 4.5:1 that text needs/);
    expect(warning.textContent).toContain('contrast of 1.5:1 on white');
    expect(text().getAttribute('aria-describedby')).toBe('c-hint c-contrast');
  });

  it('shows neither preview nor warning while the text is not yet a colour', async () => {
    render(<Harness />);
    expect(picker().value).toBe('#0f766e');
    await userEvent.type(text(), '#f7c');
    expect(screen.queryByTestId('brand-preview')).toBeNull();
    expect(screen.queryByText(/below the 4.5:1/)).toBeNull();
  });

  it('shows the problem under the field instead of the hint', () => {
    render(<BrandColorInput id="c" value="teal" sample="Ana" error="Enter a colour as # and six hexadecimal digits (#0F766E), or leave it empty." onChange={() => undefined} />);
    expect(text().getAttribute('aria-invalid')).toBe('true');
    expect(text().getAttribute('aria-describedby')).toBe('c-error');
    expect(screen.queryByText(/headings and buttons/)).toBeNull();
  });
});
