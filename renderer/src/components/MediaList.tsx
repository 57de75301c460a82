import type { MediaSummary } from '../api/types';
import { Empty } from './states';

const VIDEO = new Set(['mp4', 'webm', 'mov', 'm4v', 'ogv']);
const AUDIO = new Set(['mp3', 'wav', 'm4a', 'ogg', 'flac', 'aac']);
const IMAGE = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'bmp']);

function Player({ media }: { media: MediaSummary }) {
  const ext = media.file_ext.toLowerCase();
  if (VIDEO.has(ext)) return <video className="media-player" src={media.preview_url} controls preload="metadata" />;
  if (AUDIO.has(ext)) return <audio className="media-audio" src={media.preview_url} controls preload="metadata" />;
  if (IMAGE.has(ext)) return <img className="media-image" src={media.preview_url} alt={media.filename} loading="lazy" />;
  return null;
}

/** Approved media of a page: playable in place when the browser can, otherwise opened in a new window. */
export function MediaList({ medias, emptyText = 'No media yet.' }: { medias: MediaSummary[]; emptyText?: string }) {
  if (!medias.length) return <Empty>{emptyText}</Empty>;
  return (
    <ul className="media-list">
      {medias.map((media) => (
        <li key={media.id} className="media-item">
          <Player media={media} />
          <div className="media-caption">
            <span className="file-badge">{media.file_ext.toUpperCase() || 'FILE'}</span>
            <span className="media-name">{media.filename}</span>
            <a className="button button-small button-ghost" href={media.preview_url} target="_blank" rel="noreferrer">
              Open
            </a>
          </div>
        </li>
      ))}
    </ul>
  );
}
