import { AA_TEXT_CONTRAST, contrastRatio, usableBrandColor } from './brand';
import { formatTimeLeft, maskName } from './format';
import { escapeHtml, markup } from './html';
import { negotiateLanguage } from './i18n';

describe('negotiateLanguage', () => {
  it('is Portuguese unless the browser prefers English to it', () => {
    expect(negotiateLanguage(undefined)).toBe('pt-BR');
    expect(negotiateLanguage('')).toBe('pt-BR');
    expect(negotiateLanguage('fr-FR, de;q=0.8')).toBe('pt-BR');
    expect(negotiateLanguage('pt-BR,pt;q=0.9,en;q=0.8')).toBe('pt-BR');
    expect(negotiateLanguage('en-US,en;q=0.9')).toBe('en');
    expect(negotiateLanguage('fr, en;q=0.5')).toBe('en');
    expect(negotiateLanguage('en;q=0.5, pt;q=0.8')).toBe('pt-BR');
    expect(negotiateLanguage('en, pt')).toBe('en');
    expect(negotiateLanguage('pt, en')).toBe('pt-BR');
    expect(negotiateLanguage('en;q=0, pt;q=0.1')).toBe('pt-BR');
    expect(negotiateLanguage('en;q=abc')).toBe('pt-BR');
    expect(negotiateLanguage(['en-GB', 'pt;q=0.1'])).toBe('en');
  });
});

describe('markup', () => {
  it('escapes every interpolated text, keeps nested markup, and leaves out nothing-values', () => {
    const name = `<img src=x onerror="alert('1')">&`;
    expect(markup`<p title="${name}">${name}</p>`.text).toBe(`<p title="${escapeHtml(name)}">&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;</p>`);
    expect(markup`<ul>${['a<', 'b'].map((item) => markup`<li>${item}</li>`)}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>a&lt;</li><li>b</li></ul>0');
  });
});

describe('maskName', () => {
  it("shows the first name and the last name's initial only", () => {
    expect(maskName('Ana Maria Souza')).toBe('Ana S.');
    expect(maskName('  joão   da silva ')).toBe('joão S.');
    expect(maskName('Cher')).toBe('Cher');
    expect(maskName('   ')).toBe('');
    expect(maskName('Ana Ébano')).toBe('Ana É.');
  });
});

describe('formatTimeLeft', () => {
  it('counts down in minutes and seconds, hours past the hour, and stops at zero', () => {
    expect(formatTimeLeft(59 * 60_000 + 7_900)).toBe('59:07');
    expect(formatTimeLeft(3_723_000)).toBe('1:02:03');
    expect(formatTimeLeft(-5_000)).toBe('0:00');
  });
});

describe('usableBrandColor', () => {
  it('takes a colour only where white text on it meets AA contrast', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(usableBrandColor('#7A2E0E')).toBe('#7a2e0e');
    expect(contrastRatio('#7a2e0e', '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
    expect(usableBrandColor('#ffcc00')).toBeNull();
    expect(usableBrandColor('#777777')).toBeNull();
    expect(usableBrandColor('red')).toBeNull();
    expect(usableBrandColor('#12345')).toBeNull();
    expect(usableBrandColor('#0b5a4a;}body{display:none')).toBeNull();
    expect(usableBrandColor(null)).toBeNull();
  });
});
