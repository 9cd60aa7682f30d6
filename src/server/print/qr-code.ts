/**
 * QR codes as SVG, drawn on the server by the `qrcode` package: black modules on white with the
 * standard quiet zone, so a phone reads them from a printed sheet or a screen alike.
 */
import QRCode from 'qrcode';

/** Middle error correction (15%): readable through a fold, a pin hole or a smudge on the wall. */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 4,
    color: { dark: '#000000', light: '#ffffff' },
  });
}
