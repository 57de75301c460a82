import type { TFunction } from 'i18next';

/**
 * What the server says a route lacks (`reason_unavailable`: English parts joined by "; ") in plain words of the
 * interface language; a part not recognised here is shown as the server wrote it.
 */
const KNOWN: [RegExp, (t: TFunction, match: RegExpMatchArray) => string][] = [
  [/whisper-node package is not installed/, (t) => t('speech.reason.noPackage')],
  [/whisper\.cpp is not built/, (t) => t('speech.reason.notBuilt')],
  [/model file (.+?) not found/, (t, m) => t('speech.reason.modelMissing', { model: m[1]! })],
  [/^ffmpeg is missing/, (t) => t('speech.reason.noFfmpeg')],
  [/^ffprobe is missing/, (t) => t('speech.reason.noFfprobe')],
  [/audio_cloud_fallback/, (t) => t('speech.reason.cloudFallbackOff')],
];

export function plainReasons(reason: string, t: TFunction): string[] {
  return reason.split('; ').map((part) => {
    for (const [pattern, say] of KNOWN) {
      const match = part.match(pattern);
      if (match) return say(t, match);
    }
    return part;
  });
}
