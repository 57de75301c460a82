import type { ParseKeys } from 'i18next';
import type { Tone } from '../../components/StatusTag';

/** The review states shared by media and knowledge sources, and the filter's "all". */
export type ReviewStatus = 'pending' | 'approved' | 'rejected' | 'all';
export const REVIEW_STATUSES: ReviewStatus[] = ['pending', 'approved', 'rejected', 'all'];

export const reviewLabel: Record<ReviewStatus, ParseKeys> = {
  pending: 'media.review.status.pending',
  approved: 'media.review.status.approved',
  rejected: 'media.review.status.rejected',
  all: 'common.filter.all',
};

export const reviewTone: Record<Exclude<ReviewStatus, 'all'>, Tone> = { pending: 'warning', approved: 'success', rejected: 'danger' };
