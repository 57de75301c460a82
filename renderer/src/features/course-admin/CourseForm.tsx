import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import type { UseFormReturn } from 'react-hook-form';
import { Col, Input, Row } from 'antd';
import { FormItem, useZodForm } from '../../components/form/ZodForm';
import type { Course } from '../../api/types';
import type { CourseFields as Fields } from './mutations';

const schema = z.object({
  title: z.string().trim().min(1, 'common.validation.required').max(200, 'content.validation.tooLong'),
  category: z.string().trim().max(100, 'content.validation.tooLong'),
  duration_minutes: z.string().trim().refine((v) => v === '' || (/^\d{1,5}$/.test(v) && Number(v) >= 1), 'content.validation.minutes'),
  summary: z.string().trim(),
  content: z.string(),
});

type CourseForm = UseFormReturn<z.input<typeof schema>, unknown, z.output<typeof schema>>;

/** The form of a course's own fields, starting from `course` (or empty). */
export const useCourseForm = (course?: Course): CourseForm =>
  useZodForm(schema, {
    title: course?.title ?? '',
    category: course?.category ?? '',
    duration_minutes: course?.duration_minutes ? String(course.duration_minutes) : '',
    summary: course?.summary ?? '',
    content: course?.content ?? '',
  });

/** What the form's values are sent as. */
export const courseFieldsOf = (v: z.output<typeof schema>): Fields => ({ ...v, duration_minutes: v.duration_minutes ? Number(v.duration_minutes) : null });

/** The fields, inside the ZodForm or FormDialog that saves them. */
export function CourseFields({ form }: { form: CourseForm }) {
  const { t } = useTranslation();
  return (
    <>
      <Row gutter={16}>
        <Col span={12}>
          <FormItem control={form.control} name="title" label={t('content.courses.name')} required>
            {(field) => <Input {...field} />}
          </FormItem>
        </Col>
        <Col span={6}>
          <FormItem control={form.control} name="category" label={t('content.courses.category')}>
            {(field) => <Input {...field} />}
          </FormItem>
        </Col>
        <Col span={6}>
          <FormItem control={form.control} name="duration_minutes" label={t('content.courses.duration')}>
            {(field) => <Input {...field} inputMode="numeric" />}
          </FormItem>
        </Col>
      </Row>
      <FormItem control={form.control} name="summary" label={t('content.courses.summary')}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 2, maxRows: 4 }} />}
      </FormItem>
      <FormItem control={form.control} name="content" label={t('content.courses.content')} extra={t('content.richTextHelp')}>
        {(field) => <Input.TextArea {...field} autoSize={{ minRows: 4, maxRows: 14 }} />}
      </FormItem>
    </>
  );
}
