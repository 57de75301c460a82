import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Tag, Typography } from 'antd';
import type { MediaSummary } from '../api/types';
import { EmptyState, Loading } from './states';
import { SimpleList } from './SimpleList';
import { errorFrom, networkError } from '../api/client';

const PdfPreview = lazy(() => import('./PdfPreview'));

const VIDEO = new Set(['mp4', 'webm', 'mov', 'm4v', 'ogv']);
const AUDIO = new Set(['mp3', 'wav', 'm4a', 'ogg', 'oga', 'opus', 'flac', 'aac']);
const IMAGE = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'bmp']);

/** The bytes of a media file (its preview URL carries its own token). */
async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const res = await fetch(url).catch(() => {
    throw networkError();
  });
  if (!res.ok) throw await errorFrom(res);
  return res.arrayBuffer();
}

/** Video and audio seek by HTTP Range requests, which the server answers for media files. Nothing for other kinds. */
export function MediaPlayer({ media }: { media: MediaSummary }) {
  const ext = media.file_ext.toLowerCase();
  if (VIDEO.has(ext)) return <video className="media-player" src={media.preview_url} controls preload="metadata" aria-label={media.filename} />;
  if (AUDIO.has(ext)) return <audio className="media-audio" src={media.preview_url} controls preload="metadata" aria-label={media.filename} />;
  if (IMAGE.has(ext)) return <img className="media-image" src={media.preview_url} alt={media.filename} loading="lazy" />;
  if (ext === 'pdf')
    return (
      <Suspense fallback={<Loading />}>
        <PdfPreview id={`media-${media.id}`} title={media.filename} load={() => fetchBytes(media.preview_url)} />
      </Suspense>
    );
  return null;
}

/** Approved media of a page: playable in place when the browser can, otherwise opened in a new window. */
export function MediaList({ medias, emptyText }: { medias: MediaSummary[]; emptyText: string }) {
  const { t } = useTranslation();
  if (!medias.length) return <EmptyState>{emptyText}</EmptyState>;
  return (
    <SimpleList
      items={medias}
      rowKey={(media) => media.id}
      render={(media) => (
        <div className="list-row" aria-label={media.filename} role="group">
          <MediaPlayer media={media} />
          <div className="media-caption">
            <Tag>{media.file_ext.toUpperCase() || t('media.list.file')}</Tag>
            <Typography.Text className="media-name">{media.filename}</Typography.Text>
            <Button size="small" href={media.preview_url} target="_blank" rel="noreferrer" aria-label={t('media.list.openNamed', { name: media.filename })}>
              {t('common.action.open')}
            </Button>
          </div>
        </div>
      )}
    />
  );
}
