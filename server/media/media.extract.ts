// Plain text out of a document, one maintained library per format. Reports progress as a fraction (0 to 1).
// The libraries are imported on first use: they weigh tens of MB that a server which never extracts should not carry.
import fs from 'node:fs/promises';

export type OnProgress = (fraction: number) => Promise<void>;
type Extractor = (filePath: string, onProgress: OnProgress) => Promise<string>;

const readUtf8 = async (filePath: string): Promise<string> => (await fs.readFile(filePath, 'utf8')).replace(/^\uFEFF/, '');

async function pdfText(filePath: string, onProgress: OnProgress): Promise<string> {
  const { getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(await fs.readFile(filePath)), { verbosity: 0 });
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''));
      await onProgress(n / pdf.numPages);
    }
    return pages.join('\n\n');
  } finally {
    await pdf.destroy();
  }
}

async function xlsxText(filePath: string, onProgress: OnProgress): Promise<string> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(filePath);
  const sheets: string[] = [];
  for (const [i, sheet] of workbook.worksheets.entries()) {
    const lines = [`## ${sheet.name}`];
    sheet.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell((cell) => cells.push(cell.text.trim()));
      if (cells.some(Boolean)) lines.push(cells.join(' | '));
    });
    sheets.push(lines.join('\n'));
    await onProgress((i + 1) / workbook.worksheets.length);
  }
  return sheets.join('\n\n');
}

const extractors: Record<string, Extractor> = {
  pdf: pdfText,
  docx: async (filePath) => {
    const { default: mammoth } = await import('mammoth');
    return (await mammoth.extractRawText({ path: filePath })).value;
  },
  pptx: async (filePath, onProgress) => (await import('./pptx-text.js')).pptxText(filePath, onProgress),
  xlsx: xlsxText,
  txt: readUtf8,
  md: readUtf8,
  markdown: readUtf8,
  html: async (filePath) => {
    const { convert } = await import('html-to-text');
    const options = { wordwrap: false as const, selectors: [{ selector: 'img', format: 'skip' }, { selector: 'a', options: { ignoreHref: true } }] };
    return convert(await readUtf8(filePath), options);
  },
};
extractors.htm = extractors.html!;

export const hasExtractor = (ext: string): boolean => Object.hasOwn(extractors, ext);

/** The document's text; throws with the library's message when the file cannot be read as that format. */
export async function extractText(filePath: string, ext: string, onProgress: OnProgress): Promise<string> {
  const extractor = extractors[ext];
  if (!extractor) throw new Error(`No text extractor for .${ext} files`);
  const text = await extractor(filePath, onProgress);
  await onProgress(1);
  return text;
}
