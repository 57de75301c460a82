import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Table, type TableColumnsType } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { SaveBar } from '../../components/admin/SaveBar';
import { StatusTag } from '../../components/StatusTag';
import { NotFound } from '../../components/NotFound';
import { EmptyState, ErrorNotice, QueryView } from '../../components/states';
import { useIdParam } from '../../components/useIdParam';
import type { CourseDetail, Product } from '../../api/types';
import { RemoteSelect } from '../../components/form/RemoteSelect';
import { ZodForm } from '../../components/form/ZodForm';
import { catalogOptions } from '../org/queries';
import { courseAdminQueries } from './queries';
import { useUpdateCourse } from './mutations';
import { CourseFields, courseFieldsOf, useCourseForm } from './CourseForm';

/** One course: its fields, and the products bound to it (inactive ones too, marked) to bind and unbind. */
export default function CourseEditorPage() {
  const id = useIdParam();
  const { t } = useTranslation();
  const course = useQuery({ ...courseAdminQueries.detail(id ?? 0), enabled: id !== null });
  if (id === null) return <NotFound />;
  return (
    <>
      <PageHeader title={course.data?.title ?? t('content.courses.editor')} subtitle={t('content.courses.editorSubtitle')} back={{ to: '/admin/courses', label: t('content.courses.title') }} />
      <QueryView query={course}>
        {(data) => (
          <>
            <CourseFieldsCard course={data} />
            <BoundProducts course={data} />
          </>
        )}
      </QueryView>
    </>
  );
}

function CourseFieldsCard({ course }: { course: CourseDetail }) {
  const { t } = useTranslation();
  const update = useUpdateCourse();
  const form = useCourseForm(course);
  const submit = (v: Parameters<typeof courseFieldsOf>[0]) => update.mutate({ id: course.id, change: courseFieldsOf(v) }, { onSuccess: () => form.reset(v) });
  return (
    <Card className="section">
      <h2 className="card-heading">{t('content.courses.fields')}</h2>
      <ZodForm form={form} onSubmit={submit} aria-label={t('content.courses.fields')}>
        <CourseFields form={form} />
        <SaveBar mutation={update} dirty={form.formState.isDirty} savedText={t('content.courses.saved')} />
      </ZodForm>
    </Card>
  );
}

function BoundProducts({ course }: { course: CourseDetail }) {
  const { t } = useTranslation();
  const change = useUpdateCourse();
  const [chosen, setChosen] = useState<number | null>(null);
  const bound = new Set(course.product_ids);
  const columns: TableColumnsType<Product> = [
    { title: t('content.products.name'), dataIndex: 'name' },
    { title: t('content.products.code'), dataIndex: 'code', render: (c: string | null) => c ?? t('common.state.none') },
    {
      title: t('content.status.label'),
      dataIndex: 'status',
      render: (s: Product['status']) => <StatusTag tone={s === 'active' ? 'success' : 'warning'}>{t(s === 'active' ? 'content.products.status.active' : 'content.courses.hiddenInactive')}</StatusTag>,
    },
    {
      title: <span className="visually-hidden">{t('content.actions')}</span>,
      key: 'unbind',
      render: (_, p) => (
        <Button size="small" aria-label={t('content.courses.unbindOne', { name: p.name })} loading={change.isPending} onClick={() => change.mutate({ id: course.id, change: { unbind_product_ids: [p.id] } })}>
          {t('content.courses.unbind')}
        </Button>
      ),
    },
  ];
  return (
    <Card className="section">
      <h2 className="card-heading">{t('content.courses.boundProducts')}</h2>
      <Flex gap="small" className="section course-bind" align="center" wrap>
        <RemoteSelect className="product-picker" search={catalogOptions.product} value={chosen} onChange={setChosen} aria-label={t('content.courses.productToBind')} placeholder={t('content.courses.searchProduct')} />
        <Button
          type="primary"
          disabled={chosen === null || bound.has(chosen)}
          loading={change.isPending}
          onClick={() => chosen !== null && change.mutate({ id: course.id, change: { bind_product_ids: [chosen] } }, { onSuccess: () => setChosen(null) })}
        >
          {t('content.courses.bind')}
        </Button>
      </Flex>
      {change.error && <ErrorNotice error={change.error} />}
      <Table<Product>
        aria-label={t('content.courses.boundProducts')}
        size="small"
        rowKey={(p) => p.id}
        columns={columns}
        dataSource={course.products}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: <EmptyState>{t('content.courses.noProducts')}</EmptyState> }}
      />
    </Card>
  );
}
