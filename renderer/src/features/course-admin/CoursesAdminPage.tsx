import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Space, type TableColumnsType } from 'antd';
import { FormDialog } from '../../components/form/FormDialog';
import { AdminListHeader, FilterBar } from '../../components/admin/AdminList';
import { StatusTag } from '../../components/StatusTag';
import { DataTable } from '../../components/list/DataTable';
import { useListParams } from '../../components/list/useListParams';
import { ActiveToggle } from '../../components/admin/ActiveToggle';
import { StatusFilter } from '../../components/admin/ChoiceFilter';
import type { Course } from '../../api/types';
import { courseAdminQueries, type CourseAdminFilter } from './queries';
import { useCreateCourse, useSetCourseActive } from './mutations';
import { CourseFields, courseFieldsOf, useCourseForm } from './CourseForm';

/** Courses as admins keep them: every status, server-paged; a course opens in its editor. */
export default function CoursesAdminPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { page, filters, setPage, setFilters } = useListParams({ q: '', status: 'all' as CourseAdminFilter['status'] });
  const courses = useQuery(courseAdminQueries.list({ ...filters, page }));
  const [creating, setCreating] = useState(false);
  const columns: TableColumnsType<Course> = [
    { title: t('content.courses.name'), key: 'title', render: (_, c) => <Link to={`/admin/courses/${c.id}`}>{c.title}</Link> },
    { title: t('content.courses.category'), dataIndex: 'category', render: (v: string) => v || t('common.state.none') },
    { title: t('content.courses.products'), key: 'products', render: (_, c) => t('content.courses.productCount', { count: c.product_ids.length }) },
    { title: t('content.status.label'), dataIndex: 'status', render: (s: Course['status']) => <StatusTag tone={s === 'active' ? 'success' : 'neutral'}>{t(`content.courses.status.${s}`)}</StatusTag> },
    { title: <span className="visually-hidden">{t('content.actions')}</span>, key: 'actions', render: (_, c) => <CourseActive course={c} /> },
  ];
  return (
    <>
      <AdminListHeader title={t('content.courses.title')} subtitle={t('content.courses.subtitle')} newLabel={t('content.courses.new')} onNew={() => setCreating(true)} />
      <FilterBar label={t('content.courses.search')} id="courses-q" q={filters.q} onSearch={(q) => setFilters({ q })}>
        <StatusFilter value={filters.status} all="all" onChange={(status) => setFilters({ status })} statuses={[['active', 'content.courses.status.active'], ['inactive', 'content.courses.status.inactive']]} />
      </FilterBar>
      <DataTable label={t('content.courses.title')} query={courses} columns={columns} rowKey={(c) => c.id} onPage={setPage} empty={filters.q || filters.status !== 'all' ? t('content.courses.noMatch') : t('content.courses.empty')} />
      {creating && <NewCourseDialog onClose={() => setCreating(false)} onCreated={(id) => navigate(`/admin/courses/${id}`)} />}
    </>
  );
}

/** A new course gets its fields here, then opens in the editor to bind products. */
function NewCourseDialog({ onClose, onCreated }: { onClose(): void; onCreated(id: number): void }) {
  const { t } = useTranslation();
  const form = useCourseForm();
  const create = useCreateCourse();
  return (
    <FormDialog
      title={t('content.courses.new')}
      form={form}
      mutation={create}
      submitLabel={t('common.action.save')}
      onSubmit={(v) => create.mutate(courseFieldsOf(v), { onSuccess: (course) => onCreated(course.id) })}
      onClose={onClose}
      width={760}
    >
      <CourseFields form={form} />
    </FormDialog>
  );
}

function CourseActive({ course }: { course: Course }) {
  const { t } = useTranslation();
  const change = useSetCourseActive();
  return (
    <Space>
      <ActiveToggle
        active={course.status === 'active'}
        name={course.title}
        confirm={t('content.courses.deactivateConfirm', { name: course.title })}
        offLabel={t('content.courses.deactivate')}
        onLabel={t('content.courses.reactivate')}
        onSet={(active) => change.mutate({ id: course.id, active })}
        pending={change.isPending}
        error={change.error}
      />
    </Space>
  );
}
