import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/download';
import { tzOffset, type RecordSelection } from './queries';

/** Downloads everyone's records matching the selection as .xlsx, headed in the interface language. */
export function useExportRecords() {
  const { i18n } = useTranslation();
  return useMutation({
    mutationFn: (selection: RecordSelection) => {
      const query = new URLSearchParams(Object.entries(selection).filter(([, v]) => v !== ''));
      query.set('lang', i18n.language === 'en' ? 'en' : 'zh-CN');
      query.set('tz_offset', String(tzOffset()));
      return downloadFile(`/system/exam-records/export?${query.toString()}`);
    },
  });
}
