// The notifications of assignments, in each recipient's language (see notifications/messages.ts).
import type { LocalizedContent } from '../notifications/messages.js';
import { dateTimeIn } from '../clock-format.js';
import type { AssignmentItemType } from '../../contract/assignments.js';

export interface NoticeSubject {
  title: string;
  item_type: AssignmentItemType;
  item_id: number;
  due_at: string;
  /** The firm's time zone (the `timezone` setting): due times are printed as its clocks show them. */
  time_zone: string;
}

const linkOf = (a: NoticeSubject) => (a.item_type === 'exam' ? `/exams/${a.item_id}` : a.item_type === 'roleplay' ? `/roleplay?scenario=${a.item_id}` : `/courses/${a.item_id}`);
const whatZh = (a: NoticeSubject) => (a.item_type === 'exam' ? '请通过该考试' : a.item_type === 'roleplay' ? '请通过该陪练' : '请学完该课程');
const whatEn = (a: NoticeSubject) => (a.item_type === 'exam' ? 'Pass the exam' : a.item_type === 'roleplay' ? 'Pass the role-play' : 'Complete the course');

export const assignmentNotice =
  (a: NoticeSubject): LocalizedContent =>
  (locale) => ({
    title: locale === 'en' ? `New assignment: ${a.title}` : `新的学习任务：${a.title}`,
    content: locale === 'en' ? `${whatEn(a)} by ${dateTimeIn(a.due_at, a.time_zone)}.` : `${whatZh(a)}，截止时间 ${dateTimeIn(a.due_at, a.time_zone)}。`,
    link: linkOf(a),
  });

export type ReminderKind = 'before' | 'due_day' | 'manual';

export const assignmentReminder =
  (a: NoticeSubject, kind: ReminderKind): LocalizedContent =>
  (locale) => ({
    title:
      locale === 'en'
        ? kind === 'due_day' ? `Due today: ${a.title}` : `Reminder: ${a.title}`
        : kind === 'due_day' ? `今天截止：${a.title}` : `任务提醒：${a.title}`,
    content: locale === 'en' ? `${whatEn(a)} by ${dateTimeIn(a.due_at, a.time_zone)}; it is not done yet.` : `${whatZh(a)}，截止时间 ${dateTimeIn(a.due_at, a.time_zone)}，你还没有完成。`,
    link: linkOf(a),
  });

/** The due date of an assignment moved: told to everyone not done yet. */
export const assignmentRescheduled =
  (a: NoticeSubject, previousDueAt: string): LocalizedContent =>
  (locale) => ({
    title: locale === 'en' ? `New due date: ${a.title}` : `截止时间已调整：${a.title}`,
    content:
      locale === 'en'
        ? `${whatEn(a)} by ${dateTimeIn(a.due_at, a.time_zone)} (was ${dateTimeIn(previousDueAt, a.time_zone)}).`
        : `${whatZh(a)}，截止时间改为 ${dateTimeIn(a.due_at, a.time_zone)}（原为 ${dateTimeIn(previousDueAt, a.time_zone)}）。`,
    link: linkOf(a),
  });
