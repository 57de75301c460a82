import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card } from 'antd';
import { api } from '../../api/client';
import type { Inspection } from '../../api/types';
import { ErrorNotice, QueryView } from '../../components/states';
import { complianceKeys, complianceQueries } from './queries';
import { InspectionView } from './InspectionView';

/** Beside the coaching report: the call's compliance inspection, or a button to make one. */
export default function InspectionPanel({ transcriptionId, repSpeaker, productId }: { transcriptionId: number; repSpeaker: string; productId: number | null }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery(complianceQueries.ofCall(transcriptionId));
  const inspect = useMutation({
    mutationFn: () => api.post<Inspection>('/compliance/inspections', { transcription_id: transcriptionId, rep_speaker: repSpeaker, ...(productId !== null && { product_id: productId }) }),
    onSuccess: (inspection) => client.setQueryData(complianceKeys.ofCall(transcriptionId), inspection),
  });
  return (
    <section aria-label={t('compliance.panel.title')} className="section">
      <h2 className="section-title">{t('compliance.panel.title')}</h2>
      <Card size="small">
        <QueryView query={query}>
          {(inspection) =>
            inspection ? (
              <>
                <InspectionView inspection={inspection} />
                <Link to={`/compliance/inspections/${inspection.id}`}>{t('compliance.panel.open')}</Link>
              </>
            ) : (
              <>
                <p>{t('compliance.panel.none')}</p>
                <Button type="primary" loading={inspect.isPending} onClick={() => inspect.mutate()}>
                  {t('compliance.panel.inspect')}
                </Button>
                {inspect.error && <ErrorNotice error={inspect.error} />}
              </>
            )
          }
        </QueryView>
      </Card>
    </section>
  );
}
