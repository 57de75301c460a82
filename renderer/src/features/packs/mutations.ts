import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { downloadFile } from '../../api/download';
import type { PackImportResult } from '../../api/types';
import { mediaKeys } from '../media/queries';
import { knowledgeKeys } from '../knowledge/queries';

/** Every approved knowledge source and media, as one signed pack file saved by the browser. */
export function useExportPack() {
  return useMutation({
    mutationFn: () => downloadFile('/knowledge-packs/export', { init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' } }),
  });
}

export function useImportPack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set('file', file);
      return api.post<PackImportResult>('/knowledge-packs/import', form);
    },
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: mediaKeys.all }), queryClient.invalidateQueries({ queryKey: knowledgeKeys.all })]),
  });
}
