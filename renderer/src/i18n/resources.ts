// The shape of every language's resources, taken from zh-CN (the reference language): one JSON file per area of
// the app, whose name is the first segment of its keys (`t('exams.cover.details')` lives in exams.json). A new area
// adds its file in both locales folders and one line here.
import type admin from './locales/zh-CN/admin.json';
import type ai from './locales/zh-CN/ai.json';
import type assignments from './locales/zh-CN/assignments.json';
import type auth from './locales/zh-CN/auth.json';
import type calls from './locales/zh-CN/calls.json';
import type bank from './locales/zh-CN/bank.json';
import type coach from './locales/zh-CN/coach.json';
import type coaching from './locales/zh-CN/coaching.json';
import type common from './locales/zh-CN/common.json';
import type compliance from './locales/zh-CN/compliance.json';
import type content from './locales/zh-CN/content.json';
import type courses from './locales/zh-CN/courses.json';
import type errors from './locales/zh-CN/errors.json';
import type exams from './locales/zh-CN/exams.json';
import type examStats from './locales/zh-CN/examStats.json';
import type home from './locales/zh-CN/home.json';
import type integrity from './locales/zh-CN/integrity.json';
import type knowledge from './locales/zh-CN/knowledge.json';
import type learning from './locales/zh-CN/learning.json';
import type media from './locales/zh-CN/media.json';
import type notifications from './locales/zh-CN/notifications.json';
import type org from './locales/zh-CN/org.json';
import type packs from './locales/zh-CN/packs.json';
import type products from './locales/zh-CN/products.json';
import type records from './locales/zh-CN/records.json';
import type shell from './locales/zh-CN/shell.json';
import type system from './locales/zh-CN/system.json';
import type speech from './locales/zh-CN/speech.json';
import type branchSync from './locales/zh-CN/branchSync.json';
import type spacedReview from './locales/zh-CN/spacedReview.json';
import type roleplay from './locales/zh-CN/roleplay.json';
import type workbench from './locales/zh-CN/workbench.json';
import type transcript from './locales/zh-CN/transcript.json';

export interface Resources {
  admin: typeof admin;
  ai: typeof ai;
  assignments: typeof assignments;
  auth: typeof auth;
  calls: typeof calls;
  bank: typeof bank;
  coach: typeof coach;
  coaching: typeof coaching;
  common: typeof common;
  compliance: typeof compliance;
  content: typeof content;
  courses: typeof courses;
  errors: typeof errors;
  exams: typeof exams;
  examStats: typeof examStats;
  home: typeof home;
  integrity: typeof integrity;
  knowledge: typeof knowledge;
  learning: typeof learning;
  media: typeof media;
  notifications: typeof notifications;
  org: typeof org;
  packs: typeof packs;
  products: typeof products;
  records: typeof records;
  shell: typeof shell;
  system: typeof system;
  speech: typeof speech;
  branchSync: typeof branchSync;
  spacedReview: typeof spacedReview;
  roleplay: typeof roleplay;
  workbench: typeof workbench;
  transcript: typeof transcript;
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Resources };
  }
}

/** `{'./exams.json': {...}}` (an import.meta.glob of one locale folder) → `{exams: {...}}`. */
export function byArea(files: Record<string, unknown>): Resources {
  return Object.fromEntries(Object.entries(files).map(([file, content]) => [file.replace(/^.*\/|\.json$/g, ''), content])) as unknown as Resources;
}
