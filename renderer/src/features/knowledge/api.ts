import { api } from '../../api/client';
import type { KnowledgeApproveResult, KnowledgeRejectResult, KnowledgeScanResponse, KnowledgeSource, Page } from '../../api/types';
import type { ReviewStatus } from '../review/StatusFilter';

export const knowledgeKeys = {
  all: 'knowledge',
  audit: (status: ReviewStatus, page: number) => `knowledge/audit/${status}/${page}`,
};

export const scanKnowledge = () => api.post<KnowledgeScanResponse>('/knowledge/scan');
export const listKnowledgeAudit = (status: ReviewStatus, page: number, signal?: AbortSignal) =>
  api.get<Page<KnowledgeSource>>('/knowledge/audit-list', { query: { status, page, size: 20 }, signal });
export const auditKnowledge = (id: number, reason: string | null) =>
  api.post<KnowledgeApproveResult | KnowledgeRejectResult>(`/knowledge/audit/${id}`, reason === null ? { action: 'approve' } : { action: 'reject', reject_reason: reason });
