// Text of a PowerPoint deck: a .pptx is a zip of XML parts, one per slide (ppt/slides/slideN.xml), whose text runs
// are <a:t> elements grouped in <a:p> paragraphs. jszip opens the package, fast-xml-parser reads each slide; both
// are loaded on the first deck (some 80 ms of module loading that a server start need not pay).
import fs from 'node:fs/promises';
import type { XMLParser } from 'fast-xml-parser';

type OrderedNode = Record<string, unknown> & { ':@'?: unknown };

let libraries: Promise<{ JSZip: typeof import('jszip'); parser: XMLParser }> | undefined;
const loadLibraries = () =>
  (libraries ??= Promise.all([import('jszip'), import('fast-xml-parser')]).then(([jszip, xml]) => ({
    JSZip: jszip.default,
    parser: new xml.XMLParser({ preserveOrder: true, ignoreAttributes: true, trimValues: false, parseTagValue: false }),
  })));

/** Walks the ordered XML tree: text of <a:t> runs, a line break after each <a:p> paragraph. */
function collect(nodes: OrderedNode[], out: string[]): void {
  for (const node of nodes) {
    for (const [tag, children] of Object.entries(node)) {
      if (tag === ':@' || !Array.isArray(children)) continue;
      if (tag === 'a:t') {
        for (const child of children as OrderedNode[]) if (typeof child['#text'] === 'string') out.push(child['#text']);
      } else {
        collect(children as OrderedNode[], out);
        if (tag === 'a:p') out.push('\n');
      }
    }
  }
}

const slideNumber = (name: string) => Number(/slide(\d+)\.xml$/.exec(name)?.[1] ?? 0);

export async function pptxText(filePath: string, onProgress: (fraction: number) => Promise<void>): Promise<string> {
  const { JSZip, parser } = await loadLibraries();
  const zip = await JSZip.loadAsync(await fs.readFile(filePath));
  const slides = Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => slideNumber(a) - slideNumber(b));
  if (!slides.length) throw new Error('The presentation has no slides');
  const texts: string[] = [];
  for (const [i, name] of slides.entries()) {
    const out: string[] = [];
    collect(parser.parse(await zip.file(name)!.async('string')) as OrderedNode[], out);
    texts.push(`## Slide ${i + 1}\n${out.join('').replace(/\n{2,}/g, '\n').trim()}`);
    await onProgress((i + 1) / slides.length);
  }
  return texts.join('\n\n');
}
