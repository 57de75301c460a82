import type { ParseKeys } from 'i18next';
import type { PositionKnowledge } from '../../api/types';

/** What a position's knowledge item points at, as the admin reads it. */
export const KNOWLEDGE_KINDS: Record<PositionKnowledge['kind'], ParseKeys> = {
  text: 'org.knowledge.kinds.text',
  course: 'org.knowledge.kinds.course',
  product: 'org.knowledge.kinds.product',
};
