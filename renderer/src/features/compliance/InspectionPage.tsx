import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../app/session';
import { NotFound } from '../../components/NotFound';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/states';
import { useIdParam } from '../../components/useIdParam';
import { useFormat } from '../../i18n/format';
import { complianceQueries } from './queries';
import { InspectionView } from './InspectionView';

/** One inspection (the rep's own; any for admins, reached from the violation notice). */
export default function InspectionPage() {
  const id = useIdParam();
  return id === null ? <NotFound /> : <Detail id={id} />;
}

function Detail({ id }: { id: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const user = useUser();
  const query = useQuery(complianceQueries.inspection(id));
  const data = query.data;
  return (
    <>
      <PageHeader
        title={t('compliance.detail.title', { name: data?.filename ?? '' })}
        subtitle={data && t('compliance.detail.subtitle', { rep: data.user.full_name || data.user.username, date: format.dateTime(data.created_at) })}
        back={user.role === 'admin' ? { to: '/admin/compliance', label: t('compliance.detail.back') } : { to: '/coaching', label: t('shell.nav.coaching') }}
      />
      <QueryView query={query}>{(inspection) => <InspectionView inspection={inspection} />}</QueryView>
    </>
  );
}
