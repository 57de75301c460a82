import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Modal, Typography } from 'antd';
import { api } from '../../api/client';
import type { MediaFile, MediaPreview } from '../../api/types';
import { MediaPlayer } from '../../components/MediaList';
import { ErrorNotice, Loading } from '../../components/states';
import { mediaKeys } from './queries';

/** Text the browser can show as it is; read whole up to this size. */
const TEXT = new Set(['txt', 'md', 'csv', 'json', 'log']);
const TEXT_LIMIT = 200_000;

/** Opens a media in any status (pending, before deciding) through the reviewer's own file link. */
export function ReviewPreviewButton({ media }: { media: MediaFile }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} aria-label={t('media.review.previewNamed', { name: media.filename })}>
        {t('media.review.preview')}
      </Button>
      {open && <ReviewPreviewDialog media={media} onClose={() => setOpen(false)} />}
    </>
  );
}

function ReviewPreviewDialog({ media, onClose }: { media: MediaFile; onClose(): void }) {
  const { t } = useTranslation();
  const preview = useQuery({
    queryKey: [...mediaKeys.all, 'review-preview', media.id],
    queryFn: ({ signal }) => api.get<MediaPreview>(`/media/audit/${media.id}/preview`, { signal }),
    // The link's token expires: a dialog opened again asks for a fresh one.
    gcTime: 0,
  });
  const data = preview.data;
  return (
    <Modal open title={t('media.review.previewTitle', { name: media.filename })} onCancel={onClose} footer={null} width={860} destroyOnHidden>
      {preview.isPending && <Loading />}
      {preview.error && <ErrorNotice error={preview.error} onRetry={() => void preview.refetch()} />}
      {data && (
        <>
          {TEXT.has(data.file_ext) ? <TextPreview url={data.preview_url} name={data.filename} /> : <MediaPlayer media={data} />}
          <Typography.Paragraph className="section-top">
            <Button href={data.preview_url} target="_blank" rel="noreferrer">
              {t('media.review.openInWindow')}
            </Button>
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}

function TextPreview({ url, name }: { url: string; name: string }) {
  const text = useQuery({
    queryKey: ['media-text', url],
    queryFn: async ({ signal }) => {
      const res = await fetch(url, { headers: { range: `bytes=0-${TEXT_LIMIT - 1}` }, signal });
      return new TextDecoder().decode(await res.arrayBuffer());
    },
    gcTime: 0,
  });
  if (text.isPending) return <Loading />;
  if (text.error) return <ErrorNotice error={text.error} />;
  return (
    <pre className="media-text-preview" aria-label={name} tabIndex={0}>
      {text.data}
    </pre>
  );
}
