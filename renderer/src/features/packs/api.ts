import { api } from '../../api/client';
import { downloadFile } from '../../api/download';
import type { PackImportResult, PackKey } from '../../api/types';

export const packKeys = { key: 'packs/key' };

export const getPackKey = (signal?: AbortSignal) => api.get<PackKey>('/knowledge-packs/key', { signal });

/** Every approved knowledge source and media, as one signed pack file saved by the browser. */
export const exportAllApproved = () =>
  downloadFile('/knowledge-packs/export', { init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' } });

export function importPack(file: File): Promise<PackImportResult> {
  const form = new FormData();
  form.set('file', file);
  return api.post<PackImportResult>('/knowledge-packs/import', form);
}
