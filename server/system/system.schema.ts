import { z } from 'zod';
import { nameText } from '../http/plain-text.js';

const username = nameText(64).min(1).regex(/^[^\s]+$/, 'must not contain spaces');
// Length and strength are the password policy's (auth/password-policy.ts: 400 auth.weak_password).
const password = z.string().min(1).max(1024);
const role = z.enum(['employee', 'admin']);
const optionalId = z.number().int().positive().nullable().optional();
/** The spec leaves the disabled value open: `inactive` (the word products and courses use) means `disabled` too. */
const userStatus = z.enum(['active', 'disabled', 'inactive']).transform((value) => (value === 'inactive' ? 'disabled' : value));

export const UserCreate = z.object({
  username,
  password,
  full_name: nameText(100).default(''),
  role: role.default('employee'),
  status: userStatus.optional(),
  department: nameText(100).optional(),
  department_id: optionalId,
  position_id: optionalId,
});

export const UserUpdate = z.object({
  username: username.optional(),
  password: password.optional(),
  full_name: nameText(100).optional(),
  role: role.optional(),
  status: userStatus.optional(),
  department: nameText(100).optional(),
  department_id: optionalId,
  position_id: optionalId,
});

export const UserListQuery = z.object({
  role: role.optional(),
  status: userStatus.optional(),
  department: z.string().optional(),
  /** Username or full name contains (case-insensitive). */
  q: z.string().trim().optional(),
  page: z.coerce.number().int().min(1).optional(),
  size: z.coerce.number().int().min(1).max(500).optional(),
});

/** Departments and positions: name contains `q`; `page` + `size` page the list (all when neither is given). */
export const OrgListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).optional(),
  size: z.coerce.number().int().min(1).max(500).optional(),
});

export const DepartmentCreate = z.object({ name: nameText(100).min(1), description: z.string().max(2000).optional() });
export const DepartmentUpdate = DepartmentCreate.partial();

const knowledgeItem = z.object({
  title: nameText(200).min(1),
  kind: z.enum(['course', 'product', 'text']).optional(),
  ref_id: z.number().int().positive().nullable().optional(),
  is_mandatory: z.boolean().optional(),
  sort_order: z.number().int().min(0).optional(),
});

export const KnowledgeCreate = knowledgeItem;
export const KnowledgeUpdate = knowledgeItem.partial();

export const PositionCreate = z.object({
  name: nameText(100).min(1),
  description: z.string().max(2000).optional(),
  knowledge: z.array(knowledgeItem).max(500).optional(),
});
/** On update the list is the new full set; an item carrying the id of an existing one edits it (omitted fields kept). */
export const PositionUpdate = PositionCreate.partial().extend({
  knowledge: z.array(knowledgeItem.extend({ id: z.number().int().positive().optional() })).max(500).optional(),
});

export const ConfigUpdate = z.object({ configs: z.record(z.string(), z.unknown()) });
