import type { ReactNode } from 'react';
import { HomePage } from '../features/company/HomePage';
import { ProductsPage } from '../features/products/ProductsPage';
import { ProductDetailPage } from '../features/products/ProductDetailPage';
import { CoursesPage } from '../features/courses/CoursesPage';
import { CourseDetailPage } from '../features/courses/CourseDetailPage';
import { NotificationsPage } from '../features/notifications/NotificationsPage';
import { ExamsPage } from '../features/exams/ExamsPage';
import { ExamPage } from '../features/exams/ExamPage';
import { CoachPage } from '../features/coach/CoachPage';
import { WorkbenchPage } from '../features/workbench/WorkbenchPage';
import { AdminRecordsPage } from '../features/records/AdminRecordsPage';
import { PacksPage } from '../features/packs/PacksPage';
import { UsersPage } from '../features/admin/UsersPage';
import { SystemConfigPage } from '../features/admin/SystemConfigPage';
import { RecordsPage } from '../features/records/RecordsPage';
import { RecordDetailPage } from '../features/records/RecordDetailPage';
import { MistakesPage } from '../features/records/MistakesPage';
import { UploadPage } from '../features/media/UploadPage';
import { MediaReviewPage } from '../features/media/MediaReviewPage';
import { KnowledgeReviewPage } from '../features/knowledge/KnowledgeReviewPage';
import { matchPath } from './router';

interface Route {
  path: string;
  adminOnly?: boolean;
  render(params: Record<string, string>, isAdmin: boolean): ReactNode;
}

/** A numeric id param, or null (the page is then "not found" instead of a 400 from the server). */
const idOf = (params: Record<string, string>) => (/^[1-9]\d{0,9}$/.test(params.id ?? '') ? Number(params.id) : null);
const withId = (page: (id: number) => ReactNode) => (params: Record<string, string>) => {
  const id = idOf(params);
  return id === null ? null : page(id);
};

const routes: Route[] = [
  { path: '/', render: () => <HomePage /> },
  { path: '/products', render: () => <ProductsPage /> },
  { path: '/products/:id', render: withId((id) => <ProductDetailPage key={id} id={id} />) },
  { path: '/courses', render: () => <CoursesPage /> },
  { path: '/courses/:id', render: withId((id) => <CourseDetailPage key={id} id={id} />) },
  { path: '/exams', render: () => <ExamsPage /> },
  { path: '/exams/:id', render: withId((id) => <ExamPage key={id} id={id} />) },
  { path: '/records', render: () => <RecordsPage /> },
  { path: '/records/:id', render: withId((id) => <RecordDetailPage key={id} id={id} />) },
  { path: '/mistakes', render: () => <MistakesPage /> },
  { path: '/media/upload', render: () => <UploadPage /> },
  { path: '/coach', render: () => <CoachPage /> },
  { path: '/workbench', render: () => <WorkbenchPage /> },
  { path: '/notifications', render: (_, isAdmin) => <NotificationsPage canOpen={(link) => findRoute(link.split('?')[0]!, isAdmin) !== null} /> },
  { path: '/admin/users', adminOnly: true, render: () => <UsersPage /> },
  { path: '/admin/records', adminOnly: true, render: () => <AdminRecordsPage /> },
  { path: '/admin/media', adminOnly: true, render: () => <MediaReviewPage /> },
  { path: '/admin/knowledge', adminOnly: true, render: () => <KnowledgeReviewPage /> },
  { path: '/admin/packs', adminOnly: true, render: () => <PacksPage /> },
  { path: '/admin/config', adminOnly: true, render: () => <SystemConfigPage /> },
];

function findRoute(path: string, isAdmin: boolean): { route: Route; params: Record<string, string> } | null {
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (params && (!route.adminOnly || isAdmin)) return { route, params };
  }
  return null;
}

/** The page for `path`, or null when there is none (or it is for admins and the user is not one). */
export function renderRoute(path: string, isAdmin: boolean): ReactNode {
  const found = findRoute(path, isAdmin);
  return found ? found.route.render(found.params, isAdmin) : null;
}
