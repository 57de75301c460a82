// A PDF shown inside the page, one page at a time, drawn by pdf.js (the build unpdf ships, which needs no worker
// file). Loaded lazily (see MediaList / the certificate page): pdf.js is large and only pages with a PDF need it.
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { ErrorNotice, Loading } from './states';

type PDFDocumentProxy = Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>;

/** Widest a page is drawn, in CSS pixels. */
const MAX_WIDTH = 760;

async function openPdf(load: () => Promise<ArrayBuffer>): Promise<PDFDocumentProxy> {
  const [{ getDocumentProxy }, bytes] = await Promise.all([import('unpdf'), load()]);
  // No eval: the renderer's Content-Security-Policy forbids it (pdf.js would otherwise try and log the refusal).
  return getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false });
}

function PdfPage({ pdf, number, label }: { pdf: PDFDocumentProxy; number: number; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState<unknown>(null);
  useEffect(() => {
    let task: ReturnType<Awaited<ReturnType<PDFDocumentProxy['getPage']>>['render']> | undefined;
    let cancelled = false;
    void pdf.getPage(number).then((page) => {
      const target = canvas.current;
      if (cancelled || !target) return;
      const unscaled = page.getViewport({ scale: 1 });
      const ratio = window.devicePixelRatio || 1;
      const scale = Math.min(MAX_WIDTH, target.parentElement?.clientWidth || MAX_WIDTH) / unscaled.width;
      const viewport = page.getViewport({ scale: scale * ratio });
      target.width = Math.floor(viewport.width);
      target.height = Math.floor(viewport.height);
      target.style.width = `${Math.floor(viewport.width / ratio)}px`;
      task = page.render({ canvas: target, viewport });
      task.promise.then(
        () => target.setAttribute('data-rendered', String(number)),
        (err: unknown) => !cancelled && setFailed(err),
      );
    }, setFailed);
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, number]);
  if (failed) return <ErrorNotice error={failed} />;
  return <canvas ref={canvas} className="pdf-page" role="img" aria-label={label} />;
}

/** `id` names the document in the cache; `load` fetches its bytes. */
export default function PdfPreview({ id, title, load }: { id: string; title: string; load: () => Promise<ArrayBuffer> }) {
  const { t } = useTranslation();
  const [number, setNumber] = useState(1);
  const pdf = useQuery({ queryKey: ['pdf', id], queryFn: () => openPdf(load), staleTime: Infinity, gcTime: 60_000, retry: 1 });
  if (pdf.isError) return <ErrorNotice error={pdf.error} onRetry={() => void pdf.refetch()} />;
  if (!pdf.data) return <Loading />;
  const pages = pdf.data.numPages;
  return (
    <figure className="pdf-preview">
      <PdfPage pdf={pdf.data} number={number} label={t('media.pdf.page', { name: title, page: number, count: pages })} />
      <figcaption>
        <Flex justify="center" align="center" gap="small">
          <Button size="small" icon={<LeftOutlined aria-hidden />} disabled={number <= 1} onClick={() => setNumber(number - 1)} aria-label={t('media.pdf.previous')} />
          <Typography.Text>{t('media.pdf.pageOf', { page: number, count: pages })}</Typography.Text>
          <Button size="small" icon={<RightOutlined aria-hidden />} disabled={number >= pages} onClick={() => setNumber(number + 1)} aria-label={t('media.pdf.next')} />
        </Flex>
      </figcaption>
    </figure>
  );
}
