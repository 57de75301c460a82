// The printable certificate: one landscape A4 page drawn with pdfkit.
import fs from 'node:fs';
import type { Certificate } from '../../contract/exams.js';
import { dateIn } from '../clock-format.js';

/** Fonts with CJK glyphs commonly present on Windows, macOS and Linux desktops ([file, font name inside a collection]). */
const UNICODE_FONTS: [string, string?][] = [
  ['C:\\Windows\\Fonts\\simhei.ttf'],
  ['C:\\Windows\\Fonts\\msyh.ttc', 'MicrosoftYaHei'],
  ['/System/Library/Fonts/Supplemental/Arial Unicode.ttf'],
  ['/Library/Fonts/Arial Unicode.ttf'],
  ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', 'NotoSansCJKsc-Regular'],
  ['/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'],
  ['/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', 'WenQuanYiMicroHei'],
];

let unicodeFont: [string, string?] | null | undefined;
const findUnicodeFont = (): [string, string?] | null => (unicodeFont ??= UNICODE_FONTS.find(([file]) => fs.existsSync(file)) ?? null);

/** Text beyond Latin-1 needs a Unicode font; without one such characters are replaced rather than drawn as garbage. */
const latin1 = (text: string) => text.replace(/[^\x20-\xff]/g, '?');

function fontsFor(doc: PDFKit.PDFDocument, texts: string[]): { regular: string; bold: string; clean: (t: string) => string } {
  const needsUnicode = texts.some((t) => /[^\x20-\xff]/.test(t));
  const font = needsUnicode ? findUnicodeFont() : null;
  if (!font) return { regular: 'Helvetica', bold: 'Helvetica-Bold', clean: latin1 };
  doc.registerFont('unicode', font[0], font[1]);
  return { regular: 'unicode', bold: 'unicode', clean: (t) => t };
}

const formatScore = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** The PDF of a certificate; its date is the issue day in the firm's time zone (the `timezone` setting). */
export async function renderCertificatePdf(cert: Certificate, timeZone: string): Promise<Buffer> {
  // pdfkit is loaded on the first certificate, not at start-up.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 0, info: { Title: `Certificate ${cert.certificate_no}`, Author: 'Trainbench' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const { width, height } = doc.page;
  const chinese = findUnicodeFont() !== null;
  const { regular, bold, clean } = fontsFor(doc, [cert.full_name, cert.exam_name, ...(chinese ? ['结业证书'] : [])]);
  const line = (text: string, y: number, font: string, size: number, color = '#1f2937') =>
    doc.font(font).fontSize(size).fillColor(color).text(clean(text), 60, y, { width: width - 120, align: 'center' });
  // Chinese first with English beneath where a CJK font is installed; English alone where none is.
  const both = (zh: string, en: string) => (chinese ? `${zh}  ${en}` : en);
  const score = formatScore(cert.score);
  const date = dateIn(cert.issued_at, timeZone);

  doc.rect(24, 24, width - 48, height - 48).lineWidth(3).stroke('#1d4ed8');
  doc.rect(34, 34, width - 68, height - 68).lineWidth(1).stroke('#93c5fd');
  if (chinese) {
    line('结业证书', 90, bold, 34, '#1d4ed8');
    line('CERTIFICATE OF ACHIEVEMENT', 140, regular, 14, '#1d4ed8');
  } else line('CERTIFICATE OF ACHIEVEMENT', 110, bold, 30, '#1d4ed8');
  line(both('兹证明', 'This certifies that'), 180, regular, 14, '#4b5563');
  line(cert.full_name, 210, bold, 28);
  line(both('已通过考试', 'has passed the examination'), 265, regular, 14, '#4b5563');
  line(cert.exam_name, 292, bold, 22);
  if (chinese) line(`成绩 ${score} / ${cert.total_score} 分（及格分 ${cert.pass_score}）`, 340, regular, 14);
  line(`with a score of ${score} out of ${cert.total_score} (pass mark ${cert.pass_score})`, chinese ? 362 : 340, regular, chinese ? 12 : 14, chinese ? '#4b5563' : '#1f2937');
  line(chinese ? `颁发日期 ${date} · 证书编号 Certificate no. ${cert.certificate_no}` : `Issued ${date} - Certificate no. ${cert.certificate_no}`, height - 120, regular, 11, '#6b7280');
  line(chinese ? 'Trainbench 培训台' : 'Trainbench training platform', height - 100, regular, 11, '#6b7280');
  doc.end();
  return done;
}
