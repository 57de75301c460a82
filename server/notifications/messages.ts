// The texts of the notifications the server writes itself, in each recipient's language (users.locale; Chinese
// when they never chose one). Stored as text, so a notification reads the same later wherever it is listed.
import type { NotificationContent } from './notifications.service.js';

export type Locale = 'zh-CN' | 'en';
/** A notification whose texts depend on who receives it. */
export type LocalizedContent = (locale: Locale) => NotificationContent;

export const toLocale = (value: unknown): Locale => (typeof value === 'string' && value.toLowerCase().startsWith('en') ? 'en' : 'zh-CN');

export const examPublished =
  (paper: { id: number; name: string; question_count: number; duration_minutes: number; pass_score: number; total_score: number }): LocalizedContent =>
  (locale) => ({
    title: locale === 'en' ? `New exam: ${paper.name}` : `新考试：${paper.name}`,
    content:
      locale === 'en'
        ? `${paper.question_count} questions, ${paper.duration_minutes} minutes; pass with ${paper.pass_score} of ${paper.total_score} points.`
        : `共 ${paper.question_count} 题，限时 ${paper.duration_minutes} 分钟；满分 ${paper.total_score} 分，${paper.pass_score} 分及格。`,
    link: `/exams/${paper.id}`,
  });

export const taskAssigned =
  (task: { id: number; title: string }, owner: string): LocalizedContent =>
  (locale) => ({
    title: locale === 'en' ? `Task assigned to you: “${task.title}”` : `分配给你的任务：“${task.title}”`,
    content: locale === 'en' ? `The task “${task.title}” is now assigned to ${owner}.` : `任务“${task.title}”现已分配给 ${owner}。`,
    link: `/worker/tasks/${task.id}`,
  });

export const materialSuggested =
  (by: string, media: { id: number; filename: string }, remark: string | undefined): LocalizedContent =>
  (locale) => ({
    title: locale === 'en' ? 'New company material suggested' : '有新的公司资料待审核',
    content:
      locale === 'en'
        ? `${by} suggested "${media.filename}" for the company introduction${remark ? `: ${remark}` : ''}`
        : `${by} 为公司介绍推荐了“${media.filename}”${remark ? `：${remark}` : ''}`,
    link: `/admin/media?status=pending&id=${media.id}`,
  });

export const complianceViolation =
  (inspection: { id: number; filename: string; rep: string }, rules: { 'zh-CN': string; en: string }[]): LocalizedContent =>
  (locale) => ({
    title: locale === 'en' ? `Critical compliance violation: ${inspection.rep}` : `严重合规问题：${inspection.rep}`,
    content:
      locale === 'en'
        ? `The call "${inspection.filename}" failed ${rules.map((r) => r.en).join(', ')}.`
        : `通话“${inspection.filename}”未通过：${rules.map((r) => r['zh-CN']).join('、')}。`,
    link: `/admin/compliance/inspections/${inspection.id}`,
  });

/** Where an approved material is seen: its course, product or the company page (none: nowhere to link). */
const materialPlace = (media: { bind_type: string; bind_id: number | null }): string =>
  media.bind_type === 'course' && media.bind_id ? `/courses/${media.bind_id}` : media.bind_type === 'product' && media.bind_id ? `/products/${media.bind_id}` : media.bind_type === 'company' ? '/company' : '';

export const materialPending =
  (by: string, media: { id: number; filename: string }): LocalizedContent =>
  (locale) => ({
    title: locale === 'en' ? 'Material waiting for review' : '有资料待审核',
    content: locale === 'en' ? `${by} uploaded "${media.filename}"; it is shown to nobody until it is approved.` : `${by} 上传了“${media.filename}”，审核通过前不会展示给任何人。`,
    link: `/admin/media?status=pending&id=${media.id}`,
  });

export const materialApproved =
  (media: { filename: string; bind_type: string; bind_id: number | null }): LocalizedContent =>
  (locale) => ({
    title: locale === 'en' ? `Material approved: ${media.filename}` : `资料已通过审核：${media.filename}`,
    content: locale === 'en' ? `"${media.filename}" is approved and now shown to everyone.` : `“${media.filename}”已通过审核，现在所有人都能看到。`,
    link: materialPlace(media),
  });

export const materialRejected =
  (media: { filename: string }, reason: string): LocalizedContent =>
  (locale) => ({
    title: locale === 'en' ? `Material rejected: ${media.filename}` : `资料未通过审核：${media.filename}`,
    content: locale === 'en' ? `"${media.filename}" was rejected. Reason: ${reason}` : `“${media.filename}”未通过审核。原因：${reason}`,
    link: '/media/upload',
  });
