import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { renderQrPngDataUrl } from './qr-png';

function decode(dataUrl: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace('data:image/png;base64,', ''), 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe('renderQrPngDataUrl', () => {
  const brCode =
    '00020126730014br.gov.bcb.pix0136a5f1c3e2-7b7d-4b0a-9a0e-3f1c2d4e5f600211Pedido 1234520400005303986540510.505802BR5919PIX GATEWAY SANDBOX6009SAO PAULO62290525abcdEFGH1234abcdEFGH1234a6304691D';

  it('renders a PNG that a QR reader decodes back to the BR Code', () => {
    const url = renderQrPngDataUrl(brCode);
    expect(url.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
    expect(decode(url)).toBe(brCode);
  });

  it('renders different codes to different images', () => {
    const other = brCode.replace('10.50', '10.51');
    expect(decode(renderQrPngDataUrl(other))).toBe(other);
    expect(renderQrPngDataUrl(other)).not.toBe(renderQrPngDataUrl(brCode));
  });
});
