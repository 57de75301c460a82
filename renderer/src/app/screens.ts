// The nav registry: every screen of the app is ONE entry here: its route, who may open it, its lazily loaded
// page (a module whose default export is the page component) and, when it has one, its navigation item. The
// router (routes.tsx) and the sidebar (Shell.tsx) are both built from this list. Keep entries in the order the
// sidebar shows them, under the comment of their group.
import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { matchPath } from 'react-router';
import type { Role } from '../api/types';
import { prefetchDashboard } from '../features/home/dashboard-data';

/** Top-level groups of the sidebar, in order. */
export const NAV_GROUPS = ['learn', 'exams', 'workbench', 'admin'] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];
/** Sub-groups of the admin group, in order. */
export const ADMIN_SECTIONS = ['people', 'content', 'exams', 'ai', 'system'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

export interface NavItem {
  group: NavGroup;
  /** Only in the admin group: the sub-group heading it sits under. */
  section?: AdminSection;
  label: ParseKeys;
}

export interface Screen {
  /** react-router path, e.g. '/admin/users' or '/exams/:id'. */
  path: string;
  page: () => Promise<{ default: ComponentType }>;
  /** Who may open it; omitted: everyone signed in. Others get "page not found" and no nav item. */
  roles?: Role[];
  nav?: NavItem;
  /** Starts the page's first requests while its code loads (kept to the first screen: its queries ride in the initial bundle). */
  prefetch?: (client: QueryClient) => void;
}

const ADMIN: Role[] = ['admin'];

export const screens: Screen[] = [
  // 学习 learn
  { path: '/', page: () => import('../features/home/HomePage'), prefetch: prefetchDashboard, nav: { group: 'learn', label: 'shell.nav.home' } },
  { path: '/company', page: () => import('../features/home/CompanyPage'), nav: { group: 'learn', label: 'shell.nav.company' } },
  { path: '/products', page: () => import('../features/products/ProductsPage'), nav: { group: 'learn', label: 'shell.nav.products' } },
  { path: '/products/:id', page: () => import('../features/products/ProductDetailPage') },
  { path: '/courses', page: () => import('../features/courses/CoursesPage'), nav: { group: 'learn', label: 'shell.nav.courses' } },
  { path: '/courses/:id', page: () => import('../features/courses/CourseDetailPage') },
  { path: '/leaderboard', page: () => import('../features/learning/LeaderboardPage'), nav: { group: 'learn', label: 'shell.nav.leaderboard' } },

  // 考试 exams
  { path: '/exams', page: () => import('../features/exams/ExamsPage'), nav: { group: 'exams', label: 'shell.nav.exams' } },
  { path: '/exams/:id', page: () => import('../features/exams/ExamPage') },
  { path: '/records', page: () => import('../features/records/RecordsPage'), nav: { group: 'exams', label: 'shell.nav.records' } },
  { path: '/records/:id', page: () => import('../features/records/RecordDetailPage') },
  { path: '/certificates/:id', page: () => import('../features/records/CertificatePage') },
  { path: '/mistakes', page: () => import('../features/records/MistakesPage'), nav: { group: 'exams', label: 'shell.nav.mistakes' } },
  { path: '/spaced-review', page: () => import('../features/spaced-review/ReviewSessionPage'), nav: { group: 'exams', label: 'shell.nav.spacedReview' } },

  // 工作台 workbench
  { path: '/coach', page: () => import('../features/coach/CoachPage'), nav: { group: 'workbench', label: 'shell.nav.coach' } },
  { path: '/workbench', page: () => import('../features/workbench/WorkbenchPage'), nav: { group: 'workbench', label: 'shell.nav.workbench' } },
  { path: '/roleplay', page: () => import('../features/roleplay/RoleplayPage'), nav: { group: 'workbench', label: 'shell.nav.roleplay' } },
  { path: '/calls', page: () => import('../features/calls/CallsPage'), nav: { group: 'workbench', label: 'shell.nav.calls' } },
  { path: '/calls/:id', page: () => import('../features/calls/TranscriptionPage') },
  { path: '/coaching', page: () => import('../features/coaching/ReportsPage'), nav: { group: 'workbench', label: 'shell.nav.coaching' } },
  { path: '/coaching/reports/:id', page: () => import('../features/coaching/ReportPage') },
  { path: '/compliance/inspections/:id', page: () => import('../features/compliance/InspectionPage') },
  { path: '/workbench/notes', page: () => import('../features/workbench/NotesPage'), nav: { group: 'workbench', label: 'shell.nav.notes' } },
  { path: '/media/upload', page: () => import('../features/media/UploadPage'), nav: { group: 'workbench', label: 'shell.nav.upload' } },

  // Reached from the header
  { path: '/notifications', page: () => import('../features/notifications/NotificationsPage') },

  // 管理 admin — people
  { path: '/admin/users', roles: ADMIN, page: () => import('../features/admin/UsersPage'), nav: { group: 'admin', section: 'people', label: 'shell.nav.users' } },
  { path: '/admin/departments', roles: ADMIN, page: () => import('../features/org/DepartmentsPage'), nav: { group: 'admin', section: 'people', label: 'shell.nav.departments' } },
  { path: '/admin/positions', roles: ADMIN, page: () => import('../features/org/PositionsPage'), nav: { group: 'admin', section: 'people', label: 'shell.nav.positions' } },
  { path: '/admin/positions/:id', roles: ADMIN, page: () => import('../features/org/PositionDetailPage') },
  // admin — content
  { path: '/admin/products', roles: ADMIN, page: () => import('../features/product-admin/ProductsAdminPage'), nav: { group: 'admin', section: 'content', label: 'shell.nav.productAdmin' } },
  { path: '/admin/courses', roles: ADMIN, page: () => import('../features/course-admin/CoursesAdminPage'), nav: { group: 'admin', section: 'content', label: 'shell.nav.courseAdmin' } },
  { path: '/admin/courses/:id', roles: ADMIN, page: () => import('../features/course-admin/CourseEditorPage') },
  { path: '/admin/company', roles: ADMIN, page: () => import('../features/company-admin/CompanyEditorPage'), nav: { group: 'admin', section: 'content', label: 'shell.nav.companyIntro' } },
  { path: '/admin/media', roles: ADMIN, page: () => import('../features/media/MediaReviewPage'), nav: { group: 'admin', section: 'content', label: 'shell.nav.mediaReview' } },
  { path: '/admin/knowledge', roles: ADMIN, page: () => import('../features/knowledge/KnowledgeReviewPage'), nav: { group: 'admin', section: 'content', label: 'shell.nav.knowledgeReview' } },
  { path: '/admin/packs', roles: ADMIN, page: () => import('../features/packs/PacksPage'), nav: { group: 'admin', section: 'content', label: 'shell.nav.packs' } },
  // admin — exams
  { path: '/admin/questions', roles: ADMIN, page: () => import('../features/bank/QuestionsPage'), nav: { group: 'admin', section: 'exams', label: 'shell.nav.questionBank' } },
  { path: '/admin/papers', roles: ADMIN, page: () => import('../features/bank/PapersPage'), nav: { group: 'admin', section: 'exams', label: 'shell.nav.papers' } },
  { path: '/admin/assignments', roles: ADMIN, page: () => import('../features/assignments/AssignmentsPage'), nav: { group: 'admin', section: 'exams', label: 'assignments.nav' } },
  { path: '/admin/assignments/:id', roles: ADMIN, page: () => import('../features/assignments/AssignmentProgressPage') },
  { path: '/admin/records', roles: ADMIN, page: () => import('../features/records/AdminRecordsPage'), nav: { group: 'admin', section: 'exams', label: 'shell.nav.examRecords' } },
  { path: '/admin/compliance', roles: ADMIN, page: () => import('../features/compliance/ComplianceAdminPage'), nav: { group: 'admin', section: 'exams', label: 'shell.nav.compliance' } },
  { path: '/admin/compliance/inspections/:id', roles: ADMIN, page: () => import('../features/compliance/InspectionPage') },
  { path: '/coaching/question-drafts', roles: ADMIN, page: () => import('../features/coaching/DraftsPage'), nav: { group: 'admin', section: 'exams', label: 'shell.nav.questionDrafts' } },
  { path: '/admin/spaced-review', roles: ADMIN, page: () => import('../features/spaced-review/ReviewStatsPage'), nav: { group: 'admin', section: 'exams', label: 'shell.nav.reviewStats' } },
  { path: '/admin/roleplay', roles: ADMIN, page: () => import('../features/roleplay/ScenariosAdminPage'), nav: { group: 'admin', section: 'exams', label: 'shell.nav.roleplayScenarios' } },
  { path: '/admin/roleplay/sessions', roles: ADMIN, page: () => import('../features/roleplay/SessionsAdminPage'), nav: { group: 'admin', section: 'exams', label: 'shell.nav.roleplaySessions' } },
  // admin — ai
  { path: '/admin/speech', roles: ADMIN, page: () => import('../features/speech/SpeechPage'), nav: { group: 'admin', section: 'ai', label: 'shell.nav.speech' } },
  { path: '/admin/ai/routes', roles: ADMIN, page: () => import('../features/ai/ModelRoutesPage'), nav: { group: 'admin', section: 'ai', label: 'shell.nav.modelRoutes' } },
  { path: '/admin/ai/specialists', roles: ADMIN, page: () => import('../features/ai/SpecialistsPage'), nav: { group: 'admin', section: 'ai', label: 'shell.nav.specialists' } },
  { path: '/admin/ai/skills', roles: ADMIN, page: () => import('../features/ai/SkillsPage'), nav: { group: 'admin', section: 'ai', label: 'shell.nav.skills' } },
  { path: '/admin/ai/apps', roles: ADMIN, page: () => import('../features/ai/AppsPage'), nav: { group: 'admin', section: 'ai', label: 'shell.nav.apps' } },
  // admin — system
  { path: '/admin/config', roles: ADMIN, page: () => import('../features/admin/SystemConfigPage'), nav: { group: 'admin', section: 'system', label: 'shell.nav.config' } },
  { path: '/admin/sync', roles: ADMIN, page: () => import('../features/sync/SyncPage'), nav: { group: 'admin', section: 'system', label: 'shell.nav.sync' } },
  { path: '/admin/sync/devices', roles: ADMIN, page: () => import('../features/sync/DevicesPage'), nav: { group: 'admin', section: 'system', label: 'shell.nav.syncDevices' } },
];

export const mayOpen = (screen: Screen, role: Role) => !screen.roles || screen.roles.includes(role);

/** Whether an in-app link (a notification's, e.g. '/exams/3?x=1') names a screen this role may open. */
export function canOpen(link: string, role: Role): boolean {
  const path = link.split(/[?#]/, 1)[0]!;
  return screens.some((screen) => mayOpen(screen, role) && matchPath(screen.path, path) !== null);
}

/** The nav item a path belongs to: the longest nav path it starts with ('/exams/3' → '/exams'). */
export function navPathOf(pathname: string): string | undefined {
  const owners = screens.filter((s) => s.nav && (s.path === '/' ? pathname === '/' : pathname === s.path || pathname.startsWith(`${s.path}/`)));
  return owners.sort((a, b) => b.path.length - a.path.length)[0]?.path;
}

