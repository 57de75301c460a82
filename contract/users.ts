export type Role = 'employee' | 'admin';
export type UserStatus = 'active' | 'disabled';
/** Interface languages; zh-CN is the default. */
export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export interface User {
  id: number;
  username: string;
  full_name: string;
  role: Role;
  status: UserStatus;
  department: string;
  department_id: number | null;
  position_id: number | null;
  /** The interface language the user chose; null until they choose one. */
  locale: Locale | null;
  created_at: string;
  updated_at: string;
}

/** PUT /api/auth/me: what a user may change about themselves. */
export interface MyPreferences {
  locale?: Locale | null;
}

export interface LoginResult {
  token: string;
  expires_in: number;
  user: Pick<User, 'id' | 'username' | 'full_name' | 'role'>;
}

export interface Department {
  id: number;
  name: string;
  description: string;
  user_count: number;
  created_at: string;
  updated_at: string;
}

export interface PositionKnowledge {
  id: number;
  position_id: number;
  title: string;
  kind: 'course' | 'product' | 'text';
  ref_id: number | null;
  is_mandatory: boolean;
  sort_order: number;
}

export interface Position {
  id: number;
  name: string;
  description: string;
  knowledge: PositionKnowledge[];
  created_at: string;
  updated_at: string;
}
